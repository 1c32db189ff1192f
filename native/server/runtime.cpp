#include "native/server/runtime.hpp"

#include <algorithm>
#include <csignal>
#include <nlohmann/json.hpp>
#include <thread>

#include "native/server/session.hpp"

namespace enygma::server {

Server::Server(ServerConfig config, std::unique_ptr<ProofBackend> backend)
    : config_(std::move(config)),
      backend_(std::move(backend)),
      router_(*backend_, config_.reference_status_codes),
      metrics_(backend_->served()),
      access_log_(config_.access_log, config_.access_log_queue),
      key_files_(backend_->circuits()),
      static_files_(config_.web_dir),
      provers_(config_.max_inflight, config_.queue, config_.prover_threads),
      // Verifying is a few milliseconds of pairings: one thread each, as many as provers.
      verifiers_(config_.max_inflight, config_.queue, 1),
      ioc_(static_cast<int>(config_.io_threads)),
      control_(asio::make_strand(ioc_)),
      acceptor_(control_),
      signals_(control_, SIGINT, SIGTERM),
      accept_retry_timer_(control_),
      drain_timer_(control_),
      drain_report_timer_(control_) {
  for (const auto& c : backend_->circuits()) {
    metrics_.set_key_load_seconds(c.circuit, c.load_seconds);
  }
}

Server::~Server() = default;

namespace {

// "127.0.0.1:3003", "[::1]:3003".
std::string host_port(const std::string& bind, uint16_t port) {
  const bool ipv6 = bind.find(':') != std::string::npos;
  return (ipv6 ? "[" + bind + "]" : bind) + ":" + std::to_string(port);
}

// `acceptor` listening on the configured address and port; the bound port.
Result<uint16_t> open_listener(tcp::acceptor& acceptor, const ServerConfig& config) {
  beast::error_code ec;
  const auto address = asio::ip::make_address(config.bind, ec);
  if (ec) return make_error("invalid --bind address '" + config.bind + "'", "config", "bind");
  const tcp::endpoint endpoint(address, config.port);
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return make_error(
        "cannot listen on " + host_port(config.bind, config.port) + ": " + ec.message(), "config",
        "port");
  }
  return acceptor.local_endpoint().port();
}

}  // namespace

std::string listen_url(const std::string& bind, uint16_t port) {
  return "http://" + host_port(bind, port) + "/";
}

Status check_listen_address(const ServerConfig& config) {
  asio::io_context io;
  tcp::acceptor trial(io);
  auto port = open_listener(trial, config);
  if (!port) return port.error();
  return ok_status();
}

Result<uint16_t> Server::listen() {
  return open_listener(acceptor_, config_);
}

void Server::run_io() {
  for (;;) {
    try {
      ioc_.run();
      return;
    } catch (const std::exception& e) {
      AccessLog::event(nlohmann::json{{"event", "handler_exception"}, {"what", e.what()}}.dump(
          -1, ' ', false, nlohmann::json::error_handler_t::replace));
    } catch (...) {
      AccessLog::event(R"({"event":"handler_exception","what":"unknown"})");
    }
  }
}

int Server::run() {
  work_guard_.emplace(ioc_.get_executor());
  signals_.async_wait([this](beast::error_code ec, int signal_number) {
    if (!ec) begin_shutdown(signal_number);
  });
  accept_next();
  std::vector<std::thread> threads;
  try {
    for (unsigned i = 1; i < config_.io_threads; ++i) threads.emplace_back([this] { run_io(); });
  } catch (...) {
    ioc_.stop();  // the threads started return; the system's refusal reaches the caller
    for (auto& t : threads) t.join();
    throw;
  }
  run_io();
  for (auto& t : threads) t.join();
  if (drain_timed_out_.load()) {
    AccessLog::event(R"({"event":"drain_timeout","status":"admitted work abandoned"})");
    AccessLog::flush();
    // The work queues may still be running proofs whose clients are gone with the server.
    std::_Exit(1);
  }
  provers_.close_and_join();
  verifiers_.close_and_join();
  AccessLog::event(R"({"event":"stopped"})");
  return 0;
}

void Server::accept_next() {
  acceptor_.async_accept(asio::make_strand(ioc_), [this](beast::error_code ec, tcp::socket s) {
    on_accept(ec, std::move(s));
  });
}

void Server::on_accept(beast::error_code ec, tcp::socket socket) {
  if (draining_.load() || !acceptor_.is_open()) return;
  if (ec) {
    // Out of descriptors or a transient network error: try again shortly, do not spin.
    accept_retry_timer_.expires_after(std::chrono::milliseconds(50));
    accept_retry_timer_.async_wait([this](beast::error_code wait_ec) {
      if (!wait_ec && !draining_.load()) accept_next();
    });
    return;
  }
  std::shared_ptr<Session> session;
  bool over_limit;
  {
    std::lock_guard lock(sessions_mu_);
    // Beyond the limit a connection gets a short 503; beyond twice the limit (a flood of
    // connections) it is closed unanswered, so descriptors stay bounded whatever clients do.
    if (sessions_.size() >= 2 * size_t{config_.max_connections}) {
      metrics_.count_rejected();
      beast::error_code close_ec;
      socket.close(close_ec);
      return accept_next();
    }
    over_limit = sessions_.size() >= config_.max_connections;
    const uint64_t id = next_session_id_++;
    session = std::make_shared<Session>(*this, std::move(socket), id);
    sessions_[id] = session;
  }
  asio::dispatch(session->executor(), [session, over_limit] { session->start(over_limit); });
  accept_next();
}

void Server::begin_shutdown(int signal_number) {
  if (draining_.exchange(true)) return;
  // A second signal while draining: stop waiting.
  signals_.async_wait([](beast::error_code ec, int) {
    if (ec) return;
    AccessLog::event(R"({"event":"second_signal","status":"admitted work abandoned"})");
    AccessLog::flush();
    std::_Exit(1);
  });
  drain_began_ = std::chrono::steady_clock::now();
  AccessLog::event(std::string(R"({"event":"draining","signal":")") +
                   (signal_number == SIGTERM ? "SIGTERM" : "SIGINT") + R"(","admitted":)" +
                   std::to_string(admitted()) + "}");
  beast::error_code ec;
  acceptor_.close(ec);
  accept_retry_timer_.cancel();
  std::vector<std::shared_ptr<Session>> sessions;
  {
    std::lock_guard lock(sessions_mu_);
    for (auto& [id, weak] : sessions_) {
      if (auto s = weak.lock()) sessions.push_back(std::move(s));
    }
  }
  for (auto& s : sessions) {
    asio::post(s->executor(), [s] { s->on_server_shutdown(); });
  }
  drain_timer_.expires_after(config_.drain_timeout);
  drain_timer_.async_wait([this](beast::error_code wait_ec) {
    if (wait_ec) return;
    drain_timed_out_.store(true);
    ioc_.stop();
  });
  report_drain();
  maybe_finish_drain();
}

size_t Server::admitted() const {
  return provers_.waiting() + provers_.running() + verifiers_.waiting() + verifiers_.running();
}

size_t Server::open_connections() const {
  std::lock_guard lock(sessions_mu_);
  return sessions_.size();
}

void Server::report_drain() {
  const auto interval = std::clamp<std::chrono::milliseconds>(
      config_.drain_timeout / 10, std::chrono::milliseconds(100), std::chrono::seconds(5));
  drain_report_timer_.expires_after(interval);
  drain_report_timer_.async_wait([this](beast::error_code ec) {
    if (ec || drain_finished_) return;
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - drain_began_);
    AccessLog::event(R"({"event":"drain_waiting","waited_ms":)" + std::to_string(waited.count()) +
                     R"(,"open_connections":)" + std::to_string(open_connections()) +
                     R"(,"admitted":)" + std::to_string(admitted()) + "}");
    report_drain();
  });
}

void Server::session_ended(uint64_t id) {
  {
    std::lock_guard lock(sessions_mu_);
    sessions_.erase(id);
  }
  if (draining_.load()) asio::post(control_, [this] { maybe_finish_drain(); });
}

void Server::maybe_finish_drain() {
  if (open_connections() > 0) return;
  // Nothing admitted is left (every job holds its connection): let the network threads go.
  drain_finished_ = true;
  drain_timer_.cancel();
  drain_report_timer_.cancel();
  signals_.cancel();
  work_guard_.reset();
}

std::string Server::render_metrics() const {
  Metrics::Gauges gauges;
  gauges.queue_depth = provers_.waiting();
  gauges.proofs_in_flight = provers_.running();
  gauges.verify_queue_depth = verifiers_.waiting();
  gauges.verifies_in_flight = verifiers_.running();
  gauges.open_connections = open_connections();
  gauges.ready = !draining_.load();
  return metrics_.render(gauges);
}

}  // namespace enygma::server
