// Configuration of `enygma serve`: flags, each with a matching environment variable
// (--max-inflight <-> ENYGMA_MAX_INFLIGHT); a flag wins over the environment.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/registry/registry.hpp"

namespace enygma::server {

// --max-body's largest value: a connection's read buffer holds a whole body (and the header
// limit, and 64 KiB more), and every admitted request may hold one.
inline constexpr size_t kMaxBodyLimit = size_t(16) << 20;

// --access-log-queue's default: access lines held while stdout's reader stalls.
inline constexpr size_t kDefaultAccessLogQueue = size_t(4) << 20;

struct ServerConfig {
  std::string bind = "127.0.0.1";
  uint16_t port = 3003;  // 0: any free port (printed in the "listening" line)
  std::string keys_dir = "keys/dev";
  std::string web_dir;  // empty: no static files
  // What is loaded and served: --circuits (families, circuit ids such as transfer-k6, or "all")
  // and --k (anonymity-set sizes of the families that have them; each family's defaults when
  // unset). Resolved into `circuits` by parse_server_config.
  std::string circuits_spec = "all";
  std::optional<std::string> k_spec;
  std::vector<CircuitId> circuits;
  unsigned max_inflight = 0;    // proofs running at once; 0 -> hardware threads
  unsigned queue = 0;           // admitted proofs waiting behind them; 0 -> 4 * max_inflight
  unsigned prover_threads = 0;  // threads per proof; 0 -> max(1, cores / max_inflight)
  unsigned io_threads = 0;      // 0 -> min(2, cores)
  size_t max_body = 64 * 1024;  // bytes of a request body
  size_t max_header = 16 * 1024;
  unsigned max_connections = 1024;
  std::chrono::milliseconds header_timeout{10'000};  // first byte .. end of the header
  std::chrono::milliseconds body_timeout{30'000};    // end of header .. end of the body
  std::chrono::milliseconds idle_timeout{60'000};    // keep-alive wait for the next request
  std::chrono::milliseconds write_timeout{30'000};   // longest time a response makes no progress
  std::chrono::milliseconds drain_timeout{120'000};  // SIGTERM: longest wait for admitted work
  bool access_log = true;
  size_t access_log_queue = kDefaultAccessLogQueue;  // bytes of log lines waiting for stdout
  // Answer a refused request (a broken rule, a malformed body) with 500 and the reference's
  // {"error": ...} body instead of 400 {"error", "rule", "field"}: for clients that, like the
  // reference's, treat only 200 and 500 as known answers.
  bool reference_status_codes = false;
  // --no-isolation: no COOP/COEP headers (the page runs the module without threads).
  bool isolation = true;
  // Testing the HTTP layer without keys: a backend whose proofs sleep (never for production).
  std::string backend = "circuits";  // "circuits" (real proofs) or "fake"
  std::chrono::milliseconds fake_prove_time{200};

  // Fill the 0 defaults from the number of hardware threads.
  void resolve_defaults(unsigned hardware_threads);
  // One JSON object with every setting (no secrets exist in the configuration).
  std::string to_json() const;
};

struct ConfigParse {
  std::optional<ServerConfig> config;  // empty: error (or --help) was printed
  int exit_code = 0;
};

// argv[0] is the subcommand name. env: getenv-like lookup (tests pass their own).
ConfigParse parse_server_config(int argc, char** argv, const char* (*env)(const char*));
void print_serve_usage(FILE* out);

// The names of the environment's ENYGMA_* variables (`env`, as `environ`: NAME=VALUE entries,
// ending in a null pointer) that nothing reads: neither an option's variable nor one the program or
// the project's scripts read (ENYGMA_DISABLE_KERNELS, ENYGMA_LB_SERVER_MAXCONN, ...). serve warns
// about each: a misspelled variable (ENYGMA_QUEU) is otherwise silently ignored.
std::vector<std::string> unknown_enygma_variables(const char* const* env);

// The default --web folder: the first of <exe>/../web, <exe>/../../build-wasm/web,
// <exe>/../../web, ./web holding an index.html; empty if none does.
std::string default_web_dir();

}  // namespace enygma::server
