// enygma-load: a closed-loop HTTP load generator. C connections, each sending the same request
// again as soon as its previous answer arrived (keep-alive), for T seconds; then the answers
// still outstanding are awaited. Reports throughput, latency percentiles, status counts,
// errors and (with --server-pid) the server's resident memory, as one JSON object.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

// clang-format off
#include <utility>  // first: Boost 1.74's Asio uses std::exchange without including it
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
// clang-format on

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

struct Url {
  std::string host, port, target;
};

bool parse_url(const std::string& url, Url& out) {
  const std::string scheme = "http://";
  if (url.rfind(scheme, 0) != 0) return false;
  std::string rest = url.substr(scheme.size());
  const size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  out.target = slash == std::string::npos ? "/" : rest.substr(slash);
  const size_t colon = authority.rfind(':');
  if (colon == std::string::npos) {
    out.host = authority;
    out.port = "80";
  } else {
    out.host = authority.substr(0, colon);
    out.port = authority.substr(colon + 1);
  }
  return !out.host.empty() && !out.port.empty();
}

// VmRSS and VmHWM of a process, in KiB (0 when unreadable).
std::pair<uint64_t, uint64_t> read_rss_kb(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  uint64_t rss = 0, hwm = 0;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) rss = std::stoull(line.substr(6));
    if (line.rfind("VmHWM:", 0) == 0) hwm = std::stoull(line.substr(6));
  }
  return {rss, hwm};
}

struct Totals {
  std::vector<double> latencies_ms;  // every answered request, whatever its status
  std::map<unsigned, uint64_t> status;
  std::map<std::string, uint64_t> errors;
  Clock::time_point last_answer;
};

class Client : public std::enable_shared_from_this<Client> {
 public:
  Client(asio::io_context& ioc, const tcp::resolver::results_type& endpoints,
         const http::request<http::string_body>& request, Totals& totals, Clock::time_point stop_at,
         std::chrono::milliseconds timeout)
      : stream_(ioc),
        endpoints_(endpoints),
        request_(request),
        totals_(totals),
        stop_at_(stop_at),
        timeout_(timeout),
        backoff_(ioc) {}

  void start() { connect(); }

 private:
  void connect() {
    if (Clock::now() >= stop_at_) return;
    stream_.expires_after(timeout_);
    stream_.async_connect(endpoints_,
                          [self = shared_from_this()](beast::error_code ec, const tcp::endpoint&) {
                            if (ec) return self->fail("connect", ec, true);
                            self->stream_.socket().set_option(tcp::no_delay(true), ec);
                            self->send();
                          });
  }

  void send() {
    if (Clock::now() >= stop_at_) return close();
    sent_at_ = Clock::now();
    stream_.expires_after(timeout_);
    http::async_write(stream_, request_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->fail("write", ec, false);
      self->read();
    });
  }

  void read() {
    buffer_.clear();
    response_.emplace();
    response_->body_limit(16 * 1024 * 1024);
    http::async_read(stream_, buffer_, *response_,
                     [self = shared_from_this()](beast::error_code ec, size_t) {
                       if (ec) return self->fail("read", ec, false);
                       self->on_response();
                     });
  }

  void on_response() {
    const auto now = Clock::now();
    totals_.latencies_ms.push_back(
        std::chrono::duration<double, std::milli>(now - sent_at_).count());
    const unsigned status = response_->get().result_int();
    ++totals_.status[status];
    totals_.last_answer = now;
    const bool keep = response_->get().keep_alive();
    response_.reset();
    if (!keep) {
      beast::error_code ec;
      stream_.socket().close(ec);
      return status == 503 ? later([this] { connect(); }) : connect();
    }
    if (status == 503) return later([this] { send(); });  // do not hammer a full server
    send();
  }

  template <class F>
  void later(F f) {
    backoff_.expires_after(std::chrono::milliseconds(50));
    backoff_.async_wait([self = shared_from_this(), f](beast::error_code) { f(); });
  }

  void fail(const char* what, beast::error_code ec, bool connecting) {
    std::string key =
        std::string(what) + ": " + (ec == beast::error::timeout ? "timeout" : ec.message());
    ++totals_.errors[key];
    beast::error_code ignored;
    stream_.socket().close(ignored);
    if (Clock::now() >= stop_at_) return;
    // Reconnect; after a failed connect, wait a little first.
    if (connecting) return later([this] { connect(); });
    connect();
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.socket().close(ec);
  }

  beast::tcp_stream stream_;
  tcp::resolver::results_type endpoints_;
  const http::request<http::string_body>& request_;
  Totals& totals_;
  Clock::time_point stop_at_;
  std::chrono::milliseconds timeout_;
  asio::steady_timer backoff_;
  beast::flat_buffer buffer_;
  std::optional<http::response_parser<http::string_body>> response_;
  Clock::time_point sent_at_;
};

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * sorted.size()));
  return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

void usage(FILE* out) {
  fprintf(out,
          "usage: enygma-load --url http://HOST:PORT/PATH [--body FILE] [--method M]\n"
          "                   [--concurrency C] [--seconds T] [--server-pid PID]\n"
          "                   [--timeout SECONDS]\n\n"
          "C keep-alive connections send the request back to back for T seconds (then wait\n"
          "for the answers outstanding). Prints JSON: throughput, latency percentiles, status\n"
          "counts, errors and the server's resident memory (from /proc/PID/status).\n"
          "Defaults: POST when --body is given (Content-Type: application/json), else GET;\n"
          "C = 1, T = 10, timeout 300 s per request.\n");
}

int run_load(int argc, char** argv) {
  std::string url_text, body_file, method;
  unsigned concurrency = 1;
  double seconds = 10, timeout_s = 300;
  long server_pid = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        fprintf(stderr, "enygma-load: %s needs a value\n", arg.c_str());
        exit(2);
      }
      return argv[++i];
    };
    try {
      if (arg == "--help" || arg == "-h") {
        usage(stdout);
        return 0;
      } else if (arg == "--url") {
        url_text = value();
      } else if (arg == "--body") {
        body_file = value();
      } else if (arg == "--method") {
        method = value();
      } else if (arg == "--concurrency") {
        concurrency = static_cast<unsigned>(std::stoul(value()));
      } else if (arg == "--seconds") {
        seconds = std::stod(value());
      } else if (arg == "--server-pid") {
        server_pid = std::stol(value());
      } else if (arg == "--timeout") {
        timeout_s = std::stod(value());
      } else {
        fprintf(stderr, "enygma-load: unknown option %s\n", arg.c_str());
        usage(stderr);
        return 2;
      }
    } catch (const std::exception&) {
      fprintf(stderr, "enygma-load: invalid value for %s\n", arg.c_str());
      return 2;
    }
  }
  Url url;
  if (url_text.empty() || !parse_url(url_text, url) || concurrency == 0 || seconds <= 0) {
    usage(stderr);
    return 2;
  }
  http::request<http::string_body> request;
  if (!body_file.empty()) {
    std::ifstream in(body_file, std::ios::binary);
    if (!in) {
      fprintf(stderr, "enygma-load: cannot read %s\n", body_file.c_str());
      return 2;
    }
    std::ostringstream text;
    text << in.rdbuf();
    request.body() = text.str();
    request.set(http::field::content_type, "application/json");
  }
  if (method.empty()) method = body_file.empty() ? "GET" : "POST";
  request.method_string(method);
  request.target(url.target);
  request.version(11);
  request.set(http::field::host, url.host + ":" + url.port);
  request.set(http::field::user_agent, "enygma-load");
  request.keep_alive(true);
  request.prepare_payload();

  asio::io_context ioc(1);
  beast::error_code ec;
  tcp::resolver resolver(ioc);
  auto endpoints = resolver.resolve(url.host, url.port, ec);
  if (ec) {
    fprintf(stderr, "enygma-load: cannot resolve %s: %s\n", url.host.c_str(), ec.message().c_str());
    return 2;
  }

  Totals totals;
  uint64_t rss_start = 0, rss_peak = 0;
  if (server_pid) rss_start = rss_peak = read_rss_kb(server_pid).first;
  const auto start = Clock::now();
  const auto stop_at =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  const auto timeout = std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000));
  for (unsigned i = 0; i < concurrency; ++i) {
    std::make_shared<Client>(ioc, endpoints, request, totals, stop_at, timeout)->start();
  }
  // Memory sampling every 100 ms while there is load.
  asio::steady_timer sampler(ioc);
  std::function<void()> sample = [&] {
    if (server_pid) rss_peak = std::max(rss_peak, read_rss_kb(server_pid).first);
    if (Clock::now() >= stop_at) return;
    sampler.expires_after(std::chrono::milliseconds(100));
    sampler.async_wait([&](beast::error_code e) {
      if (!e) sample();
    });
  };
  sample();
  ioc.run();

  uint64_t rss_end = 0, hwm = 0;
  if (server_pid) {
    std::tie(rss_end, hwm) = read_rss_kb(server_pid);
    rss_peak = std::max(rss_peak, rss_end);
  }
  auto end = totals.last_answer > start ? totals.last_answer : Clock::now();
  const double elapsed = std::chrono::duration<double>(end - start).count();
  std::vector<double> sorted = totals.latencies_ms;
  std::sort(sorted.begin(), sorted.end());
  uint64_t ok = totals.status.count(200) ? totals.status.at(200) : 0;
  uint64_t failures = 0;
  for (const auto& [status, n] : totals.status) {
    if (status != 200) failures += n;
  }
  for (const auto& [what, n] : totals.errors) failures += n;

  nlohmann::ordered_json out;
  out["url"] = url_text;
  out["method"] = method;
  out["concurrency"] = concurrency;
  out["seconds"] = seconds;
  out["elapsed_s"] = elapsed;
  out["requests"] = sorted.size();
  out["ok"] = ok;
  out["failures"] = failures;
  out["throughput_rps"] = elapsed > 0 ? ok / elapsed : 0.0;
  double sum = 0;
  for (double v : sorted) sum += v;
  out["latency_ms"] = {{"p50", percentile(sorted, 50)},
                       {"p90", percentile(sorted, 90)},
                       {"p99", percentile(sorted, 99)},
                       {"max", sorted.empty() ? 0.0 : sorted.back()},
                       {"mean", sorted.empty() ? 0.0 : sum / sorted.size()}};
  nlohmann::ordered_json status = nlohmann::ordered_json::object();
  for (const auto& [code, n] : totals.status) status[std::to_string(code)] = n;
  out["status"] = status;
  nlohmann::ordered_json errors = nlohmann::ordered_json::object();
  for (const auto& [what, n] : totals.errors) errors[what] = n;
  out["errors"] = errors;
  if (server_pid) {
    out["server"] = {{"pid", server_pid},
                     {"rss_start_kb", rss_start},
                     {"rss_peak_kb", rss_peak},
                     {"rss_end_kb", rss_end},
                     {"vmhwm_kb", hwm}};
  }
  printf("%s\n", out.dump(2).c_str());
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return run_load(argc, argv);
}
