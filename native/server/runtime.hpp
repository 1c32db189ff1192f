// The server: a fixed set of network threads running one io_context (every connection on its
// own strand), a prover WorkQueue and a verifier WorkQueue whose threads do all the CPU work,
// and the shutdown sequence.
//
// Shutdown (SIGTERM/SIGINT): close the listening socket (no new connections: readiness probes
// get connection refused), mark the server draining (a request racing the signal: /readyz 503),
// close every connection that has no admitted work; connections whose proof is queued or
// running get their answer (with Connection: close) and then close.
// When the last connection is gone the network threads return, the work queues are joined and
// run() returns 0. If that takes longer than --drain-timeout, run() gives up and returns 1.
// While it waits, it logs what it waits for (drain_waiting) every tenth of --drain-timeout, at
// most every 5 s.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "native/server/access_log.hpp"
#include "native/server/backend.hpp"
#include "native/server/config.hpp"
#include "native/server/http.hpp"
#include "native/server/metrics.hpp"
#include "native/server/router.hpp"
#include "native/server/routes.hpp"
#include "native/server/work_queue.hpp"

namespace enygma::server {

class Session;

// Whether the configured address and port can be listened on now (a socket bound, then
// closed): checked before the keys load, so that a busy port or an address of another machine
// stops the start at once.
Status check_listen_address(const ServerConfig& config);
// "http://127.0.0.1:3003/", "http://[::1]:3003/".
std::string listen_url(const std::string& bind, uint16_t port);

class Server {
 public:
  Server(ServerConfig config, std::unique_ptr<ProofBackend> backend);
  ~Server();

  // Opens the listening socket; returns the bound port or an error message.
  Result<uint16_t> listen();
  // Serves until a signal and the drain that follows; the process exit code.
  int run();

  // For connections.
  const ServerConfig& config() const { return config_; }
  const ProofBackend& backend() const { return *backend_; }
  const Router& router() const { return router_; }
  WorkQueue& provers() { return provers_; }
  WorkQueue& verifiers() { return verifiers_; }
  Metrics& metrics() { return metrics_; }
  AccessLog& access_log() { return access_log_; }
  const KeyFiles& key_files() const { return key_files_; }
  const StaticFiles& static_files() const { return static_files_; }
  bool draining() const { return draining_.load(); }
  std::string render_metrics() const;
  void session_ended(uint64_t id);

 private:
  void accept_next();
  // ioc_.run() on this thread, resumed after an exception that escaped a handler (logged): one
  // connection's failure must not stop the others, nor the server.
  void run_io();
  void on_accept(beast::error_code ec, tcp::socket socket);
  void begin_shutdown(int signal_number);
  void maybe_finish_drain();
  // Logs what the drain still waits for, then again after the report interval.
  void report_drain();
  size_t admitted() const;  // proofs and verifications queued or running
  size_t open_connections() const;

  ServerConfig config_;
  std::unique_ptr<ProofBackend> backend_;
  Router router_;
  Metrics metrics_;
  AccessLog access_log_;
  KeyFiles key_files_;
  StaticFiles static_files_;
  WorkQueue provers_;
  WorkQueue verifiers_;

  asio::io_context ioc_;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_guard_;
  // The listener, the signals, the accept retry and the drain run their handlers on one strand:
  // a signal's shutdown, an accept and the drain's end (posted by the last session's
  // destructor from its own strand) touch the same objects and must not run at once on the
  // network threads.
  asio::strand<asio::io_context::executor_type> control_;
  tcp::acceptor acceptor_;
  asio::signal_set signals_;
  asio::steady_timer accept_retry_timer_;
  asio::steady_timer drain_timer_;
  asio::steady_timer drain_report_timer_;
  std::chrono::steady_clock::time_point drain_began_;  // these two: on control_ only
  bool drain_finished_ = false;
  std::atomic<bool> draining_{false};
  std::atomic<bool> drain_timed_out_{false};

  mutable std::mutex sessions_mu_;
  std::unordered_map<uint64_t, std::weak_ptr<Session>> sessions_;
  uint64_t next_session_id_ = 1;
};

}  // namespace enygma::server
