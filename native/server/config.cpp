#include "native/server/config.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace enygma::server {

namespace {

// One option: its flag, its environment variable and how it is stored.
struct Option {
  const char* flag;  // without the leading "--"
  const char* env;
  const char* help;
  bool (*apply)(ServerConfig& c, const std::string& value);
};

std::optional<unsigned long> parse_unsigned(const std::string& text, unsigned long max) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  unsigned long value = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return std::nullopt;
    value = value * 10 + static_cast<unsigned long>(ch - '0');
  }
  if (value > max) return std::nullopt;
  return value;
}

template <class T>
bool set_unsigned(T& field, const std::string& value, unsigned long max) {
  auto parsed = parse_unsigned(value, max);
  if (!parsed) return false;
  field = static_cast<T>(*parsed);
  return true;
}

bool set_duration(std::chrono::milliseconds& field, const std::string& value) {
  auto parsed = parse_duration(value);
  if (!parsed || parsed->count() <= 0) return false;
  field = *parsed;
  return true;
}

bool set_bool(bool& field, const std::string& value) {
  if (value == "1" || value == "true" || value == "on" || value == "yes") {
    field = true;
  } else if (value == "0" || value == "false" || value == "off" || value == "no") {
    field = false;
  } else {
    return false;
  }
  return true;
}

const Option kOptions[] = {
    {"port", "ENYGMA_PORT", "TCP port (0: any free port, printed at start-up) [3003]",
     [](ServerConfig& c, const std::string& v) { return set_unsigned(c.port, v, 65535); }},
    {"bind", "ENYGMA_BIND", "address to listen on [127.0.0.1]",
     [](ServerConfig& c, const std::string& v) {
       c.bind = v;
       return !v.empty();
     }},
    {"keys", "ENYGMA_KEYS", "folder with transfer-k<k>.pk and transfer-k<k>.vk [keys/dev]",
     [](ServerConfig& c, const std::string& v) {
       c.keys_dir = v;
       return !v.empty();
     }},
    {"web", "ENYGMA_WEB",
     "folder of the built web demo, served at / (\"\" or \"none\": off) [first of "
     "<bin>/../web, <bin>/../../build-wasm/web, <bin>/../../web, ./web with an index.html]",
     [](ServerConfig& c, const std::string& v) {
       c.web_dir = (v == "none") ? std::string() : v;
       return true;
     }},
    {"k", "ENYGMA_K", "anonymity-set sizes to serve, e.g. 2-6 or 2,3,6 [2-6]",
     [](ServerConfig& c, const std::string& v) {
       auto ks = parse_k_list(v);
       if (!ks) return false;
       c.ks = *ks;
       return true;
     }},
    {"max-inflight", "ENYGMA_MAX_INFLIGHT", "proofs running at once [hardware threads]",
     [](ServerConfig& c, const std::string& v) {
       return set_unsigned(c.max_inflight, v, 1024) && c.max_inflight > 0;
     }},
    {"queue", "ENYGMA_QUEUE",
     "admitted proofs waiting for a prover; beyond: 503 [4 x max-inflight]",
     [](ServerConfig& c, const std::string& v) {
       return set_unsigned(c.queue, v, 1u << 20) && c.queue > 0;
     }},
    {"prover-threads", "ENYGMA_PROVER_THREADS",
     "threads per proof [max(1, hardware threads / max-inflight)]",
     [](ServerConfig& c, const std::string& v) {
       return set_unsigned(c.prover_threads, v, 1024) && c.prover_threads > 0;
     }},
    {"io-threads", "ENYGMA_IO_THREADS", "network threads [min(2, hardware threads)]",
     [](ServerConfig& c, const std::string& v) {
       return set_unsigned(c.io_threads, v, 256) && c.io_threads > 0;
     }},
    {"max-body", "ENYGMA_MAX_BODY", "largest request body, e.g. 64KiB; beyond: 413 [64KiB]",
     [](ServerConfig& c, const std::string& v) {
       auto n = parse_byte_size(v);
       if (!n || *n == 0) return false;
       c.max_body = *n;
       return true;
     }},
    {"max-connections", "ENYGMA_MAX_CONNECTIONS", "open connections; beyond: 503 [1024]",
     [](ServerConfig& c, const std::string& v) {
       return set_unsigned(c.max_connections, v, 1u << 20) && c.max_connections > 0;
     }},
    {"header-timeout", "ENYGMA_HEADER_TIMEOUT", "time to send a request header; beyond: 408 [10s]",
     [](ServerConfig& c, const std::string& v) { return set_duration(c.header_timeout, v); }},
    {"body-timeout", "ENYGMA_BODY_TIMEOUT", "time to send a request body; beyond: 408 [30s]",
     [](ServerConfig& c, const std::string& v) { return set_duration(c.body_timeout, v); }},
    {"idle-timeout", "ENYGMA_IDLE_TIMEOUT", "keep-alive wait for the next request [60s]",
     [](ServerConfig& c, const std::string& v) { return set_duration(c.idle_timeout, v); }},
    {"write-timeout", "ENYGMA_WRITE_TIMEOUT", "time for a client to take a response [30s]",
     [](ServerConfig& c, const std::string& v) { return set_duration(c.write_timeout, v); }},
    {"drain-timeout", "ENYGMA_DRAIN_TIMEOUT",
     "on SIGTERM, longest wait for admitted proofs before giving up (exit 1) [120s]",
     [](ServerConfig& c, const std::string& v) { return set_duration(c.drain_timeout, v); }},
    {"access-log", "ENYGMA_ACCESS_LOG", "one JSON line per request on stdout: on/off [on]",
     [](ServerConfig& c, const std::string& v) { return set_bool(c.access_log, v); }},
    {"backend", "ENYGMA_BACKEND",
     "transfer (real proofs) or fake (sleeps, fixed answer: HTTP-layer tests only) [transfer]",
     [](ServerConfig& c, const std::string& v) {
       c.backend = v;
       return v == "transfer" || v == "fake";
     }},
    {"fake-prove-time", "ENYGMA_FAKE_PROVE_TIME", "how long a fake proof sleeps [200ms]",
     [](ServerConfig& c, const std::string& v) { return set_duration(c.fake_prove_time, v); }},
};

const Option* find_option(const std::string& flag) {
  for (const auto& option : kOptions) {
    if (flag == option.flag) return &option;
  }
  return nullptr;
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
  j["k"] = ks;
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
  j["backend"] = backend;
  if (backend == "fake") j["fake_prove_time_ms"] = fake_prove_time.count();
  return j.dump();
}

void print_serve_usage(FILE* out) {
  fprintf(out,
          "usage: enygma serve [options]\n\n"
          "The proving server: POST /generateProofTransfer-{k}, POST /verifyProofTransfer-{k},\n"
          "GET /healthcheck, /readyz, /metrics, /keys/manifest.json, /keys/..., and the web demo.\n"
          "Every key is loaded before the port is opened. Each option can also be set through\n"
          "the environment variable shown; a flag wins.\n\noptions:\n");
  for (const auto& option : kOptions) {
    fprintf(out, "  --%-18s %-24s %s\n", option.flag, option.env, option.help);
  }
}

ConfigParse parse_server_config(int argc, char** argv, const char* (*env)(const char*)) {
  ConfigParse result;
  ServerConfig config;
  bool web_set = false;
  for (const auto& option : kOptions) {
    const char* value = env ? env(option.env) : nullptr;
    if (!value) continue;
    if (!option.apply(config, value)) {
      fprintf(stderr, "enygma serve: invalid %s=%s\n", option.env, value);
      result.exit_code = 2;
      return result;
    }
    if (!strcmp(option.flag, "web")) web_set = true;
  }
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      print_serve_usage(stdout);
      return result;
    }
    if (arg.rfind("--", 0) != 0) {
      fprintf(stderr, "enygma serve: unexpected argument '%s'\n", arg.c_str());
      result.exit_code = 2;
      return result;
    }
    std::string name = arg.substr(2), value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      fprintf(stderr, "enygma serve: --%s needs a value\n", name.c_str());
      result.exit_code = 2;
      return result;
    }
    const Option* option = find_option(name);
    if (!option) {
      fprintf(stderr, "enygma serve: unknown option --%s (see enygma serve --help)\n",
              name.c_str());
      result.exit_code = 2;
      return result;
    }
    if (!option->apply(config, value)) {
      fprintf(stderr, "enygma serve: invalid value '%s' for --%s\n", value.c_str(), name.c_str());
      result.exit_code = 2;
      return result;
    }
    if (name == "web") web_set = true;
  }
  if (!web_set) config.web_dir = default_web_dir();
  result.config = std::move(config);
  return result;
}

std::optional<std::vector<unsigned>> parse_k_list(const std::string& text) {
  constexpr unsigned kLow = 2, kHigh = 16;  // kMinK..kMaxK of core/transfer/request.hpp
  std::vector<unsigned> ks;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(start, comma - start);
    size_t dash = item.find('-');
    auto low = parse_unsigned(item.substr(0, dash), kHigh);
    auto high = dash == std::string::npos ? low : parse_unsigned(item.substr(dash + 1), kHigh);
    if (!low || !high || *low < kLow || *high < *low) return std::nullopt;
    for (unsigned long k = *low; k <= *high; ++k) ks.push_back(static_cast<unsigned>(k));
    start = comma + 1;
  }
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  if (ks.empty()) return std::nullopt;
  return ks;
}

std::optional<size_t> parse_byte_size(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  auto number = parse_unsigned(text.substr(0, digits), 1ul << 40);
  if (!number) return std::nullopt;
  std::string unit = text.substr(digits);
  std::transform(unit.begin(), unit.end(), unit.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  size_t scale = 0;
  if (unit.empty() || unit == "b") {
    scale = 1;
  } else if (unit == "k" || unit == "kb" || unit == "kib") {
    scale = 1024;
  } else if (unit == "m" || unit == "mb" || unit == "mib") {
    scale = 1024 * 1024;
  } else {
    return std::nullopt;
  }
  return static_cast<size_t>(*number) * scale;
}

std::optional<std::chrono::milliseconds> parse_duration(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  auto number = parse_unsigned(text.substr(0, digits), 1ul << 32);
  if (!number) return std::nullopt;
  std::string unit = text.substr(digits);
  long long ms = static_cast<long long>(*number);
  if (unit.empty() || unit == "s") {
    ms *= 1000;
  } else if (unit == "ms") {
  } else if (unit == "m" || unit == "min") {
    ms *= 60'000;
  } else {
    return std::nullopt;
  }
  return std::chrono::milliseconds(ms);
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
