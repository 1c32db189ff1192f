// One client connection: HTTP/1.1 keep-alive, one request at a time, every handler on the
// connection's strand. Phases and their time limits:
//   idle    (waiting for the first byte of a request)  --idle-timeout   -> close quietly
//           (the first request of a connection: --header-timeout)
//   header  (first byte .. end of header)              --header-timeout -> 408
//           (the head is read whole into the buffer, its raw bytes checked for obsolete line
//           folding, then parsed; empty lines before the request line are skipped)
//   body    (end of header .. end of body)             --body-timeout   -> 408
//   working (proof or verification admitted)           no limit: the queue bounds it
//   writing (the answer)                               --write-timeout  -> close
//           (the time without progress: restarted with each piece written)
// While working, the socket is watched for the client going away (a half-close counts): its
// admitted proof is then cancelled through ProveOptions::cancel (or dropped before it starts).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "core/util/result.hpp"
#include "native/server/access_log.hpp"
#include "native/server/http.hpp"
#include "native/server/router.hpp"
#include "native/server/routes.hpp"

namespace enygma::server {

class Server;
template <class Body>
struct Outgoing;  // an answer being written (session.cpp)

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Server& server, tcp::socket socket, uint64_t id);
  ~Session();

  // over_limit: too many connections; answer 503 and close.
  void start(bool over_limit);
  // Posted by the server on SIGTERM: close unless a request is admitted.
  void on_server_shutdown();
  // The connection's strand.
  tcp::socket::executor_type executor() { return socket_.get_executor(); }

 private:
  enum class State { kIdle, kHeader, kBody, kWorking, kWriting, kLingering, kClosed };
  using Clock = std::chrono::steady_clock;

  void wait_for_request();
  // arm: false to wait on under the timer already running (after empty lines, see read_head).
  void await_request(bool arm = true);
  void read_header();
  void read_head();
  void refuse_oversized_head(std::string_view bytes);
  void on_header(beast::error_code ec);
  void after_header();
  void read_body();
  void on_body(beast::error_code ec);
  void on_read_error(beast::error_code ec);
  void dispatch();
  void submit(bool prove);
  void watch_disconnect();
  void on_work_done(Result<std::string> result, bool prove, double queue_wait_ms, double work_ms);
  void send(AnyResponse response, bool close_after = false);
  template <class Body>
  void write(std::shared_ptr<Outgoing<Body>> out, bool close);
  void send_error(http::status status, std::string_view message, std::string_view rule,
                  std::string_view field, bool close_after = false);
  void send_refusal(const Refusal& refusal, bool close_after = false);
  void on_written(beast::error_code ec, bool close);
  void linger_then_close();
  void close();
  void arm_timer(std::chrono::milliseconds limit);
  void disarm_timer();
  void on_timeout();
  bool request_body_pending() const;
  void reset_request();
  // What the access log and the metrics know of the request: its method and path, and the
  // route of the path where the target is one (a refusal before the routing still counts under
  // its route; "unknown" where no path was read).
  void note_request_line(std::string_view method, std::string_view target);
  // The metrics label of the answer: the route's, or "not_found" for a 404 naming nothing.
  std::string metrics_endpoint() const;
  std::string_view buffered() const {
    return {static_cast<const char*>(buffer_.data().data()), buffer_.size()};
  }

  Server& server_;
  const uint64_t id_;
  tcp::socket socket_;
  asio::steady_timer timer_;
  uint64_t timer_generation_ = 0;
  ReadBuffer buffer_;
  std::optional<RequestParser> parser_;
  State state_ = State::kIdle;
  bool timed_out_ = false;
  bool obs_fold_ = false;    // the request's head holds obsolete line folding
  size_t empty_lines_ = 0;   // skipped before this request's line (RFC 9112 2.2)
  size_t head_scanned_ = 0;  // bytes of the buffer looked through for the end of the head
  bool shutdown_ = false;
  uint64_t requests_answered_ = 0;
  // Read by the prover thread while working; set here when the client goes away.
  std::atomic<bool> cancel_{false};
  // Only while lingering; it takes the rest of a refused request's body (secrets): wiped when
  // freed.
  SecureVector<char> discard_;
  size_t discarded_ = 0;

  // The request being answered (for routing, the access log and metrics).
  Route route_{};
  unsigned version_ = 11;
  bool keep_alive_ = true;
  bool head_ = false;
  Clock::time_point request_start_{};
  AccessRecord record_;
  // The answer being written (alive while the write holds it) with its header, and what the
  // kernel has taken of it (header and body): for an answer cut short (499), whose log counts
  // the body bytes actually written (the header's size is computed then, not for every answer).
  std::weak_ptr<void> answer_;
  const http::response_header<>* answer_head_ = nullptr;
  size_t answer_written_ = 0;
};

}  // namespace enygma::server
