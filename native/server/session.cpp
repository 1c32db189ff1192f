#include "native/server/session.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

#include "core/util/error_kind.hpp"
#include "native/server/runtime.hpp"

namespace enygma::server {

namespace {

constexpr std::chrono::milliseconds kLingerTime{2000};
constexpr size_t kLingerMaxBytes = 1 << 20;
// Empty lines skipped before a request line (RFC 9112 2.2: at least one); more are malformed.
constexpr size_t kMaxEmptyLines = 8;

constexpr const char* kObsFoldMessage =
    "obsolete line folding (a header line starting with a space or tab) is not accepted "
    "(RFC 9112 5.2)";

// Bytes asked of the socket at a time.
constexpr size_t kReadChunk = 65536;

// What is read ahead while a proof runs (watch_disconnect): a request's worth, head and body.
size_t read_ahead_limit(const ServerConfig& config) {
  return config.max_header + config.max_body;
}
// The most the read buffer holds: that, and one read more.
size_t read_buffer_limit(const ServerConfig& config) {
  return read_ahead_limit(config) + kReadChunk;
}

double ms_between(std::chrono::steady_clock::time_point a,
                  std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

Session::Session(Server& server, tcp::socket socket, uint64_t id)
    : server_(server), id_(id), socket_(std::move(socket)), timer_(socket_.get_executor()) {
  record_.connection = id;
  // What the buffer may hold: a request (head and body) read ahead while a proof runs
  // (watch_disconnect), and one read's worth more. Beast keeps a chunked body's unfinished
  // chunk-size line (its extensions) and its whole trailer section here until they end: past
  // this the read fails (buffer_overflow) instead of growing with whatever the client sends.
  buffer_.max_size(read_buffer_limit(server_.config()));
}

Session::~Session() {
  server_.session_ended(id_);
}

void Session::start(bool over_limit) {
  beast::error_code ec;
  socket_.set_option(tcp::no_delay(true), ec);
  if (over_limit) {
    server_.metrics().count_rejected();
    record_.method.clear();
    request_start_ = Clock::now();
    route_ = Route{};
    send_error(http::status::service_unavailable, "too many open connections", "overload", "",
               true);
    return;
  }
  wait_for_request();
}

void Session::on_server_shutdown() {
  shutdown_ = true;
  if (state_ == State::kIdle || state_ == State::kHeader || state_ == State::kBody) close();
}

// --- reading ---------------------------------------------------------------------------------

void Session::wait_for_request() {
  reset_request();
  if (shutdown_ || server_.draining()) return close();
  if (buffer_.size() > 0) return read_header();  // a pipelined request is already here
  await_request();
}

void Session::await_request(bool arm) {
  state_ = State::kIdle;
  // A fresh connection must start its request within the header timeout: a client that
  // connects and says nothing holds a connection slot no longer than a stalled header does.
  if (arm) {
    arm_timer(requests_answered_ == 0 ? server_.config().header_timeout
                                      : server_.config().idle_timeout);
  }
  socket_.async_wait(tcp::socket::wait_read, [self = shared_from_this()](beast::error_code ec) {
    if (self->state_ != State::kIdle) return;
    if (ec) return self->close();
    self->read_header();
  });
}

void Session::read_header() {
  state_ = State::kHeader;
  // The header timeout runs from the request's first byte, an empty line before its request
  // line included: not again from each empty line (a client sending one now and then would
  // hold its connection for good).
  const bool first_bytes = empty_lines_ == 0;
  if (first_bytes) request_start_ = Clock::now();
  obs_fold_ = false;
  head_scanned_ = 0;
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(server_.config().max_header));
  parser_->trailer_limit(server_.config().max_header);
  parser_->body_limit(server_.config().max_body);
  if (first_bytes) arm_timer(server_.config().header_timeout);
  read_head();
}

// The head is read whole before Beast's parser sees it: the parser joins folded lines with a
// space, so obsolete line folding is found in the raw bytes, and the header limit applies to
// the whole head (request line and fields).
void Session::read_head() {
  // RFC 9112 2.2: empty lines before a request line (a client's CRLF after a POST body) are
  // ignored, up to kMaxEmptyLines per request; more reach the parser (400).
  const size_t skip = leading_empty_lines(buffered(), kMaxEmptyLines - empty_lines_);
  if (skip > 0) {
    buffer_.consume(2 * skip);
    empty_lines_ += skip;
    head_scanned_ = 0;
    if (buffer_.size() == 0) {  // nothing of a request yet
      buffer_.shrink_to_fit();
      return await_request(/*arm=*/false);
    }
  }
  const std::string_view bytes = buffered();
  const size_t max_header = server_.config().max_header;
  // The end of the head is looked for only in what came since the last look (a head sent a
  // byte at a time costs no more than one sent at once), within the header limit.
  const size_t from = head_scanned_ > 3 ? head_scanned_ - 3 : 0;
  size_t head = request_head_length(bytes.substr(from, max_header - from));
  if (head > 0) head += from;
  if (head == 0) {
    // A head whose lines end in bare LF would never end (waiting for CRLF CRLF): 400 at once.
    // (Only what came since the last look is searched, as for the end of the head.)
    if (has_bare_lf(bytes.substr(0, max_header), std::min(head_scanned_, bytes.size()))) {
      if (auto line = split_request_line(bytes)) note_request_line(line->method, line->target);
      return send_error(http::status::bad_request,
                        "a line of the request's head ends in LF without CR (HTTP lines end in "
                        "CRLF)",
                        "http", "header", true);
    }
    head_scanned_ = std::min(bytes.size(), max_header);
    if (bytes.size() >= max_header) return refuse_oversized_head(bytes);
    const size_t size = beast::read_size(buffer_, kReadChunk);
    socket_.async_read_some(buffer_.prepare(size),
                            [self = shared_from_this()](beast::error_code ec, size_t n) {
                              if (self->state_ != State::kHeader) return;
                              self->buffer_.commit(n);
                              if (ec) return self->on_read_error(ec);
                              self->read_head();
                            });
    return;
  }
  obs_fold_ = has_obs_fold(bytes.substr(0, head));
  // The whole head is buffered: the parser reads it (and nothing of the body) at once.
  parser_->eager(false);
  beast::error_code ec;
  buffer_.consume(parser_->put(asio::buffer(bytes.data(), bytes.size()), ec));
  if (ec == http::error::need_more) {  // not expected with the head buffered: let Beast read
    http::async_read_header(
        socket_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->on_header(ec); });
    return;
  }
  on_header(ec);
}

void Session::refuse_oversized_head(std::string_view bytes) {
  const size_t max_header = server_.config().max_header;
  if (auto line = split_request_line(bytes)) note_request_line(line->method, line->target);
  // No line end within the limit: the request line alone is too long. (Empty: the parser has
  // read the line.)
  if (!bytes.empty() && bytes.substr(0, max_header).find('\n') == std::string_view::npos) {
    return send_error(http::status::uri_too_long,
                      "the request line is longer than " + std::to_string(max_header) + " bytes",
                      "max_header", "path", true);
  }
  send_error(http::status::request_header_fields_too_large,
             "the request header is larger than " + std::to_string(max_header) + " bytes",
             "max_header", "header", true);
}

void Session::on_header(beast::error_code ec) {
  if (state_ != State::kHeader) return;
  if (ec) return on_read_error(ec);
  after_header();
}

void Session::on_read_error(beast::error_code ec) {
  const bool header = state_ == State::kHeader;
  // Until the head is whole the bytes wait in the buffer, unparsed (empty lines skipped).
  const bool got_some = (parser_ && parser_->got_some()) || (header && buffer_.size() > 0);
  const bool closed = ec == http::error::end_of_stream || ec == asio::error::eof;
  // Part of a head, then the client closed its sending side: answered 400 below (nginx logs
  // 400 for it too), not closed unseen. (Empty lines are consumed as they come: the bytes left
  // are a request's, or a CR whose LF never came.)
  const bool head_cut_short =
      header && closed && buffered().find_first_not_of("\r\n") != std::string_view::npos;
  if (!timed_out_ && !head_cut_short &&
      (closed || ec == asio::error::connection_reset || ec == asio::error::operation_aborted ||
       ec == asio::error::broken_pipe)) {
    return close();
  }
  if (!got_some) return close();
  // The parser consumes the request line once it has read it (with the whole head); until then
  // the buffer starts with it.
  const bool line_parsed = parser_ && !to_sv(parser_->get().target()).empty();
  const std::string_view unparsed = line_parsed ? std::string_view() : buffered();
  if (record_.method.empty()) {  // what is known of the request line, for the log and metrics
    if (line_parsed) {
      note_request_line(to_sv(parser_->get().method_string()), to_sv(parser_->get().target()));
    } else if (auto line = split_request_line(unparsed)) {
      note_request_line(line->method, line->target);
    }
  }
  if (head_cut_short && !timed_out_) {
    return send_error(http::status::bad_request,
                      "the request header ended early: the client closed its side of the "
                      "connection before the empty line that ends the header",
                      "http", "header", true);
  }
  if (timed_out_) {
    return send_error(http::status::request_timeout,
                      header ? "the request header did not arrive in time"
                             : "the request body did not arrive in time",
                      "timeout", header ? "header" : "body", true);
  }
  // A folded head the parser could not read either: the folding is the cause.
  if (obs_fold_) {
    return send_error(http::status::bad_request, kObsFoldMessage, "http", "header", true);
  }
  if (ec == http::error::body_limit) {
    return send_error(
        http::status::payload_too_large,
        "the request body is larger than " + std::to_string(server_.config().max_body) + " bytes",
        "max_body", "body", true);
  }
  if (ec == http::error::header_limit && parser_ && parser_->trailers_too_large()) {
    return send_error(http::status::request_header_fields_too_large,
                      "the trailer fields after the chunked body are larger than " +
                          std::to_string(server_.config().max_header) + " bytes",
                      "max_header", "trailer", true);
  }
  if (ec == http::error::header_limit) return refuse_oversized_head(unparsed);
  if (ec == http::error::buffer_overflow) {  // a chunk line or the trailers never ending
    return send_error(http::status::bad_request,
                      "a chunk-size line or the trailer section of the chunked body does not end "
                      "within " +
                          std::to_string(read_buffer_limit(server_.config())) + " bytes",
                      "http", "body", true);
  }
  // The client closed its sending side with the body unfinished (nginx, too, logs 400 for a
  // client that closes while its body is read): said so, not "partial message".
  if (ec == http::error::partial_message && parser_ && parser_->is_header_done()) {
    const auto length = parser_->content_length();
    return send_error(
        http::status::bad_request,
        "the request body ended early: the client closed its side of the connection " +
            (length ? "after " + std::to_string(parser_->get().body().size()) + " of its " +
                          std::to_string(*length) + " bytes (Content-Length)"
                    : std::string("in the middle of the chunked body")),
        "http", "body", true);
  }
  // The parser takes HTTP/1.0 and 1.1 only: another major version is 505, not malformed.
  if (ec == http::error::bad_version) {
    if (const auto version = request_line_version(unparsed); version && *version / 10 != 1) {
      return send_error(http::status::http_version_not_supported,
                        "HTTP/" + std::to_string(*version / 10) + "." +
                            std::to_string(*version % 10) + " is not supported: use HTTP/1.1",
                        "http", "version", true);
    }
  }
  send_error(http::status::bad_request, "malformed HTTP request: " + ec.message(), "http",
             parser_error_field(ec), true);
}

void Session::note_request_line(std::string_view method, std::string_view target) {
  record_.method = std::string(method);
  record_.path = std::string(target_path(target));  // no query, no authority
  route_ = Route{};
  // Only a path (the origin or absolute form) names a route.
  if (record_.path.substr(0, 1) == "/") {
    if (auto path = decode_target_path(target)) route_ = server_.router().classify(*path);
  }
}

std::string Session::metrics_endpoint() const {
  // A 404 of a file route names nothing (no route, no file: e.g. every static path when --web
  // is off): not counted as the route. A route's own 404 (a circuit not served) is its route's.
  if (record_.status == 404 && route_.endpoint != "unknown" &&
      (route_.kind == RouteKind::kStatic || route_.kind == RouteKind::kKeyFile)) {
    return "not_found";
  }
  return route_.endpoint;
}

bool Session::request_body_pending() const {
  if (!parser_ || parser_->is_done()) return false;
  return parser_->chunked() || parser_->content_length().value_or(0) > 0;
}

void Session::after_header() {
  const auto& req = parser_->get();
  version_ = req.version();  // 10 or 11: the parser refuses every other version
  keep_alive_ = request_keeps_alive(req);
  head_ = req.method() == http::verb::head;
  const std::string_view target = to_sv(req.target());
  note_request_line(to_sv(req.method_string()), target);
  // A request whose framing, version, Host, expectation or target is not one this server reads
  // is refused and the connection closed: what follows it is never read as a request. Folded
  // lines first: a proxy may read them otherwise (RFC 9112 5.2; nginx refuses them too).
  if (obs_fold_) {
    return send_error(http::status::bad_request, kObsFoldMessage, "http", "header", true);
  }
  if (auto problem = header_problem(req, parser_->chunked())) {
    return send_error(problem->status, problem->message, "http", problem->field, true);
  }
  if (target == "*") {  // OPTIONS * (header_problem refuses * otherwise): the server's methods
    route_.endpoint = "options";
    StringResponse res{http::status::ok, version_};
    set_common_headers(res);
    res.set(http::field::allow, "GET, HEAD, POST");
    res.prepare_payload();
    return send(std::move(res), request_body_pending());
  }
  auto path = decode_target_path(target);
  if (!path) {
    return send_error(http::status::bad_request, "the request target is not a valid path", "http",
                      "path", request_body_pending());
  }
  // A file route names something only where its file exists (looked up only when the method
  // is not allowed there: 405 then, or 404 for nothing).
  bool exists = true;
  if (!method_allowed(route_, req.method())) {
    const std::string& p = *path;
    if (route_.kind == RouteKind::kKeyFile) exists = server_.key_files().has(p);
    if (route_.kind == RouteKind::kStatic) exists = server_.static_files().resolve(p).has_value();
  }
  if (auto refusal = server_.router().check(route_, to_sv(req.method_string()), *path, exists)) {
    return send_refusal(*refusal, request_body_pending());
  }
  const bool work = route_.kind == RouteKind::kProve || route_.kind == RouteKind::kVerify;
  if (work) {
    record_.circuit = route_.circuit.str();
    // A compressed body would reach the JSON parser as binary: say what is wrong instead.
    if (const std::string_view coding = body_coding(to_sv(req[http::field::content_encoding]));
        !coding.empty()) {
      return send_error(http::status::unsupported_media_type,
                        "a request body in Content-Encoding '" + std::string(coding) +
                            "' is not taken: send the JSON as it is (identity)",
                        "http", "content-encoding", request_body_pending());
    }
    WorkQueue& queue = route_.kind == RouteKind::kProve ? server_.provers() : server_.verifiers();
    // Refuse before reading the body when it could not be admitted anyway.
    if (queue.full()) {
      server_.metrics().count_rejected();
      return send_error(http::status::service_unavailable, "the server is at capacity; retry later",
                        "overload", "", request_body_pending());
    }
  }
  if (parser_->is_done()) return dispatch();
  // curl and others wait for this before sending a body over 1 KiB. header_problem let only
  // 100-continue through; an HTTP/1.0 client's is ignored (RFC 9110 10.1.1: no 1xx to it).
  if (req.version() >= 11 && req.count(http::field::expect) > 0) {
    static const char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
    asio::async_write(socket_, asio::buffer(kContinue, sizeof kContinue - 1),
                      [self = shared_from_this()](beast::error_code ec, size_t) {
                        if (self->state_ != State::kHeader) return;
                        if (ec) return self->close();
                        self->read_body();
                      });
    return;
  }
  read_body();
}

void Session::read_body() {
  state_ = State::kBody;
  arm_timer(server_.config().body_timeout);
  http::async_read(
      socket_, buffer_, *parser_,
      [self = shared_from_this()](beast::error_code ec, size_t) { self->on_body(ec); });
}

void Session::on_body(beast::error_code ec) {
  if (state_ != State::kBody) return;
  if (ec) return on_read_error(ec);
  dispatch();
}

// --- answering -------------------------------------------------------------------------------

void Session::dispatch() {
  disarm_timer();
  // The buffer that held the request is freed (and wiped) once the request is read: what
  // follows it (a client's CRLF after the body, a pipelined request) is copied to a buffer of
  // its own size, and an empty one takes no memory; a kept buffer would hold the request's
  // bytes (its secrets) while the connection idles.
  buffer_.shrink_to_fit();
  const unsigned version = version_;
  switch (route_.kind) {
    case RouteKind::kProve:
    case RouteKind::kVerify:
      return submit(route_.kind == RouteKind::kProve);
    case RouteKind::kNotServed:  // refused after the header (Router::check)
      return send_refusal(*server_.router().check(route_, "POST"));
    case RouteKind::kHealth:
      return send(healthcheck_response(version));
    case RouteKind::kReady:
      return send(readyz_response(!server_.draining(), version));
    case RouteKind::kMetrics: {
      StringResponse res{http::status::ok, version};
      set_common_headers(res);
      res.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
      res.set(http::field::cache_control, "no-store");
      res.body() = server_.render_metrics();
      res.prepare_payload();
      return send(std::move(res));
    }
    case RouteKind::kKeysManifest:
    case RouteKind::kKeyFile:
    case RouteKind::kStatic: {
      const auto& req = parser_->get();
      const std::string if_none_match(to_sv(req[http::field::if_none_match]));
      auto path = decode_target_path(to_sv(req.target())).value_or("/");
      if (route_.kind == RouteKind::kStatic) {
        return send(server_.static_files().serve(path, if_none_match,
                                                 to_sv(req[http::field::accept_encoding]), version,
                                                 version_query(to_sv(req.target()))));
      }
      return send(server_.key_files().serve(path, if_none_match, version));
    }
  }
}

void Session::submit(bool prove) {
  if (server_.draining()) {
    return send_error(http::status::service_unavailable, "the server is shutting down", "overload",
                      "", true);
  }
  // The job owns the request bytes (wiped when freed) and keeps this connection alive.
  auto body = std::make_shared<SecureString>(std::move(parser_->get().body()));
  parser_.reset();
  // Hostile shapes (deep nesting, huge numbers or strings, giant arrays) are refused here, on
  // the network thread, in one pass without allocating: they never take a prover's place.
  if (auto problem = json_shape_problem(*body)) {
    return send_refusal(Refusal{http::status::bad_request, std::move(problem->message),
                                prove ? "input" : "proof", std::move(problem->field)});
  }
  cancel_.store(false);
  const Route route = route_;
  auto self = shared_from_this();
  WorkQueue& queue = prove ? server_.provers() : server_.verifiers();
  const bool admitted = queue.try_submit(
      [self, body, route, prove](ThreadPool* pool, std::chrono::steady_clock::duration wait) {
        const double wait_ms = std::chrono::duration<double, std::milli>(wait).count();
        if (!pool || self->cancel_.load()) {
          // The client left while this waited: dropped unstarted, its wait observed.
          if (prove) self->server_.metrics().observe_queue_wait(route.circuit, wait_ms / 1000);
          self->server_.metrics().count_cancelled();
          return;
        }
        const auto start = Clock::now();
        // Whatever the work throws (bad_alloc) is answered (500) like any internal error: the
        // client and a drain must not wait for an answer that never comes.
        Result<std::string> result = [&]() -> Result<std::string> {
          try {
            return self->server_.router().work(route, *body, *pool, &self->cancel_);
          } catch (const std::bad_alloc&) {
            return make_error("the server ran out of memory for this request", "internal");
          } catch (...) {
            return make_error("the server failed on this request (internal error)", "internal");
          }
        }();
        const double work_ms = ms_between(start, Clock::now());
        asio::post(self->socket_.get_executor(),
                   [self, result = std::move(result), prove, wait_ms, work_ms]() mutable {
                     self->on_work_done(std::move(result), prove, wait_ms, work_ms);
                   });
      },
      &cancel_);
  if (!admitted) {
    server_.metrics().count_rejected();
    return send_error(http::status::service_unavailable, "the server is at capacity; retry later",
                      "overload", "");
  }
  // The job cannot report back before this handler returns: its answer is posted to this strand.
  state_ = State::kWorking;
  watch_disconnect();
}

void Session::watch_disconnect() {
  socket_.async_wait(tcp::socket::wait_read, [self = shared_from_this()](beast::error_code ec) {
    if (ec || self->state_ != State::kWorking) return;
    // What comes meanwhile (a CRLF after the body, the next pipelined request) is taken into the
    // buffer the next request is read from, so the connection's end is still seen after it. Past
    // a whole request's worth the watch stops: the rest stays unread until the answer is sent.
    const size_t limit = read_ahead_limit(self->server_.config());
    if (self->buffer_.size() >= limit) return;
    const auto space =
        self->buffer_.prepare(std::min<size_t>(limit - self->buffer_.size(), kReadChunk));
    const ssize_t n =
        ::recv(self->socket_.native_handle(), space.data(), space.size(), MSG_DONTWAIT);
    if (n > 0) {
      self->buffer_.commit(size_t(n));
      return self->watch_disconnect();
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
      return self->watch_disconnect();
    }
    // End of stream or reset: nobody will read the answer. A client that only half-closed
    // (shutdown(SHUT_WR) after its request) is taken as gone too, as nginx does (docs/server.md).
    self->cancel_.store(true);
    self->close();
  });
}

void Session::on_work_done(Result<std::string> result, bool prove, double queue_wait_ms,
                           double work_ms) {
  record_.queue_wait_ms = queue_wait_ms;
  record_.work_ms = work_ms;
  if (prove) {
    server_.metrics().observe_queue_wait(route_.circuit, queue_wait_ms / 1000);
  }
  if (state_ != State::kWorking) {
    // The client went away; it was logged when the connection closed.
    if (prove && !result.ok() && result.error().rule == "cancelled") {
      server_.metrics().count_cancelled();
    }
    return;
  }
  beast::error_code ec;
  socket_.cancel(ec);  // stop watching for a disconnect
  if (result.ok()) {
    if (prove) {
      server_.metrics().observe_proof(route_.circuit, work_ms / 1000);
    } else {
      server_.metrics().observe_verify(route_.circuit, work_ms / 1000);
    }
  } else if (classify_error(result.error()) == ErrorKind::kInternal) {
    server_.metrics().count_failed();
  }
  send(server_.router().answer(result, version_));
}

void Session::send_refusal(const Refusal& refusal, bool close_after) {
  StringResponse res = server_.router().refuse(refusal, version_);
  if (refusal.status == http::status::method_not_allowed) {
    res.set(http::field::allow, route_.allow);
  }
  send(std::move(res), close_after);
}

void Session::send_error(http::status status, std::string_view message, std::string_view rule,
                         std::string_view field, bool close_after) {
  StringResponse res = error_response(status, message, rule, field, version_);
  if (status == http::status::service_unavailable) res.set(http::field::retry_after, "1");
  if (status == http::status::method_not_allowed) res.set(http::field::allow, route_.allow);
  if (status == http::status::unsupported_media_type) {
    res.set(http::field::accept_encoding, "identity");  // RFC 9110 12.5.3
  }
  send(std::move(res), close_after);
}

// An answer and its serializer, kept together until written.
template <class Body>
struct Outgoing {
  explicit Outgoing(http::response<Body>&& res) : message(std::move(res)) {}
  Outgoing(const Outgoing&) = delete;  // the serializer refers to the message
  http::response<Body> message;
  http::response_serializer<Body> serializer{message};
};

template <class Body>
void Session::write(std::shared_ptr<Outgoing<Body>> out, bool close) {
  // --write-timeout is the time without progress: it starts again with each piece written, so
  // a slow but steady reader of a large key gets it whole.
  arm_timer(server_.config().write_timeout);
  http::async_write_some(
      socket_, out->serializer,
      [self = shared_from_this(), out, close](beast::error_code ec, size_t written) {
        if (self->state_ != State::kWriting) return;
        self->answer_written_ += written;
        if (ec || out->serializer.is_done()) return self->on_written(ec, close);
        self->write(out, close);
      });
}

void Session::send(AnyResponse response, bool close_after) {
  if (state_ == State::kClosed) return;
  const bool close = close_after || !keep_alive_ || shutdown_ || server_.draining();
  state_ = State::kWriting;
  std::visit(
      [&](auto& res) {
        res.keep_alive(!close);
        record_.status = static_cast<int>(res.result_int());
        record_.bytes = res.payload_size().value_or(0);
        answer_written_ = 0;
        auto start = [&](auto out) {
          answer_ = out;
          answer_head_ = &out->message.base();
          write(std::move(out), close);
        };
        if (head_) {
          // HEAD: the header of the GET answer (Content-Length included), no body.
          record_.bytes = 0;
          return start(std::make_shared<Outgoing<http::empty_body>>(
              http::response<http::empty_body>(std::move(res.base()))));
        }
        using Body = typename std::decay_t<decltype(res)>::body_type;
        start(std::make_shared<Outgoing<Body>>(std::move(res)));
      },
      response);
}

void Session::on_written(beast::error_code ec, bool close) {
  if (state_ != State::kWriting) return;
  // The client is gone (a reset, a broken pipe): close() logs and counts the answer as 499,
  // once.
  if (ec) return this->close();
  disarm_timer();
  record_.duration_ms = ms_between(request_start_, Clock::now());
  server_.metrics().count_request(metrics_endpoint(), record_.status);
  server_.access_log().write(record_);
  record_.status = 0;  // logged
  ++requests_answered_;
  empty_lines_ = 0;
  if (close) return linger_then_close();
  wait_for_request();
}

void Session::reset_request() {
  parser_.reset();
  route_ = Route{};
  timed_out_ = false;
  head_ = false;
  record_ = AccessRecord{};
  record_.connection = id_;
}

// --- closing ---------------------------------------------------------------------------------

// After an answer that closes the connection: stop sending, then read and discard what the
// client still sends for a moment, so that a client still writing its (refused) body gets our
// answer instead of a reset.
void Session::linger_then_close() {
  state_ = State::kLingering;
  beast::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_send, ec);
  if (ec) return close();
  buffer_.clear();
  buffer_.shrink_to_fit();
  discard_.assign(4096, 0);
  arm_timer(kLingerTime);
  struct Drain {
    std::shared_ptr<Session> self;
    void operator()(beast::error_code ec, size_t n) {
      Session& s = *self;
      if (s.state_ != State::kLingering) return;
      s.discarded_ += n;
      if (ec || s.discarded_ > kLingerMaxBytes) return s.close();
      s.socket_.async_read_some(asio::buffer(s.discard_), Drain{self});
    }
  };
  socket_.async_read_some(asio::buffer(discard_), Drain{shared_from_this()});
}

void Session::close() {
  if (state_ == State::kClosed) return;
  if (state_ == State::kWorking || state_ == State::kWriting) {
    // The admitted job still holds this session; it finishes (or stops at the next stage)
    // and its answer is dropped. A client that does not take its answer counts the same.
    cancel_.store(true);
    record_.status = 499;
    // bytes: the body bytes the kernel took before the client left or stopped taking them (0
    // when it left before its answer), not the answer's size: what it took beyond the header as
    // the serializer writes it (Beast's own fields writer).
    uint64_t body_bytes = 0;
    const auto answer = answer_.lock();  // held by the write in progress
    if (state_ == State::kWriting && answer && answer_written_ > 0) {
      http::fields::writer header(*answer_head_, answer_head_->version(),
                                  answer_head_->result_int());
      const size_t header_bytes = beast::buffer_bytes(header.get());
      if (answer_written_ > header_bytes) {
        body_bytes = std::min<uint64_t>(record_.bytes, answer_written_ - header_bytes);
      }
    }
    record_.bytes = body_bytes;
    record_.duration_ms = ms_between(request_start_, Clock::now());
    server_.metrics().count_request(metrics_endpoint(), 499);
    server_.access_log().write(record_);
  }
  state_ = State::kClosed;
  disarm_timer();
  beast::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  // The parser stays until the session ends (its body wipes itself when freed): Beast's
  // http::async_read may still be pending on it, and a read that completed before the close
  // (its handler queued on this strand behind the one closing, e.g. on_server_shutdown's)
  // parses what it read into the parser before calling our handler, which then sees kClosed.
  // Destroying the parser here made that a call on a destroyed object ("pure virtual method
  // called" during a drain). The socket is closed, so no read can start again.
  release(discard_);
}

// --- timers ----------------------------------------------------------------------------------

void Session::arm_timer(std::chrono::milliseconds limit) {
  const uint64_t generation = ++timer_generation_;
  timer_.expires_after(limit);
  timer_.async_wait([self = shared_from_this(), generation](beast::error_code ec) {
    if (ec || generation != self->timer_generation_) return;
    self->on_timeout();
  });
}

void Session::disarm_timer() {
  ++timer_generation_;
  timer_.cancel();
}

void Session::on_timeout() {
  switch (state_) {
    case State::kIdle:
    case State::kWriting:
    case State::kLingering:
      return close();
    case State::kHeader:
    case State::kBody: {
      // The pending read completes with operation_aborted and answers 408.
      timed_out_ = true;
      beast::error_code ec;
      socket_.cancel(ec);
      return;
    }
    case State::kWorking:
    case State::kClosed:
      return;
  }
}

}  // namespace enygma::server
