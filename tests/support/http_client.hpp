// A small blocking HTTP/1.1 client for tests (native only): one request per connection, or a
// keep-alive connection, or raw bytes for malformed and stalled requests. Every call has a
// deadline so a misbehaving server fails the test instead of hanging it.
#pragma once

#if !defined(__EMSCRIPTEN__)

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

// clang-format off
#include <utility>  // first: Boost 1.74's Asio uses std::exchange without including it
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
// clang-format on

namespace enygma::test {

struct HttpResponse {
  int status = 0;  // 0: no answer (connection error or timeout)
  std::string error;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  double seconds = 0;  // request sent .. answer read

  std::string header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
  bool has_header(const std::string& lower_name) const { return headers.count(lower_name) > 0; }
};

inline std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

class HttpConnection {
 public:
  explicit HttpConnection(unsigned short port,
                          std::chrono::milliseconds timeout = std::chrono::seconds(60))
      : stream_(ioc_), timeout_(timeout) {
    boost::beast::error_code ec;
    stream_.expires_after(timeout_);
    stream_.connect(
        boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port), ec);
    connected_ = !ec;
    connect_error_ = ec.message();
  }

  bool connected() const { return connected_; }

  HttpResponse request(const std::string& method, const std::string& target,
                       const std::string& body = {},
                       const std::vector<std::pair<std::string, std::string>>& headers = {},
                       bool keep_alive = true) {
    namespace http = boost::beast::http;
    HttpResponse out;
    if (!connected_) {
      out.error = "connect: " + connect_error_;
      return out;
    }
    http::request<http::string_body> req;
    req.method_string(method);
    req.target(target);
    req.version(11);
    req.set(http::field::host, "127.0.0.1");
    for (const auto& [name, value] : headers) req.set(name, value);
    req.keep_alive(keep_alive);
    if (!body.empty() || method == "POST") {
      req.body() = body;
      if (!req.count(http::field::content_type)) {
        req.set(http::field::content_type, "application/json");
      }
      req.prepare_payload();
    }
    const auto start = std::chrono::steady_clock::now();
    boost::beast::error_code ec;
    stream_.expires_after(timeout_);
    http::write(stream_, req, ec);
    if (ec) {
      out.error = "write: " + ec.message();
      return out;
    }
    return read_response(method == "HEAD", start);
  }

  // Raw bytes, then (optionally) the answer.
  bool send_raw(const std::string& bytes) {
    boost::beast::error_code ec;
    stream_.expires_after(timeout_);
    boost::asio::write(stream_, boost::asio::buffer(bytes), ec);
    return !ec;
  }

  HttpResponse read_response(bool head = false, std::chrono::steady_clock::time_point start =
                                                    std::chrono::steady_clock::now()) {
    namespace http = boost::beast::http;
    HttpResponse out;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    parser.skip(head);
    boost::beast::error_code ec;
    stream_.expires_after(timeout_);
    http::read(stream_, buffer_, parser, ec);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (ec) {
      out.error = "read: " + ec.message();
      return out;
    }
    auto& res = parser.get();
    out.status = static_cast<int>(res.result_int());
    for (const auto& field : res) {
      out.headers[lower(std::string(field.name_string()))] = std::string(field.value());
    }
    out.body = std::move(res.body());
    return out;
  }

  // True when the server closed the connection (EOF) within the deadline.
  bool closed_by_peer(std::chrono::milliseconds within) {
    boost::beast::error_code ec;
    char byte;
    stream_.expires_after(within);
    stream_.read_some(boost::asio::buffer(&byte, 1), ec);
    return ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset;
  }

  void close() {
    boost::beast::error_code ec;
    stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
    stream_.socket().close(ec);
  }

 private:
  boost::asio::io_context ioc_;
  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::chrono::milliseconds timeout_;
  bool connected_ = false;
  std::string connect_error_;
};

// One request on its own connection.
inline HttpResponse http_request(
    unsigned short port, const std::string& method, const std::string& target,
    const std::string& body = {},
    const std::vector<std::pair<std::string, std::string>>& headers = {}) {
  HttpConnection connection(port);
  return connection.request(method, target, body, headers, /*keep_alive=*/false);
}

// The value of one sample line of a server's /metrics ("name{labels}"), or -1 when absent.
inline double metric(unsigned short port, const std::string& series) {
  HttpResponse r = http_request(port, "GET", "/metrics");
  size_t pos = 0;
  while (pos < r.body.size()) {
    size_t eol = r.body.find('\n', pos);
    if (eol == std::string::npos) eol = r.body.size();
    const std::string line = r.body.substr(pos, eol - pos);
    if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
    pos = eol + 1;
  }
  return -1;
}

}  // namespace enygma::test

#endif  // !__EMSCRIPTEN__
