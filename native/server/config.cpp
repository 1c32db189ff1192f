#include "native/server/config.hpp"

#include <unistd.h>

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <utility>  // first: Boost 1.74's Asio uses std::exchange without including it

#include "core/util/json_parse.hpp"
#include "native/common/options.hpp"

namespace enygma::server {

namespace {

// One option: its flag, its environment variable and how it is stored.
struct Option {
  const char* flag;  // without the leading "--"
  const char* env;
  const char* help;
  // What the value may be: said by the error of a value refused, from the flag or the
  // environment alike.
  const char* expects;
  bool (*apply)(ServerConfig& c, const std::string& value);
  bool boolean = false;  // on/off; the flag alone is on
};

constexpr const char* kInteger1024 = "an integer in 1..1024";
constexpr const char* kDuration =
    "a duration above 0 such as 10s, 500ms or 2m (a number alone: seconds)";
constexpr const char* kBoolean = "on/off, true/false, yes/no or 1/0 (any case)";

template <class T>
bool set_unsigned(T& field, const std::string& value, unsigned long max) {
  auto parsed = native::parse_unsigned(value, max);
  if (!parsed) return false;
  field = static_cast<T>(*parsed);
  return true;
}

bool set_duration(std::chrono::milliseconds& field, const std::string& value) {
  auto parsed = native::parse_duration(value);
  if (!parsed || parsed->count() <= 0) return false;
  field = *parsed;
  return true;
}

// A size above 0 and at most `max` (native::parse_byte_size: bytes, KiB or MiB).
bool set_byte_size(size_t& field, const std::string& value, size_t max = SIZE_MAX) {
  auto parsed = native::parse_byte_size(value);
  if (!parsed || *parsed == 0 || *parsed > max) return false;
  field = *parsed;
  return true;
}

bool set_bool(bool& field, const std::string& value) {
  auto parsed = native::parse_bool(value);
  if (parsed) field = *parsed;
  return parsed.has_value();
}

const Option kOptions[] = {
    {"port", "ENYGMA_PORT", "TCP port (0: any free port, printed at start-up) [3003]",
     "an integer in 0..65535 (0: any free port)",
     [](ServerConfig& c, const std::string& v) { return set_unsigned(c.port, v, 65535); }},
    {"bind", "ENYGMA_BIND", "IPv4 or IPv6 address to listen on [127.0.0.1]",
     "an IPv4 or IPv6 address such as 127.0.0.1, 0.0.0.0 or ::1 (not a host name)",
     [](ServerConfig& c, const std::string& v) {
       c.bind = v;
       boost::system::error_code ec;  // an IPv4 or IPv6 address, checked before keys load
       boost::asio::ip::make_address(v, ec);
       return !ec;
     }},
    {"keys", "ENYGMA_KEYS", "folder with the key files <circuit>.pk and <circuit>.vk [keys/dev]",
     "a folder's path (not empty)",
     [](ServerConfig& c, const std::string& v) {
       c.keys_dir = v;
       return !v.empty();
     }},
    {"web", "ENYGMA_WEB",
     "folder of the built web demo, served at / (\"\" or \"none\": off) [first of "
     "<bin>/../web, <bin>/../../build-wasm/web, <bin>/../../web, ./web with an index.html]",
     "a folder holding an index.html, or none (or \"\") for no web demo",
     [](ServerConfig& c, const std::string& v) {
       c.web_dir = (v == "none") ? std::string() : v;
       return true;
     }},
    {"circuits", "ENYGMA_CIRCUITS",
     "circuits to serve: families (transfer,deposit,...), ids (transfer-k6) or all [all]",
     "families (transfer,deposit,...), circuit ids (transfer-k6) or all",
     [](ServerConfig& c, const std::string& v) {
       c.circuits_spec = v;
       return !v.empty();
     }},
    {"k", "ENYGMA_K",
     "anonymity-set sizes of the families that have them, e.g. 2-6 or 2,3,6 [each family's "
     "defaults: 2-6]",
     "anonymity-set sizes in {k} such as 4, 2-6 or 2,3,6",
     [](ServerConfig& c, const std::string& v) {
       c.k_spec = v;
       const auto [lo, hi] = native::k_bounds();
       return native::parse_k_list(v, lo, hi).has_value();
     }},
    {"max-inflight", "ENYGMA_MAX_INFLIGHT", "proofs running at once [hardware threads]",
     kInteger1024,
     [](ServerConfig& c, const std::string& v) {
       return set_unsigned(c.max_inflight, v, 1024) && c.max_inflight > 0;
     }},
    {"queue", "ENYGMA_QUEUE",
     "admitted proofs waiting for a prover; beyond: 503 [4 x max-inflight]",
     "an integer in 1..1048576",
     [](ServerConfig& c, const std::string& v) {
       return set_unsigned(c.queue, v, 1u << 20) && c.queue > 0;
     }},
    {"prover-threads", "ENYGMA_PROVER_THREADS",
     "threads per proof [max(1, hardware threads / max-inflight)]", kInteger1024,
     [](ServerConfig& c, const std::string& v) {
       return set_unsigned(c.prover_threads, v, 1024) && c.prover_threads > 0;
     }},
    {"io-threads", "ENYGMA_IO_THREADS", "network threads [min(2, hardware threads)]",
     "an integer in 1..256",
     [](ServerConfig& c, const std::string& v) {
       return set_unsigned(c.io_threads, v, 256) && c.io_threads > 0;
     }},
    {"max-body", "ENYGMA_MAX_BODY",
     "largest request body, e.g. 64KiB, at most 16MiB; beyond: 413 [64KiB]",
     "a size above 0 and at most 16MiB (16777216 bytes) in bytes, KiB or MiB such as 65536, "
     "64KiB (64k, 64KB) or 1MiB (1M, 1MB)",
     [](ServerConfig& c, const std::string& v) {
       return set_byte_size(c.max_body, v, kMaxBodyLimit);
     }},
    {"max-connections", "ENYGMA_MAX_CONNECTIONS", "open connections; beyond: 503 [1024]",
     "an integer in 1..1048576",
     [](ServerConfig& c, const std::string& v) {
       return set_unsigned(c.max_connections, v, 1u << 20) && c.max_connections > 0;
     }},
    {"header-timeout", "ENYGMA_HEADER_TIMEOUT", "time to send a request header; beyond: 408 [10s]",
     kDuration,
     [](ServerConfig& c, const std::string& v) { return set_duration(c.header_timeout, v); }},
    {"body-timeout", "ENYGMA_BODY_TIMEOUT", "time to send a request body; beyond: 408 [30s]",
     kDuration,
     [](ServerConfig& c, const std::string& v) { return set_duration(c.body_timeout, v); }},
    {"idle-timeout", "ENYGMA_IDLE_TIMEOUT", "keep-alive wait for the next request [60s]", kDuration,
     [](ServerConfig& c, const std::string& v) { return set_duration(c.idle_timeout, v); }},
    {"write-timeout", "ENYGMA_WRITE_TIMEOUT",
     "longest time a client may take nothing of a response [30s]", kDuration,
     [](ServerConfig& c, const std::string& v) { return set_duration(c.write_timeout, v); }},
    {"drain-timeout", "ENYGMA_DRAIN_TIMEOUT",
     "on SIGTERM, longest wait for admitted proofs before giving up (exit 1) [120s]", kDuration,
     [](ServerConfig& c, const std::string& v) { return set_duration(c.drain_timeout, v); }},
    {"access-log", "ENYGMA_ACCESS_LOG", "one JSON line per request on stdout: on/off [on]",
     kBoolean, [](ServerConfig& c, const std::string& v) { return set_bool(c.access_log, v); },
     true},
    {"access-log-queue", "ENYGMA_ACCESS_LOG_QUEUE",
     "log lines held while stdout's reader stalls; beyond: dropped, counted [4MiB]",
     "a size above 0 in bytes, KiB or MiB such as 4MiB (4M, 4MB) or 65536",
     [](ServerConfig& c, const std::string& v) { return set_byte_size(c.access_log_queue, v); }},
    {"isolation", "ENYGMA_ISOLATION",
     "send the cross-origin isolation headers (COOP, COEP) that browsers need for threads: "
     "on/off; --no-isolation is off [on]",
     kBoolean, [](ServerConfig& c, const std::string& v) { return set_bool(c.isolation, v); },
     true},
    {"reference-status-codes", "ENYGMA_REFERENCE_STATUS_CODES",
     "answer a refused request with 500 and the reference's {\"error\"} body, not 400: on/off, "
     "alone on [off]",
     kBoolean,
     [](ServerConfig& c, const std::string& v) { return set_bool(c.reference_status_codes, v); },
     true},
    {"backend", "ENYGMA_BACKEND",
     "circuits (real proofs) or fake (sleeps, fixed answer: HTTP-layer tests only) [circuits]",
     "circuits or fake",
     [](ServerConfig& c, const std::string& v) {
       c.backend = v == "transfer" ? "circuits" : v;  // "transfer": the older name
       return c.backend == "circuits" || c.backend == "fake";
     }},
    {"fake-prove-time", "ENYGMA_FAKE_PROVE_TIME", "how long a fake proof sleeps [200ms]", kDuration,
     [](ServerConfig& c, const std::string& v) { return set_duration(c.fake_prove_time, v); }},
};

// What an option's value may be, as its refusal says: "{k}" is the registry's k range.
std::string expected(const Option& option) {
  std::string text = option.expects;
  if (auto at = text.find("{k}"); at != std::string::npos) {
    text.replace(at, 3, native::k_bounds_text());
  }
  return text;
}

// The command line with each boolean option that is followed by no value (the end or another
// option) given the value on ("--reference-status-codes" -> "--reference-status-codes=on"): the
// one option parser takes an option either with a value or as a flag, and these take both.
std::vector<std::string> booleans_valued(int argc, char** argv) {
  std::vector<std::string> out(argv, argv + argc);
  for (size_t i = 1; i < out.size(); ++i) {
    if (out[i].rfind("--", 0) != 0 || out[i].find('=') != std::string::npos) continue;
    for (const auto& option : kOptions) {
      if (out[i] != std::string("--") + option.flag) continue;
      if (!option.boolean) {
        ++i;  // its value
      } else if (i + 1 == out.size() || out[i + 1].rfind("--", 0) == 0) {
        out[i] += "=on";  // alone; a word after it is its value (`maybe` refused as one)
      }
      break;
    }
  }
  return out;
}

std::string exe_dir() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return exe.parent_path().string();
}

}  // namespace

void ServerConfig::resolve_defaults(unsigned hardware_threads) {
  const unsigned cores = std::max(1u, hardware_threads);
  if (max_inflight == 0) max_inflight = cores;
  if (queue == 0) queue = 4 * max_inflight;
  if (prover_threads == 0) prover_threads = std::max(1u, cores / max_inflight);
  if (io_threads == 0) io_threads = std::min(2u, cores);
}

std::string ServerConfig::to_json() const {
  nlohmann::ordered_json j;
  j["event"] = "config";
  j["bind"] = bind;
  j["port"] = port;
  j["keys"] = keys_dir;
  j["web"] = web_dir;
  std::vector<std::string> ids;
  for (const CircuitId& id : circuits) ids.push_back(id.str());
  j["circuits"] = ids;
  j["max_inflight"] = max_inflight;
  j["queue"] = queue;
  j["prover_threads"] = prover_threads;
  j["io_threads"] = io_threads;
  j["max_body"] = max_body;
  j["max_connections"] = max_connections;
  j["header_timeout_ms"] = header_timeout.count();
  j["body_timeout_ms"] = body_timeout.count();
  j["idle_timeout_ms"] = idle_timeout.count();
  j["write_timeout_ms"] = write_timeout.count();
  j["drain_timeout_ms"] = drain_timeout.count();
  j["access_log"] = access_log;
  j["access_log_queue"] = access_log_queue;
  j["reference_status_codes"] = reference_status_codes;
  j["isolation"] = isolation;
  j["backend"] = backend;
  if (backend == "fake") j["fake_prove_time_ms"] = fake_prove_time.count();
  return json_text(j);  // the folders are bytes from the command line
}

void print_serve_usage(FILE* out) {
  fprintf(out,
          "usage: enygma serve [options]\n\n"
          "The proving server: for every circuit served, POST <prove route> (the reference's,\n"
          "e.g. /generateProofTransfer-{k}, /join-split-enygma) and POST <verify route>; GET\n"
          "/healthcheck, /readyz, /metrics, /keys/manifest.json, /keys/..., and the web demo.\n"
          "Every key is loaded before the port is opened. Each option can also be set through\n"
          "the environment variable shown; a flag wins.\n\ncircuits:\n");
  for (const CircuitFamily* f : circuit_families()) {
    std::string routes(f->prove_route);
    routes += ", ";
    routes += f->verify_route;
    if (f->has_k()) {
      routes += "  (k " + std::to_string(f->min_k) + ".." + std::to_string(f->max_k) +
                "; default " + std::to_string(f->default_min_k) + ".." +
                std::to_string(f->default_max_k) + ")";
    }
    fprintf(out, "  %-18s %s\n", std::string(f->name).c_str(), routes.c_str());
  }
  fprintf(out, "\noptions:\n");
  for (const auto& option : kOptions) {
    fprintf(out, "  --%-22s %-30s %s\n", option.flag, option.env, option.help);
  }
}

ConfigParse parse_server_config(int argc, char** argv, const char* (*env)(const char*)) {
  ConfigParse result;
  // The command line through the one option parser of the native programs; every serve option
  // takes a value (a boolean one alone: on).
  std::set<std::string> flags;
  for (const auto& option : kOptions) flags.insert(option.flag);
  std::vector<std::string> arg_text = booleans_valued(argc, argv);
  std::vector<char*> arg_pointers;
  for (auto& a : arg_text) arg_pointers.push_back(a.data());
  native::Args args;
  if (!args.parse(static_cast<int>(arg_pointers.size()), arg_pointers.data(), flags,
                  {"no-isolation"}, "enygma serve", {"web"})) {
    result.exit_code = native::kExitUsage;
    return result;
  }
  if (args.help()) {
    print_serve_usage(stdout);
    return result;
  }
  ServerConfig config;
  // Where each option given came from, for the errors: "--k" or "ENYGMA_K".
  std::map<std::string, std::string> source;
  // A usage error in the CLI's one form (native/cli/output.hpp's usage_error), as the option
  // parser's own.
  auto refuse = [&](const std::string& message) {
    fprintf(stderr, "enygma serve: %s (see --help)\n", message.c_str());
    result.exit_code = native::kExitUsage;
    return result;
  };
  // The environment first, then the flags: a flag wins, and the variable of an option given as
  // a flag is not read (a stale ENYGMA_PORT does not stop `--port 8080`).
  for (const auto& option : kOptions) {
    const char* value = env ? env(option.env) : nullptr;
    if (!value || args.get(option.flag) ||
        (std::strcmp(option.flag, "isolation") == 0 && args.has("no-isolation"))) {
      continue;
    }
    if (!option.apply(config, value)) {
      return refuse(std::string("invalid ") + option.env + "=" + native::shown_on_one_line(value) +
                    ": expected " + expected(option));
    }
    source[option.flag] = option.env;
  }
  for (const auto& option : kOptions) {
    auto value = args.get(option.flag);
    if (!value) continue;
    if (!option.apply(config, *value)) {
      return refuse("invalid value '" + native::shown_on_one_line(*value) + "' for --" +
                    option.flag + ": expected " + expected(option));
    }
    source[option.flag] = std::string("--") + option.flag;
  }
  // "--k 2" or "ENYGMA_K=2": how an option was given, for an error that quotes it.
  auto given = [&](const std::string& flag, const std::string& value) {
    const std::string& from = source[flag];
    const std::string shown = native::shown_on_one_line(value);
    return from.rfind("--", 0) == 0 ? from + " " + shown : from + "=" + shown;
  };
  if (args.has("no-isolation")) {
    // --no-isolation is --isolation off: both given is a contradiction or a repetition.
    if (args.get("isolation")) {
      return refuse(
          "--no-isolation and --isolation cannot both be given (--no-isolation is "
          "--isolation off)");
    }
    config.isolation = false;
  }
  // A circuit id names its k: --k applies to the families named (or all), never to ids alone.
  if (config.k_spec && native::names_circuit_ids_only(config.circuits_spec)) {
    return refuse(source["k"] + " cannot be combined with " +
                  given("circuits", config.circuits_spec) +
                  ": a circuit id names its own k; name a family (transfer) to choose k");
  }
  auto circuits = native::resolve_circuits(config.circuits_spec, config.k_spec, "circuits");
  if (!circuits) {
    // The message names --k or --circuits; say ENYGMA_K or ENYGMA_CIRCUITS where they gave it.
    std::string message = circuits.error().message;
    const std::string& field = circuits.error().field;
    const std::string flag = "--" + field;
    if ((field == "k" || field == "circuits") && message.rfind(flag, 0) == 0 &&
        source.count(field) > 0) {
      message.replace(0, flag.size(), source[field]);
    }
    return refuse(message);
  }
  config.circuits = std::move(*circuits);
  if (source.count("web") == 0) {
    config.web_dir = default_web_dir();
  } else if (!config.web_dir.empty()) {
    // A folder given must be the built demo: otherwise every page would be 404.
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path dir(config.web_dir);
    const char* why = nullptr;
    if (!fs::exists(dir, ec)) {
      why = "no such folder";
    } else if (!fs::is_directory(dir, ec)) {
      why = "not a folder";
    } else if (!fs::is_regular_file(dir / "index.html", ec)) {
      why = "the folder has no index.html (build the web demo first)";
    }
    if (why) {
      return refuse(given("web", config.web_dir) + ": " + why +
                    "; give the built web demo's folder, or none for no web demo");
    }
  }
  result.config = std::move(config);
  return result;
}

std::vector<std::string> unknown_enygma_variables(const char* const* env) {
  // Read by the program (native/cli/main.cpp) or by the project's scripts, tests and
  // configurations, which may share serve's environment: not warned about.
  static const char* const kOthers[] = {
      "ENYGMA_DISABLE_KERNELS",  // native/cli/main.cpp: the x86-64 kernels switched off
      // scripts/cluster.sh and deploy/haproxy/enygma.cfg
      "ENYGMA_LB_BIND", "ENYGMA_LB_STATS_BIND", "ENYGMA_LB_SERVER_MAXCONN",
      // scripts/build-wasm-deps.sh, scripts/check-wasm-sodium.sh, scripts/check_format.sh; the
      // Makefile's step times (exported by .ci/run)
      "ENYGMA_JOBS", "ENYGMA_TESTS_REQUIRE_TOOLS", "ENYGMA_TIMES",
      // the tests and benchmarks
      "ENYGMA_SWEEP", "ENYGMA_TEST_SETUP_BINARY", "ENYGMA_FREED_SCAN_NEEDLES",
      "ENYGMA_FREED_SCAN_REPORT", "ENYGMA_SHARED_DIR",
      // e2e/ (Playwright): the server it starts, the browser and the benchmarks
      "ENYGMA_BIN", "ENYGMA_E2E_ALLOW_MISSING", "ENYGMA_E2E_CIRCUITS", "ENYGMA_E2E_KEYS",
      "ENYGMA_E2E_SERVER_PID", "ENYGMA_E2E_SERVER_PID_NO_ISOLATION", "ENYGMA_E2E_URL",
      "ENYGMA_E2E_URL_NO_ISOLATION", "ENYGMA_E2E_JS_COVERAGE", "ENYGMA_CHROMIUM",
      "ENYGMA_CHROMIUM_ARGS", "ENYGMA_BENCH_QUERY", "ENYGMA_BENCH_RUNS", "ENYGMA_BENCH_THREADS",
      "ENYGMA_BENCH_WARMUP", "ENYGMA_SHARED", "ENYGMA_SNARKJS_CACHE", "ENYGMA_SNARKJS_KS",
      // wasm/bench_prove.cjs: the module it runs
      "ENYGMA_MODULE"};
  std::set<std::string, std::less<>> known(std::begin(kOthers), std::end(kOthers));
  for (const auto& option : kOptions) known.insert(option.env);
  std::vector<std::string> unknown;
  for (const char* const* entry = env; entry && *entry; ++entry) {
    const std::string_view text(*entry);
    const std::string_view name = text.substr(0, text.find('='));  // never the value
    if (name.rfind("ENYGMA_", 0) != 0 || known.count(name) > 0) continue;
    unknown.emplace_back(name);
  }
  return unknown;
}

std::string default_web_dir() {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (std::string dir = exe_dir(); !dir.empty()) {
    candidates.push_back(fs::path(dir) / ".." / "web");
    candidates.push_back(fs::path(dir) / ".." / ".." / "build-wasm" / "web");
    candidates.push_back(fs::path(dir) / ".." / ".." / "web");
  }
  candidates.push_back(fs::path("web"));
  for (const auto& candidate : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(candidate / "index.html", ec)) {
      return fs::weakly_canonical(candidate, ec).string();
    }
  }
  return {};
}

}  // namespace enygma::server
