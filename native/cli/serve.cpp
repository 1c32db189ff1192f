// enygma serve: the proving server (a drop-in for the reference Go service's transfer API).
// Every key is loaded before the port is opened, so a load balancer never sees an instance that
// accepts connections it cannot serve.
#include <sodium.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "core/parallel/thread_pool.hpp"
#include "native/cli/commands.hpp"
#include "native/common/options.hpp"
#include "native/server/access_log.hpp"
#include "native/server/backend.hpp"
#include "native/server/config.hpp"
#include "native/server/runtime.hpp"

namespace {

using namespace enygma::server;

void log_key_loaded(const CircuitKeys& keys) {
  nlohmann::ordered_json j;
  j["event"] = "keys_loaded";
  j["circuit"] = keys.circuit.str();
  if (keys.circuit.family->has_k()) j["k"] = keys.circuit.k;
  j["seconds"] = keys.load_seconds;
  j["insecure_dev_keys"] = keys.insecure_dev_keys;
  j["proving_key_compressed_bytes"] = keys.proving_key.bytes.size();
  j["verifying_key_compressed_bytes"] = keys.verifying_key.bytes.size();
  AccessLog::event(j.dump());
  if (keys.insecure_dev_keys) {
    fprintf(stderr,
            "enygma serve: WARNING: the keys of %s are insecure development keys (a seeded "
            "setup or a zkey without contribution); never use them in production\n",
            keys.circuit.str().c_str());
  }
}

int run_serve(int argc, char** argv) {
  // The queued log lines ("stopped", or the events before a failed start) are written before
  // the process ends, on every return.
  struct FlushLogOnReturn {
    ~FlushLogOnReturn() { AccessLog::flush(); }
  } flush_log_on_return;
  if (sodium_init() < 0) {
    fprintf(stderr, "enygma serve: libsodium failed to initialise\n");
    return 1;
  }
  ConfigParse parsed = parse_server_config(
      argc, argv, [](const char* name) -> const char* { return std::getenv(name); });
  if (!parsed.config) return parsed.exit_code;
  // A misspelled variable (ENYGMA_QUEU) would otherwise leave its option at the default unseen.
  for (const std::string& name : unknown_enygma_variables(environ)) {
    fprintf(stderr,
            "enygma serve: WARNING: ignoring %s: not a variable enygma reads (the options' "
            "variables: enygma serve --help)\n",
            enygma::native::shown_on_one_line(name).c_str());
  }
  ServerConfig config = std::move(*parsed.config);
  config.resolve_defaults(enygma::ThreadPool::hardware_threads());
  set_cross_origin_isolation(config.isolation);
  AccessLog::event(config.to_json());

  if (auto can = check_listen_address(config); !can) {
    fprintf(stderr, "enygma serve: cannot start: %s\n", can.error().message.c_str());
    return 1;
  }
  std::unique_ptr<ProofBackend> backend;
  if (config.backend == "fake") {
    fprintf(stderr,
            "enygma serve: WARNING: --backend fake answers fixed, worthless proofs (HTTP-layer "
            "testing only)\n");
    backend =
        make_fake_backend(config.circuits, static_cast<unsigned>(config.fake_prove_time.count()));
  } else {
    enygma::ThreadPool load_pool(0);
    auto loaded =
        load_circuit_backend(config.keys_dir, config.circuits, load_pool, &log_key_loaded);
    if (!loaded.ok()) {
      fprintf(stderr, "enygma serve: cannot start: %s\n", loaded.error().message.c_str());
      return 1;
    }
    backend = std::move(loaded.value());
  }

  // Every connection is a descriptor: raise the soft limit to the hard one, and keep the
  // connection limit (twice it: over-limit connections get a short 503) below it, with room for
  // key files, static files and the listening socket.
  if (rlimit limit{}; getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    if (limit.rlim_cur < limit.rlim_max) {
      limit.rlim_cur = limit.rlim_max;
      setrlimit(RLIMIT_NOFILE, &limit);
      getrlimit(RLIMIT_NOFILE, &limit);
    }
    const rlim_t reserve = 64;
    if (limit.rlim_cur != RLIM_INFINITY &&
        2 * rlim_t{config.max_connections} + reserve > limit.rlim_cur) {
      const unsigned clamped =
          static_cast<unsigned>(limit.rlim_cur > 2 * reserve ? (limit.rlim_cur - reserve) / 2 : 1);
      nlohmann::ordered_json j;
      j["event"] = "max_connections_clamped";
      j["requested"] = config.max_connections;
      j["max_connections"] = clamped;
      j["open_files_limit"] = static_cast<unsigned long long>(limit.rlim_cur);
      AccessLog::event(j.dump());
      config.max_connections = clamped;
    }
  }
  // Writes to a closed socket report EPIPE instead of ending the process.
  std::signal(SIGPIPE, SIG_IGN);
  Server server(config, std::move(backend));
  auto port = server.listen();
  if (!port.ok()) {
    fprintf(stderr, "enygma serve: cannot start: %s\n", port.error().message.c_str());
    return 1;
  }
  nlohmann::ordered_json listening;
  listening["event"] = "listening";
  listening["address"] = config.bind;
  listening["port"] = port.value();
  listening["url"] = listen_url(config.bind, port.value());
  AccessLog::event(listening.dump());
  return server.run();
}

enygma::cli::Registration register_serve{{"serve", "run the proving server (HTTP)", &run_serve}};

}  // namespace
