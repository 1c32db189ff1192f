// The command line of the load generator, build/bin/enygma-load (native only): every bad value is
// a usage error (exit 64) with one line naming the option and what is wrong, a body file that
// cannot be read exits 1 naming it, and the URL forms it accepts (an IPv6 literal, HEAD) reach a
// small HTTP server of the test's own, which also answers with failures (what counts as one, and
// its latency apart). And scripts/load-run.sh, the server benchmark, on the fake backend.
#include <gtest/gtest.h>

#if !defined(__EMSCRIPTEN__)

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "support/subprocess.hpp"

namespace enygma::load_cli_test {
namespace {

using test::Child;
using test::RunResult;
using test::TempDir;

constexpr int kUsage = 64;

RunResult run_load(const std::vector<std::string>& args,
                   std::chrono::seconds deadline = std::chrono::seconds(20)) {
  Child child(test::load_binary().string(), args, {});
  if (!child.started()) return {};
  return child.wait(deadline);
}

size_t line_count(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// A bad command line: exit 64, one line on stderr holding every piece of `expected` (the option
// and what is wrong), no usage text, nothing on stdout.
void expect_usage_error(const std::vector<std::string>& args,
                        const std::vector<std::string>& expected) {
  std::string shown;
  for (const auto& a : args) shown += " " + a;
  RunResult r = run_load(args);
  EXPECT_EQ(r.exit_code, kUsage) << shown << ": " << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << shown << ": " << r.err;
  EXPECT_EQ(r.err.rfind("enygma-load: ", 0), 0u) << shown << ": " << r.err;
  EXPECT_EQ(r.err.find("usage:"), std::string::npos) << shown << ": " << r.err;
  EXPECT_TRUE(r.out.empty()) << shown << ": " << r.out;
  for (const auto& piece : expected) {
    EXPECT_NE(r.err.find(piece), std::string::npos) << shown << ": '" << piece << "' in " << r.err;
  }
}

// An HTTP/1.1 server answering every request 200 "ok" on kept-alive connections (HEAD: the same
// Content-Length, no body), recording the Host header and the arrival of each request. Another
// `answer` gives the whole answer to the request of each index (0, 1, ... in order of arrival
// over all connections): an empty one closes the connection without answering, one with
// "Connection: close" closes it after the answer.
class TinyHttpServer {
 public:
  using Answer = std::function<std::string(size_t index)>;
  // address: "127.0.0.1" or "::1"; listening() is false when it cannot be bound.
  explicit TinyHttpServer(const std::string& address, Answer answer = {})
      : answer_(std::move(answer)) {
    const bool v6 = address.find(':') != std::string::npos;
    fd_ = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) return;
    sockaddr_storage storage{};
    socklen_t length = 0;
    if (v6) {
      auto* a = reinterpret_cast<sockaddr_in6*>(&storage);
      a->sin6_family = AF_INET6;
      if (inet_pton(AF_INET6, address.c_str(), &a->sin6_addr) != 1) return;
      length = sizeof(sockaddr_in6);
    } else {
      auto* a = reinterpret_cast<sockaddr_in*>(&storage);
      a->sin_family = AF_INET;
      if (inet_pton(AF_INET, address.c_str(), &a->sin_addr) != 1) return;
      length = sizeof(sockaddr_in);
    }
    if (bind(fd_, reinterpret_cast<sockaddr*>(&storage), length) != 0 || listen(fd_, 64) != 0) {
      return;
    }
    if (getsockname(fd_, reinterpret_cast<sockaddr*>(&storage), &length) != 0) return;
    port_ = ntohs(v6 ? reinterpret_cast<sockaddr_in6*>(&storage)->sin6_port
                     : reinterpret_cast<sockaddr_in*>(&storage)->sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  ~TinyHttpServer() {
    stop_ = true;
    if (acceptor_.joinable()) acceptor_.join();
    for (auto& t : connections_) t.join();
    if (fd_ >= 0) close(fd_);
  }
  bool listening() const { return port_ != 0; }
  unsigned short port() const { return port_; }
  std::vector<std::string> hosts() {
    std::lock_guard<std::mutex> lock(mutex_);
    return hosts_;
  }
  std::vector<std::chrono::steady_clock::time_point> arrivals() {
    std::lock_guard<std::mutex> lock(mutex_);
    return arrivals_;
  }

 private:
  // Waits up to 50 ms for fd to be readable.
  static bool readable(int fd) {
    pollfd p{fd, POLLIN, 0};
    return poll(&p, 1, 50) > 0;
  }
  void accept_loop() {
    while (!stop_) {
      if (!readable(fd_)) continue;
      const int client = accept(fd_, nullptr, nullptr);
      if (client >= 0) connections_.emplace_back([this, client] { serve(client); });
    }
  }
  void serve(int client) {
    std::string buffer;
    char chunk[4096];
    while (!stop_) {
      const size_t end = buffer.find("\r\n\r\n");
      if (end == std::string::npos) {
        if (!readable(client)) continue;
        const ssize_t n = read(client, chunk, sizeof chunk);
        if (n <= 0) break;
        buffer.append(chunk, static_cast<size_t>(n));
        continue;
      }
      const std::string head = buffer.substr(0, end);
      size_t body = 0;
      std::string host;
      size_t line_start = head.find("\r\n");
      while (line_start != std::string::npos) {
        const size_t line_end = head.find("\r\n", line_start + 2);
        const std::string line = head.substr(line_start + 2, line_end - line_start - 2);
        std::string name = line.substr(0, line.find(':'));
        for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        const std::string value = line.substr(std::min(line.size(), line.find(':') + 2));
        if (name == "content-length") body = std::stoul(value);
        if (name == "host") host = value;
        line_start = line_end;
      }
      if (buffer.size() < end + 4 + body) {  // the body is still on its way
        if (!readable(client)) continue;
        const ssize_t n = read(client, chunk, sizeof chunk);
        if (n <= 0) break;
        buffer.append(chunk, static_cast<size_t>(n));
        continue;
      }
      buffer.erase(0, end + 4 + body);
      size_t index = 0;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        index = hosts_.size();
        hosts_.push_back(host);
        arrivals_.push_back(std::chrono::steady_clock::now());
      }
      const bool head_request = head.rfind("HEAD ", 0) == 0;
      const std::string answer =
          answer_
              ? answer_(index)
              : std::string(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n") +
                    (head_request ? "" : "ok");
      if (answer.empty()) break;
      if (write(client, answer.data(), answer.size()) != static_cast<ssize_t>(answer.size())) break;
      if (answer.find("Connection: close\r\n") != std::string::npos) break;
    }
    close(client);
  }

  const Answer answer_;
  int fd_ = -1;
  unsigned short port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread acceptor_;
  std::vector<std::thread> connections_;  // touched by the acceptor thread, then the destructor
  std::mutex mutex_;
  std::vector<std::string> hosts_;
  std::vector<std::chrono::steady_clock::time_point> arrivals_;
};

const char kAnyUrl[] = "http://127.0.0.1:9/";

// Bug: std::stoul took "-1" as 4294967295 clients (a hang) and "3abc" as 3. Bug: a control
// character in the value was printed as it is ("2\nX" made the message two lines).
TEST(LoadCli, ConcurrencyIsAnIntegerInOneToTenThousand) {
  for (const char* bad : {"-1", "3abc", "0", "10001", "", " 2", "+2", "4294967297"}) {
    expect_usage_error({"--url", kAnyUrl, "--concurrency", bad},
                       {"--concurrency must be an integer in 1..10000", "'" + std::string(bad)});
  }
  expect_usage_error({"--url", kAnyUrl, "--concurrency", "2\nX"},
                     {"--concurrency must be an integer in 1..10000", "'2\\x0aX'"});
}

// Bug: --seconds nan/inf ran 0 requests and exited 0 ("seconds": null); --timeout -1 and 0
// were taken (every request timed out).
TEST(LoadCli, SecondsAndTimeoutArePositiveFiniteTimes) {
  for (const char* option : {"--seconds", "--timeout"}) {
    for (const char* bad : {"nan", "inf", "-inf", "0", "-1", "0.0", "0.0001", "1e3", "1,5", "10x",
                            "", "100000", "2.5ms", ".", "1.2.3"}) {
      expect_usage_error({"--url", kAnyUrl, option, bad},
                         {std::string(option) + " must be a time in 0.001..86400 seconds",
                          "'" + std::string(bad)});
    }
  }
}

// Bug: a folder as --body was taken and sent as empty bodies.
TEST(LoadCli, BodyThatIsNotAReadableFileIsRefusedByName) {
  TempDir dir;
  struct Case {
    std::string path, why;
  };
  for (const Case& c : {Case{dir.path().string(), dir.path().string() + " is not a file or a pipe"},
                        Case{dir / "missing.json", "cannot open " + (dir / "missing.json") +
                                                       ": No such file or directory"},
                        Case{"/dev/zero", "/dev/zero is larger than 16 MiB"}}) {
    RunResult r = run_load({"--url", kAnyUrl, "--body", c.path, "--seconds", "1"});
    EXPECT_EQ(r.exit_code, 1) << c.path << ": " << r.err;
    EXPECT_EQ(r.err.rfind("enygma-load: --body: " + c.why, 0), 0u) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

// Bug: a bad --url (and --concurrency 0, --seconds 0) printed the usage text alone.
TEST(LoadCli, BadUrlIsOneLineSayingWhatIsWrong) {
  struct Case {
    const char* url;
    const char* why;
  };
  for (const Case& c : {
           Case{"", "must be http://HOST:PORT/PATH"},
           Case{"ftp://host/", "must be http://HOST:PORT/PATH"},
           Case{"127.0.0.1:3003/x", "must be http://HOST:PORT/PATH"},
           Case{"https://host/", "https is not supported"},
           Case{"http://", "has no host"},
           Case{"http://:3003/", "has no host"},
           Case{"http://host:/", "port '' is not a number in 1..65535"},
           Case{"http://host:0/", "port '0' is not a number in 1..65535"},
           Case{"http://host:65536/", "port '65536' is not a number in 1..65535"},
           Case{"http://host:80abc/", "port '80abc' is not a number in 1..65535"},
           Case{"http://::1:3003/", "IPv6 address without brackets"},
           Case{"http://[::1:3003/", "without its closing ']'"},
           Case{"http://[::1]x/", "characters after the IPv6 address"},
           Case{"http://[nope]:3003/", "'nope' is not an IPv6 address"},
           Case{"http://user@host/", "user information (USER@) is not supported"},
           Case{"http://ho st/", "must not contain spaces"},
           Case{"http://host/a\r\nX: 1", "must not contain spaces, control"},
           Case{"http://ho$t/", "host 'ho$t' is not a host name or an IPv4 address"},
       }) {
    std::string url = c.url;
    for (size_t at; (at = url.find_first_of("\r\n")) != std::string::npos;) {
      url.replace(at, 1, url[at] == '\r' ? "\\x0d" : "\\x0a");  // as shown on one line
    }
    expect_usage_error({"--url", c.url}, {"--url '" + url + "': ", c.why});
  }
  expect_usage_error({"--seconds", "1"}, {"--url is required"});
}

// Bug: usage errors exited 2 (enygma: 64) and a repeated option was taken (the last won).
TEST(LoadCli, UsageErrorsExit64AndRepeatedOptionsAreRefused) {
  expect_usage_error({"--url", kAnyUrl, "--seconds", "1", "--seconds", "2"},
                     {"--seconds is given twice"});
  expect_usage_error({"--url", kAnyUrl, "--url", kAnyUrl}, {"--url is given twice"});
  expect_usage_error({"--url", kAnyUrl, "--bogus", "1"}, {"unknown option --bogus"});
  expect_usage_error({"--url", kAnyUrl, "stray"},
                     {"unexpected argument 3 (not an option; it follows --url's value: a value "
                      "with spaces must be quoted)"});
  expect_usage_error({"--url", kAnyUrl, "--concurrency"}, {"--concurrency needs a value"});
  for (const char* bad : {"", "GET X", "GET\r\nX: 1", "CONNECT", "G(E)T"}) {
    expect_usage_error({"--url", kAnyUrl, "--method", bad},
                       {"--method must be an HTTP method such as GET or POST"});
  }
  for (const char* bad : {"-1", "0", "12abc", "4194305", ""}) {
    expect_usage_error({"--url", kAnyUrl, "--server-pid", bad},
                       {"--server-pid must be a process id in 1..4194304", "'" + std::string(bad)});
  }
  RunResult help = run_load({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.out.rfind("usage: enygma-load", 0), 0u) << help.out;
  for (const char* option :
       {"--url", "--body", "--method", "--concurrency", "--seconds", "--timeout", "--server-pid"}) {
    EXPECT_NE(help.out.find(option), std::string::npos) << option;
  }
}

// --server-pid of no process: refused before the run (the memory columns would be zeros).
TEST(LoadCli, ServerPidOfNoProcessIsRefused) {
  if (access("/proc/4194304", F_OK) == 0) GTEST_SKIP() << "pid 4194304 exists";
  RunResult r = run_load({"--url", kAnyUrl, "--server-pid", "4194304"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--server-pid 4194304: no such process"), std::string::npos) << r.err;
}

// Bug: http://[::1]:PORT/ failed with "cannot resolve [::1]" (the brackets were kept). The
// brackets go in the Host header, not in the name resolved. Also the time forms: 0.3, 300ms.
TEST(LoadCli, Ipv6LiteralUrlReachesTheServerWithABracketedHost) {
  TinyHttpServer server("::1");
  if (!server.listening()) GTEST_SKIP() << "no IPv6 loopback here";
  const std::string port = std::to_string(server.port());
  for (const char* seconds : {"0.3", "300ms"}) {
    RunResult r = run_load({"--url", "http://[::1]:" + port + "/healthcheck", "--seconds", seconds,
                            "--timeout", "5s", "--server-pid", std::to_string(getpid())});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    auto report = nlohmann::json::parse(r.out);
    EXPECT_EQ(report["method"], "GET");
    EXPECT_DOUBLE_EQ(report["seconds"].get<double>(), 0.3);
    EXPECT_GE(report["ok"].get<int>(), 1) << r.out;
    EXPECT_EQ(report["failures"], 0) << r.out;
    EXPECT_GT(report["server"]["rss_peak_kb"].get<long>(), 0) << r.out;
  }
  const auto hosts = server.hosts();
  ASSERT_FALSE(hosts.empty());
  for (const auto& host : hosts) EXPECT_EQ(host, "[::1]:" + port);
}

// HEAD: the answer has a Content-Length and no body; reading one must not wait for the body
// (each request would end in a read timeout).
TEST(LoadCli, HeadRequestsDoNotWaitForABody) {
  TinyHttpServer server("127.0.0.1");
  ASSERT_TRUE(server.listening());
  const std::string port = std::to_string(server.port());
  RunResult r = run_load({"--url", "http://127.0.0.1:" + port, "--method", "HEAD", "--seconds",
                          "0.5", "--timeout", "2", "--concurrency", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["method"], "HEAD");
  EXPECT_GE(report["ok"].get<int>(), 2) << r.out;
  EXPECT_TRUE(report["errors"].empty()) << r.out;
  EXPECT_EQ(server.hosts().front(), "127.0.0.1:" + port);
}

// Bug: the latency percentiles counted every answer, so fast refusals (503, 404) made a run look
// faster. The server answers in turn: 200 after 150 ms, 404 at once, 503 at once with
// Connection: close, and no answer (the connection closed): every other answer than 200 and the
// transport error are failures (exit 1), outside latency_ms and inside failed_latency_ms; after
// the 503 the client waits (50 ms) and reconnects instead of reusing the closed connection.
TEST(LoadCli, FailedAnswersAndTransportErrorsAreFailuresOutsideTheLatency) {
  static constexpr int kOkMs = 150;
  TinyHttpServer server("127.0.0.1", [](size_t index) -> std::string {
    switch (index % 4) {
      case 0:
        std::this_thread::sleep_for(std::chrono::milliseconds(kOkMs));
        return "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
      case 1:
        return "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
      case 2:
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      default:
        return "";
    }
  });
  ASSERT_TRUE(server.listening());
  RunResult r = run_load({"--url", "http://127.0.0.1:" + std::to_string(server.port()) + "/",
                          "--seconds", "1.2", "--timeout", "5"});
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  auto report = nlohmann::json::parse(r.out);
  const auto& status = report["status"];
  ASSERT_TRUE(status.contains("200") && status.contains("404") && status.contains("503")) << r.out;
  EXPECT_EQ(report["ok"], status["200"]) << r.out;
  EXPECT_EQ(report["requests"].get<int>(),
            status["200"].get<int>() + status["404"].get<int>() + status["503"].get<int>())
      << r.out;
  int errors = 0;
  for (const auto& [what, n] : report["errors"].items()) {
    EXPECT_EQ(what.rfind("read: ", 0), 0u) << r.out;
    errors += n.get<int>();
  }
  // One error per connection closed unanswered: none from reusing the one closed after the 503.
  const auto arrivals = server.arrivals();
  EXPECT_EQ(errors, static_cast<int>(arrivals.size() / 4)) << r.out;
  EXPECT_EQ(report["failures"].get<int>(),
            status["404"].get<int>() + status["503"].get<int>() + errors)
      << r.out;
  EXPECT_GE(report["latency_ms"]["p50"].get<double>(), kOkMs) << r.out;
  EXPECT_GE(report["latency_ms"]["mean"].get<double>(), kOkMs) << r.out;
  ASSERT_TRUE(report.contains("failed_latency_ms")) << r.out;
  EXPECT_LT(report["failed_latency_ms"]["p50"].get<double>(), kOkMs) << r.out;
  for (size_t i = 2; i + 1 < arrivals.size(); i += 4) {
    EXPECT_GE(arrivals[i + 1] - arrivals[i], std::chrono::milliseconds(50)) << "after 503 " << i;
  }
}

// Bug: a connection still being set up when the run ended was awaited for up to --timeout. The
// server's accept queue is full (listen backlog 0, one connection never accepted): the load
// generator's SYNs go unanswered, and its run must still end at --seconds.
TEST(LoadCli, ConnectionStillBeingSetUpIsGivenUpAtTheEnd) {
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&address), length), 0);
  ASSERT_EQ(listen(listener, 0), 0);
  ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
  const int filler = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_EQ(connect(filler, reinterpret_cast<sockaddr*>(&address), length), 0);
  const auto started = std::chrono::steady_clock::now();
  RunResult r = run_load({"--url", "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)),
                          "--seconds", "0.5", "--timeout", "60"},
                         std::chrono::seconds(30));
  const auto took = std::chrono::steady_clock::now() - started;
  close(filler);
  close(listener);
  EXPECT_LT(took, std::chrono::seconds(10));
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  EXPECT_NE(r.err.find("no request was answered"), std::string::npos) << r.err;
  auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["requests"], 0) << r.out;
  EXPECT_TRUE(report["errors"].empty()) << r.out;
}

// scripts/load-run.sh with the given environment and arguments (BUILD_DIR first), writing its
// reports into `out`.
RunResult run_load_script(const std::vector<std::string>& args, std::vector<std::string> env,
                          const TempDir& out) {
  env.push_back("OUT=" + out / "reports");
  env.push_back("SECONDS_PER_RUN=0.3");
  env.push_back("CLIENTS=1");
  Child script(std::string(ENYGMA_SOURCE_DIR) + "/scripts/load-run.sh", args, env);
  return script.wait(std::chrono::seconds(60));
}

std::string build_dir() {
  return test::enygma_binary().parent_path().parent_path().string();
}

// Bug: a missing program failed with a Python traceback (`enygma info` ran before the check)
// instead of "build first", exit 2.
TEST(LoadRunScript, MissingProgramSaysBuildFirst) {
  TempDir dir;
  RunResult r = run_load_script({dir / "no-build", dir / "keys"}, {}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("build first"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("Traceback"), std::string::npos) << r.err;
  // enygma built, enygma-load not: said before any server starts
  std::filesystem::create_directories(dir / "half/bin");
  std::filesystem::create_symlink(test::enygma_binary(), dir / "half/bin/enygma");
  r = run_load_script({dir / "half", dir / "keys"}, {}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("half/bin/enygma-load: build first"), std::string::npos) << r.err;
}

// Bug: the server loads k = 2..6 whatever K is: K=7 reached a route no circuit serves and the
// failed warm-up ended the script with exit 1 and nothing said.
TEST(LoadRunScript, KOutsideTheKeysLoadedIsRefused) {
  TempDir dir;
  std::ofstream(dir / "request.json") << "{}";
  for (const char* k : {"7", "1", "x"}) {
    RunResult r = run_load_script(
        {build_dir(), dir / "keys"},
        {std::string("K=") + k, "REQUEST=" + dir / "request.json", "SERVE_ARGS=--backend fake"},
        dir);
    EXPECT_EQ(r.exit_code, 2) << k << ": " << r.err;
    EXPECT_NE(r.err.find("K must be one of 2..6"), std::string::npos) << k << ": " << r.err;
  }
}

// Bug: a failed warm-up request ended the script with exit 1 and nothing said. Here every request
// is over the server's --max-body: 413.
TEST(LoadRunScript, FailedWarmUpSaysWhatItGot) {
  TempDir dir;
  RunResult r = run_load_script({build_dir(), dir / "keys"},
                                {"SERVE_ARGS=--backend fake --max-body 16"}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("the warm-up request to http://127.0.0.1:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(R"("413")"), std::string::npos) << r.err;
}

// Bug: the script's own serve options (--circuits, --k, --queue, --access-log) were always given,
// so SERVE_ARGS naming one made `enygma serve` refuse the option given twice (performance.md's
// command with SERVE_ARGS="--circuits C" did). Now SERVE_ARGS replaces them.
TEST(LoadRunScript, ServeArgsReplaceTheScriptsOwnOptions) {
  TempDir dir;
  RunResult r =
      run_load_script({build_dir(), dir / "keys"},
                      {"CIRCUIT=deposit",
                       "SERVE_ARGS=--backend fake --fake-prove-time 10ms --circuits deposit "
                       "--k 6 --queue=3 --access-log on"},
                      dir);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("queue=3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| 1 | "), std::string::npos) << r.out;
  const std::string log = test::read_all(dir / "reports/serve.log");
  EXPECT_NE(log.find(R"("circuits":["deposit-k6"])"), std::string::npos) << log;
  EXPECT_NE(log.find(R"("access_log":true)"), std::string::npos) << log;
}

// Bug: SERVE_ARGS naming other circuits than CIRCUIT and K (--circuits deposit with the default
// transfer) failed at the warm-up with the route's 404. Now said before any request is sent.
TEST(LoadRunScript, ServeArgsServingAnotherCircuitIsSaid) {
  TempDir dir;
  for (const char* serve : {"--circuits deposit", "--k 2-5", "--circuits transfer-k2"}) {
    RunResult r = run_load_script({build_dir(), dir / "keys"},
                                  {std::string("SERVE_ARGS=--backend fake ") + serve}, dir);
    EXPECT_EQ(r.exit_code, 2) << serve << ": " << r.err;
    EXPECT_NE(r.err.find("the server does not serve transfer-k6 (CIRCUIT, K)"), std::string::npos)
        << serve << ": " << r.err;
    EXPECT_EQ(r.err.find("warm-up"), std::string::npos) << serve << ": " << r.err;
  }
}

}  // namespace
}  // namespace enygma::load_cli_test

#endif
