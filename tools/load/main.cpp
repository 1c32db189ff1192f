// enygma-load: a closed-loop HTTP load generator. C connections, each sending the same request
// again as soon as its previous answer arrived (keep-alive), for T seconds; then the answers
// still outstanding are awaited (a connection still being set up is given up). Reports
// throughput, latency percentiles (of the answers 200; of the others apart), status counts,
// errors and (with --server-pid) the server's resident memory, as one JSON object.
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

// clang-format off
#include <utility>  // first: Boost 1.74's Asio uses std::exchange without including it
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
// clang-format on

#include "native/common/file_io.hpp"
#include "native/common/options.hpp"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

constexpr unsigned long kMaxConcurrency = 10000;
constexpr unsigned long kMaxSeconds = 86400;  // --seconds and --timeout: a day at most
constexpr unsigned long kMaxPid = 4194304;    // the kernel's largest pid_max (2^22)

struct Url {
  std::string host;         // for resolution: an IPv6 literal without its brackets
  std::string port;         // 1..65535 (80 when the URL has none)
  std::string host_header;  // as the URL wrote it, with the port: "[::1]:3003", "example:80"
  std::string target;       // path and query ("/" when the URL has none), no fragment
};

// Empty when `text` is an http:// URL this tool can load, with its parts in `out`; otherwise
// what is wrong with it.
std::string parse_url(const std::string& text, Url& out) {
  for (unsigned char ch : text) {
    if (ch <= 0x20 || ch >= 0x7f) return "must not contain spaces, control or non-ASCII characters";
  }
  std::string scheme = text.substr(0, std::min(text.size(), text.find("://")));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (scheme == "https") return "https is not supported: use http://HOST:PORT/PATH";
  if (scheme != "http" || text.size() == scheme.size()) {
    return "must be http://HOST:PORT/PATH";
  }
  const std::string rest = text.substr(scheme.size() + 3);
  const size_t end = rest.find_first_of("/?#");
  const std::string authority = rest.substr(0, end);
  out.target = end == std::string::npos ? "" : rest.substr(end);
  out.target = out.target.substr(0, out.target.find('#'));
  if (out.target.empty() || out.target[0] != '/') out.target = "/" + out.target;
  if (authority.empty()) return "has no host";
  if (authority.find('@') != std::string::npos) return "user information (USER@) is not supported";
  std::string port_text;
  bool has_port = false;
  if (authority[0] == '[') {
    const size_t close = authority.find(']');
    if (close == std::string::npos) return "has an IPv6 address without its closing ']'";
    out.host = authority.substr(1, close - 1);
    boost::system::error_code ec;
    asio::ip::make_address_v6(out.host, ec);
    if (ec) return "'" + out.host + "' is not an IPv6 address";
    const std::string after = authority.substr(close + 1);
    if (!after.empty() && after[0] != ':') return "has characters after the IPv6 address";
    has_port = !after.empty();
    if (has_port) port_text = after.substr(1);
  } else {
    const size_t colon = authority.find(':');
    if (colon != std::string::npos && authority.find(':', colon + 1) != std::string::npos) {
      return "has an IPv6 address without brackets (write http://[::1]:PORT/PATH)";
    }
    out.host = authority.substr(0, colon);
    if (out.host.empty()) return "has no host";
    for (unsigned char ch : out.host) {
      if (!std::isalnum(ch) && ch != '.' && ch != '-' && ch != '_') {
        return "host '" + out.host + "' is not a host name or an IPv4 address";
      }
    }
    has_port = colon != std::string::npos;
    if (has_port) port_text = authority.substr(colon + 1);
  }
  if (has_port) {
    auto port = enygma::native::parse_unsigned(port_text, 65535);
    if (!port || *port == 0) return "port '" + port_text + "' is not a number in 1..65535";
    out.port = std::to_string(*port);
  } else {
    out.port = "80";
  }
  out.host_header =
      authority.substr(0, authority[0] == '[' ? authority.find(']') + 1 : authority.find(':')) +
      ":" + out.port;
  return "";
}

// VmRSS and VmHWM of a process, in KiB (0 when unreadable).
std::pair<uint64_t, uint64_t> read_rss_kb(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  uint64_t rss = 0, hwm = 0;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) rss = std::strtoull(line.c_str() + 6, nullptr, 10);
    if (line.rfind("VmHWM:", 0) == 0) hwm = std::strtoull(line.c_str() + 6, nullptr, 10);
  }
  return {rss, hwm};
}

struct Totals {
  std::vector<double> latencies_ms;         // the answers 200
  std::vector<double> failed_latencies_ms;  // the other answers (a fast 503 or 404)
  std::map<unsigned, uint64_t> status;
  std::map<std::string, uint64_t> errors;
  Clock::time_point last_answer;
};

class Client : public std::enable_shared_from_this<Client> {
 public:
  Client(asio::io_context& ioc, const tcp::resolver::results_type& endpoints,
         const http::request<http::string_body>& request, Totals& totals, Clock::time_point stop_at,
         std::chrono::milliseconds timeout)
      : head_(request.method() == http::verb::head),
        stream_(ioc),
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
    // A connection still being set up when the run ends is given up then, not awaited for up to
    // --timeout (a server whose accept queue is full never completes it): no request was sent.
    stream_.expires_at(std::min(Clock::now() + timeout_, stop_at_));
    stream_.async_connect(endpoints_,
                          [self = shared_from_this()](beast::error_code ec, const tcp::endpoint&) {
                            if (ec == beast::error::timeout && Clock::now() >= self->stop_at_) {
                              return self->close();
                            }
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
    if (head_) response_->skip(true);  // the answer to HEAD has a Content-Length but no body
    http::async_read(stream_, buffer_, *response_,
                     [self = shared_from_this()](beast::error_code ec, size_t) {
                       if (ec) return self->fail("read", ec, false);
                       self->on_response();
                     });
  }

  void on_response() {
    const auto now = Clock::now();
    const unsigned status = response_->get().result_int();
    (status == 200 ? totals_.latencies_ms : totals_.failed_latencies_ms)
        .push_back(std::chrono::duration<double, std::milli>(now - sent_at_).count());
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

  const bool head_;
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

// p50, p90, p99, max and mean of some latencies (all 0 when there are none).
nlohmann::ordered_json latency_summary(std::vector<double> latencies) {
  std::sort(latencies.begin(), latencies.end());
  double sum = 0;
  for (double v : latencies) sum += v;
  return {{"p50", percentile(latencies, 50)},
          {"p90", percentile(latencies, 90)},
          {"p99", percentile(latencies, 99)},
          {"max", latencies.empty() ? 0.0 : latencies.back()},
          {"mean", latencies.empty() ? 0.0 : sum / latencies.size()}};
}

void usage(FILE* out) {
  fprintf(out,
          "usage: enygma-load --url http://HOST:PORT/PATH [--body FILE] [--method M]\n"
          "                   [--concurrency C] [--seconds T] [--timeout T]\n"
          "                   [--server-pid PID]\n\n"
          "C keep-alive connections send the request back to back for T seconds (then wait\n"
          "for the answers outstanding). Prints JSON: throughput, latency percentiles of the\n"
          "answers 200 (and of the others apart), status counts, errors and the server's\n"
          "resident memory (from /proc/PID/status).\n\n"
          "  --url URL          http://HOST[:PORT][/PATH]; HOST a name, an IPv4 address or an\n"
          "                     IPv6 address in brackets (http://[::1]:3003/); PORT 80 if absent\n"
          "  --body FILE        the request body (a file or a pipe), sent with Content-Type:\n"
          "                     application/json\n"
          "  --method M         the HTTP method (default POST with --body, else GET)\n"
          "  --concurrency C    connections, 1..%lu (default 1)\n"
          "  --seconds T        how long to send, in seconds: 10, 2.5, 500ms, 2m (0.001..%lu;\n"
          "                     default 10)\n"
          "  --timeout T        per request, the same forms (default 300)\n"
          "  --server-pid PID   the server's process, for its memory\n\n"
          "Exit codes: 0 every request answered 200; 1 a request failed or none was answered,\n"
          "or the body file, the host or /proc/PID/status could not be read; 64 a usage error\n"
          "(an unknown, repeated or missing option, a value out of range).\n",
          kMaxConcurrency, kMaxSeconds);
}

using enygma::native::shown_on_one_line;

// One line naming the option and what is wrong with it; the exit code of a usage error.
int usage_error(const std::string& why) {
  fprintf(stderr, "enygma-load: %s (see --help)\n", why.c_str());
  return enygma::native::kExitUsage;
}

// A time: a duration of native::parse_duration ("10", "10s", "500ms", "2m") or a decimal number
// of seconds ("2.5", "0.25s"), within 1 ms .. kMaxSeconds.
std::optional<std::chrono::milliseconds> parse_time(const std::string& text) {
  std::optional<std::chrono::milliseconds> ms = enygma::native::parse_duration(text);
  if (!ms) {
    std::string number = text;
    if (!number.empty() && number.back() == 's') number.pop_back();
    const size_t digits = std::count_if(number.begin(), number.end(),
                                        [](unsigned char ch) { return std::isdigit(ch); });
    if (digits == 0 || digits + 1 != number.size() || number.find('.') == std::string::npos ||
        number.size() > 20) {
      return std::nullopt;  // no sign, exponent, inf or nan
    }
    double seconds = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), seconds);
    if (ec != std::errc() || end != number.data() + number.size()) return std::nullopt;
    if (!(seconds <= kMaxSeconds)) return std::nullopt;
    ms = std::chrono::milliseconds(std::llround(seconds * 1000));
  }
  if (ms->count() < 1 || ms->count() > static_cast<long long>(kMaxSeconds) * 1000) {
    return std::nullopt;
  }
  return ms;
}

// The body file's bytes (a file or a pipe, at most 16 MiB: native::read_text_file); std::nullopt
// after printing why it cannot be read (naming it).
std::optional<std::string> read_body(const std::string& path) {
  auto text = enygma::native::read_text_file(path);
  if (!text) {
    fprintf(stderr, "enygma-load: --body: %s\n", text.error().message.c_str());
    return std::nullopt;
  }
  return std::string(text->begin(), text->end());
}

// An HTTP method: a token (RFC 9110), CONNECT excepted (it opens a tunnel).
bool valid_method(const std::string& method) {
  if (method.empty() || method == "CONNECT") return false;
  return std::all_of(method.begin(), method.end(), [](unsigned char ch) {
    return std::isalnum(ch) || std::strchr("!#$%&'*+-.^_`|~", ch) != nullptr;
  });
}

// Room for C connections: the soft limit of open files raised towards the hard one.
void raise_open_file_limit(unsigned connections) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  const rlim_t wanted = static_cast<rlim_t>(connections) + 64;
  if (limit.rlim_cur >= wanted) return;
  limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
  setrlimit(RLIMIT_NOFILE, &limit);
}

int run_load(int argc, char** argv) {
  using enygma::native::kExitFailed;
  using enygma::native::kExitOk;
  using enygma::native::kExitUsage;
  enygma::native::Args args;
  // (Empty values reach the checks below, which say what each option takes.)
  const std::set<std::string> options = {"url",     "body",    "method",    "concurrency",
                                         "seconds", "timeout", "server-pid"};
  if (!args.parse(argc, argv, options, {}, "enygma-load", options)) {
    return kExitUsage;
  }
  if (args.help()) {
    usage(stdout);
    return kExitOk;
  }
  const auto url_text = args.get("url");
  if (!url_text) return usage_error("--url is required");
  Url url;
  if (std::string why = parse_url(*url_text, url); !why.empty()) {
    return usage_error("--url '" + shown_on_one_line(*url_text) + "': " + why);
  }
  auto concurrency_option = args.get_uint("concurrency", 1, 1, kMaxConcurrency);
  if (!concurrency_option) return usage_error(concurrency_option.error().message);
  const unsigned concurrency = static_cast<unsigned>(*concurrency_option);
  std::chrono::milliseconds times[2];
  const char* time_options[2] = {"seconds", "timeout"};
  const char* time_defaults[2] = {"10", "300"};
  for (int i = 0; i < 2; ++i) {
    const std::string text = args.get_or(time_options[i], time_defaults[i]);
    auto time = parse_time(text);
    if (!time) {
      return usage_error("--" + std::string(time_options[i]) + " must be a time in 0.001.." +
                         std::to_string(kMaxSeconds) + " seconds (e.g. 10, 2.5, 500ms, 2m), got '" +
                         shown_on_one_line(text) + "'");
    }
    times[i] = *time;
  }
  const std::chrono::milliseconds run_time = times[0], timeout = times[1];
  long server_pid = 0;
  if (auto pid_text = args.get("server-pid")) {
    auto pid = enygma::native::parse_unsigned(*pid_text, kMaxPid);
    if (!pid || *pid == 0) {
      return usage_error("--server-pid must be a process id in 1.." + std::to_string(kMaxPid) +
                         ", got '" + shown_on_one_line(*pid_text) + "'");
    }
    server_pid = static_cast<long>(*pid);
  }
  const std::optional<std::string> body_file = args.get("body");
  std::string method = args.get_or("method", body_file ? "POST" : "GET");
  if (!valid_method(method)) {
    return usage_error("--method must be an HTTP method such as GET or POST, got '" +
                       shown_on_one_line(method) + "'");
  }

  http::request<http::string_body> request;
  if (body_file) {
    std::optional<std::string> body = read_body(*body_file);
    if (!body) return kExitFailed;
    request.body() = std::move(*body);
    request.set(http::field::content_type, "application/json");
  }
  if (server_pid) {
    const std::string status_path = "/proc/" + std::to_string(server_pid) + "/status";
    if (!std::ifstream(status_path)) {
      fprintf(stderr, "enygma-load: --server-pid %ld: no such process (cannot read %s)\n",
              server_pid, status_path.c_str());
      return kExitFailed;
    }
  }
  request.method_string(method);
  request.target(url.target);
  request.version(11);
  request.set(http::field::host, url.host_header);
  request.set(http::field::user_agent, "enygma-load");
  request.keep_alive(true);
  request.prepare_payload();

  asio::io_context ioc(1);
  beast::error_code ec;
  tcp::resolver resolver(ioc);
  auto endpoints = resolver.resolve(url.host, url.port, ec);
  if (ec) {
    fprintf(stderr, "enygma-load: --url: cannot resolve %s: %s\n", url.host.c_str(),
            ec.message().c_str());
    return kExitFailed;
  }
  raise_open_file_limit(concurrency);

  Totals totals;
  uint64_t rss_start = 0, rss_peak = 0;
  if (server_pid) rss_start = rss_peak = read_rss_kb(server_pid).first;
  const auto start = Clock::now();
  const auto stop_at = start + run_time;
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
  const size_t answered = totals.latencies_ms.size() + totals.failed_latencies_ms.size();
  uint64_t ok = totals.status.count(200) ? totals.status.at(200) : 0;
  uint64_t failures = 0;
  for (const auto& [status, n] : totals.status) {
    if (status != 200) failures += n;
  }
  for (const auto& [what, n] : totals.errors) failures += n;

  nlohmann::ordered_json out;
  out["url"] = *url_text;
  out["method"] = method;
  out["concurrency"] = concurrency;
  out["seconds"] = static_cast<double>(run_time.count()) / 1000;
  out["elapsed_s"] = elapsed;
  out["requests"] = answered;
  out["ok"] = ok;
  out["failures"] = failures;
  out["throughput_rps"] = elapsed > 0 ? ok / elapsed : 0.0;
  // Latency of the answers 200 (the figures of a run), and of the other answers on their own: a
  // fast refusal mixed in would make the proofs look faster than they are.
  out["latency_ms"] = latency_summary(totals.latencies_ms);
  out["failed_latency_ms"] = latency_summary(totals.failed_latencies_ms);
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
  if (answered == 0 && failures == 0) {
    fprintf(stderr, "enygma-load: no request was answered in %s s\n",
            out["seconds"].dump().c_str());
    return kExitFailed;
  }
  return failures == 0 ? kExitOk : kExitFailed;
}

}  // namespace

int main(int argc, char** argv) {
  return run_load(argc, argv);
}
