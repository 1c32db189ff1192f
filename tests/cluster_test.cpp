// Several `enygma serve` instances behind a real HAProxy (issue #9), started and stopped by
// scripts/cluster.sh with deploy/haproxy/enygma.cfg, all on loopback. The instances use the fake
// backend (proofs sleep): what is tested is the balancing, retries and readiness, not proving;
// and the script's own checks (its arguments, a folder still running, stale pid files).
// Native only; needs haproxy (scripts/setup-deps.sh installs it) and curl.
#include <gtest/gtest.h>

#if !defined(__EMSCRIPTEN__)

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/http_client.hpp"
#include "support/subprocess.hpp"

namespace {

namespace fs = std::filesystem;
using enygma::test::Child;
using enygma::test::http_request;
using enygma::test::HttpResponse;
using enygma::test::metric;
using enygma::test::read_all;
using enygma::test::TempDir;
using namespace std::chrono_literals;

const char* kHaproxy = "/usr/sbin/haproxy";

std::string cluster_script() {
  return std::string(ENYGMA_SOURCE_DIR).append("/scripts/cluster.sh");
}

// n distinct free loopback ports (held open together while picked, then released).
std::vector<unsigned short> free_ports(size_t n) {
  boost::asio::io_context ioc;
  std::vector<std::unique_ptr<boost::asio::ip::tcp::acceptor>> held;
  std::vector<unsigned short> ports;
  for (size_t i = 0; i < n; ++i) {
    held.push_back(std::make_unique<boost::asio::ip::tcp::acceptor>(
        ioc, boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0)));
    ports.push_back(held.back()->local_endpoint().port());
  }
  return ports;
}

const std::string kProved =
    R"(enygma_http_requests_total{endpoint="generateProofTransfer",status="200"})";

double proved(unsigned short port) {
  return std::max(0.0, metric(port, kProved));
}

// Polls every 20 ms (test::wait_for: the cluster's metrics and health checks).
bool wait_for(const std::function<bool()>& condition, std::chrono::milliseconds within) {
  return enygma::test::wait_for(condition, within, 20ms);
}

// Where a process's threads are (gdb's backtraces), for the report of a hang; gdb may be absent.
std::string threads_of(pid_t pid) {
  Child gdb("/bin/sh",
            {"-c",
             "command -v gdb >/dev/null || { echo 'no gdb: no backtraces'; exit 0; }; "
             "exec gdb -p " +
                 std::to_string(pid) + " -batch -nx -ex 'thread apply all bt' 2>&1 | tail -n 300"},
            {});
  const auto result = gdb.wait(60s);
  return "its threads:\n" + result.out;
}

enygma::test::RunResult run_cluster_script(const std::vector<std::string>& args) {
  Child script(cluster_script(), args, {});
  return script.wait(120s);
}

// Whether a process has ended (gone, or a zombie not yet reaped by its new parent).
bool process_ended(pid_t pid) {
  std::istringstream stat(read_all("/proc/" + std::to_string(pid) + "/stat"));
  std::string id, name, state;
  stat >> id >> name >> state;  // (the name has no space: haproxy, enygma, sleep)
  return state.empty() || state == "Z";
}

// Tests that run haproxy: skipped without it, or failed where make test requires it.
class HaproxyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kHaproxy)) {
      // make test sets ENYGMA_TESTS_REQUIRE_TOOLS=1 (setup installs haproxy): a failure there
      const char* require = std::getenv("ENYGMA_TESTS_REQUIRE_TOOLS");
      if (require && std::string(require) == "1") FAIL() << "haproxy is not installed";
      GTEST_SKIP() << "haproxy is not installed (apt-get install haproxy)";
    }
  }
};

class ClusterTest : public HaproxyTest {
 protected:
  static constexpr int kProveMs = 300;
  // The fake backend's time per proof (--fake-prove-time).
  virtual int prove_ms() const { return kProveMs; }

  void SetUp() override {
    HaproxyTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    auto ports = free_ports(2);
    lb_port_ = ports[0];
    stats_port_ = ports[1];
    auto start = cluster(start_args());
    ASSERT_EQ(start.exit_code, 0) << start.out << start.err;
    started_ = true;
    for (int i = 1; i <= 2; ++i) {
      instance_ports_.push_back(static_cast<unsigned short>(
          std::stoi(read_all(run_dir() + "/instance-" + std::to_string(i) + ".port"))));
    }
  }

  std::vector<std::string> start_args() {
    return {"start",
            "--instances",
            "2",
            "--lb-port",
            std::to_string(lb_port_),
            "--stats-port",
            std::to_string(stats_port_),
            "--first-port",
            "0",
            "--bin",
            enygma::test::enygma_binary().string(),
            "--dir",
            run_dir(),
            "--",
            "--backend",
            "fake",
            "--k",
            "2-6",
            "--fake-prove-time",
            std::to_string(prove_ms()) + "ms",
            "--max-inflight",
            "1",
            "--queue",
            "4"};
  }

  void TearDown() override {
    if (!started_) return;
    auto stop = cluster({"stop", "--dir", run_dir()});
    EXPECT_EQ(stop.exit_code, 0) << stop.out << stop.err;
    // Everything is gone: the balancer's port and every instance's port refuse connections.
    EXPECT_FALSE(enygma::test::HttpConnection(lb_port_, 1s).connected());
    for (auto port : instance_ports_) {
      EXPECT_FALSE(enygma::test::HttpConnection(port, 1s).connected());
    }
  }

  enygma::test::RunResult cluster(const std::vector<std::string>& args) {
    return run_cluster_script(args);
  }

  std::string run_dir() const { return (dir_.path() / "cluster").string(); }
  std::string lb_url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(lb_port_) + path;
  }
  pid_t instance_pid(int i) const {
    return std::stoi(read_all(run_dir() + "/instance-" + std::to_string(i) + ".pid"));
  }
  std::string request_file() {
    const std::string path = dir_ / "request.json";
    std::ofstream(path) << R"({"sender_id": "1"})";
    return path;
  }
  // `enygma-load` through the balancer, in the background.
  std::unique_ptr<Child> start_load(unsigned clients, double seconds) {
    return std::make_unique<Child>(
        enygma::test::load_binary().string(),
        std::vector<std::string>{"--url", lb_url("/generateProofTransfer-2"), "--body",
                                 request_file(), "--concurrency", std::to_string(clients),
                                 "--seconds", std::to_string(seconds), "--timeout", "30"},
        std::vector<std::string>{});
  }
  // Whether the balancer's statistics (CSV: proxy, server, ..., status in column 17) show
  // both instances UP: a health check that timed out on a busy machine takes one out for a
  // moment, and the balancer then has nowhere to retry a 503.
  bool both_instances_up() {
    std::istringstream csv(http_request(stats_port_, "GET", "/;csv").body);
    int up = 0;
    for (std::string line; std::getline(csv, line);) {
      if (line.rfind("provers,enygma", 0) != 0) continue;
      std::istringstream fields(line);
      std::string field;
      for (int column = 0; column <= 17; ++column) std::getline(fields, field, ',');
      up += field.rfind("UP", 0) == 0;
    }
    return up == 2;
  }
  static nlohmann::json report_of(Child& load) {
    EXPECT_NE(load.wait_exit(60s), -1);
    auto report = nlohmann::json::parse(load.out(), nullptr, false);
    EXPECT_TRUE(report.is_object()) << load.out() << load.err();
    return report;
  }

  TempDir dir_;
  bool started_ = false;
  unsigned short lb_port_ = 0, stats_port_ = 0;
  std::vector<unsigned short> instance_ports_;
};

TEST_F(ClusterTest, BothInstancesReceiveWorkUnderLoad) {
  auto load = start_load(4, 3);
  auto report = report_of(*load);
  EXPECT_EQ(report["failures"], 0) << report.dump();
  EXPECT_GE(report["ok"].get<int>(), 10) << report.dump();
  const double first = proved(instance_ports_[0]), second = proved(instance_ports_[1]);
  printf(
      "2 instances, fake %d ms proofs, 4 clients: %.2f proofs/s; instance 1: %.0f, "
      "instance 2: %.0f\n",
      kProveMs, report["throughput_rps"].get<double>(), first, second);
  EXPECT_GE(first, 3);
  EXPECT_GE(second, 3);
  EXPECT_EQ(first + second, report["ok"].get<double>());
  // The balancer's answers keep the server's headers (COOP/COEP for the web demo).
  HttpResponse page = http_request(lb_port_, "GET", "/healthcheck");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.header("cross-origin-embedder-policy"), "require-corp");
  // Per-instance metrics are not served through the balancer, however the path is encoded
  // (the instances decode %xx before routing).
  EXPECT_EQ(http_request(lb_port_, "GET", "/metrics").status, 404);
  for (const char* encoded : {"/%6Detrics", "/%6detrics", "/metric%73", "/%6D%65%74%72%69%63%73"}) {
    EXPECT_EQ(http_request(lb_port_, "GET", encoded).status, 404) << encoded;
  }
  // The statistics page lists both instances UP.
  const std::string csv = http_request(stats_port_, "GET", "/;csv").body;
  EXPECT_NE(csv.find("provers,enygma1,"), std::string::npos) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n') > 3, true);
}

// Instance 1 is full (1 running + 4 queued) only until its first proof ends; the requests
// through the balancer must come in that time (health checks time out on a busy 2-core machine):
// 1.5 s per proof instead of 0.3 s, so that a slow moment does not leave instance 1 a free slot,
// which would then take one of them.
class SlowClusterTest : public ClusterTest {
 protected:
  int prove_ms() const override { return 1500; }
};

TEST_F(SlowClusterTest, OverloadedInstanceIsSkippedThrough503Retries) {
  // Fill instance 1 directly (1 running + 4 queued: the balancer does not see these), then
  // send requests through the balancer: those it gives to instance 1 are refused with 503 and
  // retried on instance 2; the client sees only 200s.
  // Both instances up before instance 1 is filled (the wait for a health check is not spent in
  // the time instance 1 stays full), and still up once it is.
  ASSERT_TRUE(wait_for([&] { return both_instances_up(); }, 10s));
  std::vector<std::thread> fillers;
  std::vector<HttpResponse> direct(5);
  for (int i = 0; i < 5; ++i) {
    fillers.emplace_back([&, i] {
      direct[i] = http_request(instance_ports_[0], "POST", "/generateProofTransfer-2", "{}");
    });
  }
  ASSERT_TRUE(
      wait_for([&] { return metric(instance_ports_[0], "enygma_proof_queue_depth") == 4; }, 5s));
  ASSERT_TRUE(wait_for([&] { return both_instances_up(); }, 10s));
  const double survivor_before = proved(instance_ports_[1]);
  std::vector<HttpResponse> through(2);
  std::vector<std::thread> clients;
  for (int i = 0; i < 2; ++i) {
    clients.emplace_back(
        [&, i] { through[i] = http_request(lb_port_, "POST", "/generateProofTransfer-3", "{}"); });
  }
  for (auto& t : clients) t.join();
  for (auto& t : fillers) t.join();
  for (const auto& r : through) EXPECT_EQ(r.status, 200) << r.error << r.body;
  for (const auto& r : direct) EXPECT_EQ(r.status, 200) << r.error << r.body;
  // Both were proved by instance 2. Usually the balancer gives one of them to instance 1 first
  // (leastconn sees both idle), which refuses it with 503, and the balancer retries it on instance
  // 2; in some runs (CI, 2 cores) it gave both to instance 2 at once. Either way the overloaded
  // instance takes none of them and the client sees only 200s.
  EXPECT_EQ(proved(instance_ports_[1]) - survivor_before, 2);
  EXPECT_EQ(metric(instance_ports_[1], "enygma_rejected_total"), 0);
  std::printf("overloaded instance 1: %.0f request(s) refused with 503 and retried\n",
              metric(instance_ports_[0], "enygma_rejected_total"));
}

TEST_F(ClusterTest, SigkilledInstanceLosesNoRequestAndRejoinsAfterReadyz) {
  constexpr double kSeconds = 6;
  auto load = start_load(4, kSeconds);
  ASSERT_TRUE(wait_for([&] { return proved(instance_ports_[0]) >= 2; }, 5s));
  const auto killed_at = std::chrono::steady_clock::now();
  const double survivor_before = proved(instance_ports_[1]);
  ASSERT_EQ(kill(instance_pid(1), SIGKILL), 0);
  auto report = report_of(*load);
  const double after_kill_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - killed_at).count();
  const double survivor_proofs = proved(instance_ports_[1]) - survivor_before;
  printf(
      "after SIGKILL of instance 1: survivor proved %.0f in %.1f s (%.2f proofs/s; fake %d ms "
      "proofs, 1 in flight); whole run: %.2f proofs/s, %d failures\n",
      survivor_proofs, after_kill_s, survivor_proofs / after_kill_s, kProveMs,
      report["throughput_rps"].get<double>(), report["failures"].get<int>());
  // The requests in flight on the killed instance were replayed on the survivor.
  EXPECT_EQ(report["failures"], 0) << report.dump();
  EXPECT_EQ(report["status"].size(), 1u) << report.dump();
  EXPECT_GT(survivor_proofs, 0);

  // Restarted on its port, it is back in rotation only after /readyz answered the balancer's
  // checks (rise 2): in its access log, the first proof comes after two 200s from /readyz.
  auto restart = cluster({"restart-instance", "1", "--dir", run_dir()});
  ASSERT_EQ(restart.exit_code, 0) << restart.out << restart.err;
  const std::string log_path = run_dir() + "/instance-1.log";
  auto load2 = start_load(4, 3);
  auto report2 = report_of(*load2);
  EXPECT_EQ(report2["failures"], 0) << report2.dump();
  ASSERT_GE(proved(instance_ports_[0]), 1) << "the restarted instance got no work";
  int ready_answers = 0;
  bool saw_proof = false;
  std::istringstream lines(read_all(log_path));
  std::string line;
  while (std::getline(lines, line)) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("path")) continue;
    if (j["path"] == "/readyz" && j["status"] == 200) ++ready_answers;
    if (j["path"] == "/generateProofTransfer-2") {
      saw_proof = true;
      EXPECT_GE(ready_answers, 2) << "a proof reached the instance before its readiness checks";
      break;
    }
  }
  EXPECT_TRUE(saw_proof);
}

TEST_F(ClusterTest, GracefulStopOfOneInstanceUnderLoadLosesNothing) {
  auto load = start_load(4, 4);
  ASSERT_TRUE(wait_for([&] { return proved(instance_ports_[1]) >= 2; }, 5s));
  ASSERT_EQ(kill(instance_pid(2), SIGTERM), 0);
  const auto signalled_at = std::chrono::steady_clock::now();
  // It drains (finishes its admitted proofs, at most 5 of 300 ms) and stops while the load
  // still runs. (Generous limits: both cores may be busy with other tests.)
  EXPECT_TRUE(wait_for(
      [&] { return !enygma::test::HttpConnection(instance_ports_[1], 1s).connected(); }, 30s));
  const bool stopped = wait_for(
      [&] {
        return read_all(run_dir() + "/instance-2.log").find("\"event\":\"stopped\"") !=
               std::string::npos;
      },
      30s);
  printf("instance 2 logged 'stopped' %.2f s after its SIGTERM\n",
         std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled_at).count());
  // On failure, what the instance said (its access log and events, its standard error) and
  // whether it still runs: a drain that hangs and a crash read differently.
  if (!stopped) {
    const bool runs = kill(instance_pid(2), 0) == 0;
    ADD_FAILURE() << "instance 2 did not log 'stopped' and " << (runs ? "still runs" : "is gone")
                  << "; its log:\n"
                  << read_all(run_dir() + "/instance-2.log") << "\nits stderr:\n"
                  << read_all(run_dir() + "/instance-2.err") << "\n"
                  << (runs ? threads_of(instance_pid(2)) : "");
  }
  // The balancer sent what instance 2 refused or dropped while draining to instance 1.
  auto report = report_of(*load);
  EXPECT_EQ(report["failures"], 0) << report.dump();
}

// Bug: start checked only the balancer's pid file: with the balancer gone and the instances
// running, a new start overwrote their pid files, and stop no longer reached them. (TearDown's
// stop must still reach them: their ports close.)
TEST_F(ClusterTest, StartIsRefusedWhileAnInstanceOfTheFolderRuns) {
  const pid_t balancer = std::stoi(read_all(run_dir() + "/haproxy.pid"));
  ASSERT_EQ(kill(balancer, SIGTERM), 0);
  ASSERT_TRUE(wait_for([&] { return process_ended(balancer); }, 10s));
  const pid_t first = instance_pid(1), second = instance_pid(2);
  auto again = cluster(start_args());
  EXPECT_EQ(again.exit_code, 1) << again.out << again.err;
  EXPECT_NE(again.err.find("a cluster is already running in " + run_dir()), std::string::npos)
      << again.err;
  EXPECT_EQ(instance_pid(1), first);
  EXPECT_EQ(instance_pid(2), second);
  EXPECT_FALSE(process_ended(first));
  EXPECT_FALSE(process_ended(second));
}

// Bug: HAProxy's maxconn per instance was max-inflight + queue as the script guessed them (nproc,
// which counts only the cores the script may run on; the server counts every core). Now it is
// what the instance reports in its "event":"config" line. Run on one core (taskset) with the
// server's defaults, where the two counts differ on a machine of several cores.
TEST_F(HaproxyTest, ServerMaxconnIsWhatTheInstancesReport) {
  if (!fs::exists("/usr/bin/taskset")) GTEST_SKIP() << "no taskset";
  // (on one core nproc under taskset is the server's count too: the test would tell nothing)
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one core";
  TempDir dir;
  const std::string run = (dir.path() / "run").string();
  const auto ports = free_ports(1);
  Child script("/usr/bin/taskset",
               {"-c", "0", cluster_script(), "start", "--instances", "1", "--lb-port",
                std::to_string(ports[0]), "--stats-port", "0", "--first-port", "0", "--bin",
                enygma::test::enygma_binary().string(), "--dir", run, "--", "--backend", "fake"},
               {});
  auto start = script.wait(120s);
  std::istringstream log(read_all(run + "/instance-1.log"));
  nlohmann::json config;
  for (std::string line; std::getline(log, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object() && j.value("event", "") == "config") config = j;
  }
  auto stop = run_cluster_script({"stop", "--dir", run});
  ASSERT_EQ(start.exit_code, 0) << start.out << start.err;
  EXPECT_EQ(stop.exit_code, 0) << stop.out << stop.err;
  ASSERT_TRUE(config.is_object()) << read_all(run + "/instance-1.log");
  const int capacity = config["max_inflight"].get<int>() + config["queue"].get<int>();
  EXPECT_NE(start.out.find("(maxconn " + std::to_string(capacity) + " each)"), std::string::npos)
      << start.out << "config: " << config.dump();
}

// Bug: HAProxy started without ENYGMA_LB_SERVER_MAXCONN (unset: no limit per instance, so
// requests bounced between full instances instead of waiting at the balancer).
TEST_F(HaproxyTest, ConfigurationRefusesToStartWithoutServerMaxconn) {
  const std::string config = std::string(ENYGMA_SOURCE_DIR) + "/deploy/haproxy/enygma.cfg";
  const auto ports = free_ports(2);
  const std::vector<std::string> binds = {
      "ENYGMA_LB_BIND=127.0.0.1:" + std::to_string(ports[0]),
      "ENYGMA_LB_STATS_BIND=127.0.0.1:" + std::to_string(ports[1])};
  struct Case {
    std::vector<std::string> extra;
    std::string alert;  // empty: accepted
  };
  for (const Case& c : {Case{{}, "ENYGMA_LB_SERVER_MAXCONN is not set"},
                        Case{{"ENYGMA_LB_SERVER_MAXCONN="}, "ENYGMA_LB_SERVER_MAXCONN is empty"},
                        Case{{"ENYGMA_LB_SERVER_MAXCONN=5"}, ""}}) {
    auto env = binds;
    env.insert(env.end(), c.extra.begin(), c.extra.end());
    Child check(kHaproxy, {"-c", "-f", config}, env);
    auto r = check.wait(30s);
    const std::string said = r.out + r.err;
    if (c.alert.empty()) {
      EXPECT_EQ(r.exit_code, 0) << said;
    } else {
      EXPECT_NE(r.exit_code, 0) << said;
      EXPECT_NE(said.find(c.alert), std::string::npos) << said;
    }
  }
}

// Bug: a missing value ("$2: unbound variable") and a bad --instances (abc; 0, which started
// HAProxy without servers and waited 20 s) exited 1, abc after making the run folder; --help
// left out the header's last line (and exited 2), which said SIGKILL after 60 s (it is 130 s).
// Every usage error: exit 2, one line saying what is wrong, then the usage; no run folder.
TEST(ClusterScript, UsageErrorsExitTwoAndLeaveNoRunFolder) {
  TempDir dir;
  const std::string run = (dir.path() / "run").string();
  const std::vector<std::string> common = {"start",
                                           "--dir",
                                           run,
                                           "--bin",
                                           enygma::test::enygma_binary().string(),
                                           "--stats-port",
                                           "0",
                                           "--lb-port",
                                           std::to_string(free_ports(1)[0])};
  struct Case {
    std::vector<std::string> args;
    std::string said;
  };
  for (const Case& c : {
           Case{{"--instances"}, "--instances needs a value"},
           Case{{"--instances", "abc"}, "--instances must be a whole number in 1..100, got 'abc'"},
           Case{{"--instances", "0"}, "--instances must be a whole number in 1..100, got '0'"},
           Case{{"--instances", "08"}, "--instances must be a whole number in 1..100"},
           Case{{"--lb-port", "65536"}, "--lb-port must be a whole number in 1..65535"},
           Case{{"--first-port", "65535"}, "--first-port must be a whole number in 0..65534"},
           Case{{"--server-maxconn", "x"}, "--server-maxconn must be a whole number in 1..1000000"},
       }) {
    auto args = common;
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto started = std::chrono::steady_clock::now();
    auto r = run_cluster_script(args);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 10s) << c.said;
    EXPECT_EQ(r.exit_code, 2) << c.said << ": " << r.err;
    EXPECT_EQ(r.err.rfind("cluster.sh: " + c.said, 0), 0u) << r.err;
    EXPECT_NE(r.err.find("Exit status: 0 done, 1 failure, 2 usage."), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(run)) << c.said;
  }
  for (const Case& c :
       {Case{{"status", "--dir"}, "--dir needs a value"},
        Case{{"frobnicate"}, "unknown command frobnicate"}, Case{{}, "a command is needed"}}) {
    auto r = run_cluster_script(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.said << ": " << r.err;
    EXPECT_EQ(r.err.rfind("cluster.sh: " + c.said, 0), 0u) << r.err;
  }
  auto help = run_cluster_script({"--help"});
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_EQ(help.out.rfind("A local cluster: N `enygma serve` instances", 0), 0u) << help.out;
  EXPECT_NE(help.out.find("after 130 s"), std::string::npos) << help.out;
  EXPECT_EQ(help.out.find("60 s"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("Exit status: 0 done, 1 failure, 2 usage.\n"), std::string::npos)
      << help.out;
  EXPECT_EQ(help.out.find("set -euo"), std::string::npos) << help.out;
}

// Bug: stop and status trusted the pid files: one left by a process that ended may name another
// process by now, which stop signalled. Here the pid files of a folder name a `sleep`.
TEST(ClusterScript, StopAndStatusLeaveAnotherProgramOfAStalePidFileAlone) {
  TempDir dir;
  const fs::path run = dir.path() / "run";
  fs::create_directories(run);
  Child sleeper("/bin/sleep", {"60"}, {});
  ASSERT_TRUE(sleeper.started());
  for (const char* name : {"haproxy.pid", "instance-1.pid"}) {
    std::ofstream(run / name) << sleeper.pid() << "\n";
  }
  std::ofstream(run / "instance-1.port") << "3101\n";
  std::ofstream(run / "bin") << enygma::test::enygma_binary().string() << "\n";
  auto status = run_cluster_script({"status", "--dir", run.string()});
  EXPECT_EQ(status.exit_code, 0) << status.err;
  EXPECT_NE(status.out.find("balancer: not running"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("instance 1: port 3101, stopped"), std::string::npos) << status.out;
  auto stop = run_cluster_script({"stop", "--dir", run.string()});
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
  EXPECT_TRUE(sleeper.running()) << "stop signalled the process of a stale pid file";
  EXPECT_FALSE(fs::exists(run / "haproxy.pid"));
  EXPECT_FALSE(fs::exists(run / "instance-1.pid"));
}

}  // namespace

#else  // __EMSCRIPTEN__

TEST(ClusterTest, NativeOnly) {
  GTEST_SKIP() << "the cluster test runs native processes";
}

#endif
