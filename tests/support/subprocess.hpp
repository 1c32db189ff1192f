// Running the enygma binary from tests (native only): arguments in, exit code and captured
// stdout/stderr out, with a deadline so a hanging command fails the test instead of blocking it.
#pragma once

#if !defined(__EMSCRIPTEN__)

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace enygma::test {

// <build>/bin/<name> (enygma, enygma-load), found from this test program's path
// (<build>/tests/<test>).
inline std::filesystem::path build_binary(const char* name) {
  return std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() / "bin" / name;
}
inline std::filesystem::path enygma_binary() {
  return build_binary("enygma");
}
inline std::filesystem::path load_binary() {
  return build_binary("enygma-load");
}

// A fresh empty folder under the system temp dir, removed when the object goes.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "enygma-test-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

struct RunResult {
  int exit_code = -1;  // -1: killed at the deadline or failed to start
  std::string out, err;
};

// Polls `condition` every `step` until it holds (true) or `within` has passed (false): for a
// state of another process (a server's metric, its memory) that comes in its own time.
inline bool wait_for(const std::function<bool()>& condition, std::chrono::milliseconds within,
                     std::chrono::milliseconds step = std::chrono::milliseconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(step);
  }
  return false;
}

inline std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The port in the "listening" event that `enygma serve` prints on stdout, once `out` holds it.
inline std::optional<unsigned short> listening_port(const std::string& out) {
  static const std::regex listening(R"re("event":"listening".*"port":([0-9]+))re");
  std::smatch m;
  if (!std::regex_search(out, m, listening)) return std::nullopt;
  return static_cast<unsigned short>(std::stoi(m[1]));
}

// A running enygma process, for tests that act on it while it runs (kill it at a chosen moment,
// read its partial output). The destructor kills and reaps a process still running.
class Child {
 public:
  // stdin_path: a file for its standard input (otherwise the test's own).
  explicit Child(const std::vector<std::string>& args, const std::string& stdin_path = {}) {
    std::vector<std::string> full = {enygma_binary().string()};
    full.insert(full.end(), args.begin(), args.end());
    std::vector<char*> envp;
    for (char** e = environ; *e; ++e) envp.push_back(*e);
    envp.push_back(nullptr);
    spawn(full, envp, stdin_path);
  }
  // Any program (a path; argv[0] is the program itself), with extra "NAME=value" environment
  // entries. Inherited ENYGMA_* variables are dropped so that a developer's shell cannot change
  // what a test configures; env_extra may set them.
  Child(const std::string& program, const std::vector<std::string>& args,
        const std::vector<std::string>& env_extra) {
    std::vector<std::string> full = {program};
    full.insert(full.end(), args.begin(), args.end());
    std::vector<std::string> env_text;
    for (char** e = environ; *e; ++e) {
      if (std::string(*e).rfind("ENYGMA_", 0) != 0) env_text.push_back(*e);
    }
    env_text.insert(env_text.end(), env_extra.begin(), env_extra.end());
    std::vector<char*> envp;
    for (auto& e : env_text) envp.push_back(e.data());
    envp.push_back(nullptr);
    spawn(full, envp);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (running()) kill_now();
  }

  bool started() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  // Reaps the process when it has ended.
  bool running() {
    if (pid_ <= 0 || reaped_) return false;
    if (waitpid(pid_, &status_, WNOHANG) == pid_) reaped_ = true;
    return !reaped_;
  }
  // Sends sig (SIGKILL by default) and reaps the process.
  void kill_now(int sig = SIGKILL) {
    if (pid_ <= 0 || reaped_) return;
    kill(pid_, sig);
    waitpid(pid_, &status_, 0);
    reaped_ = true;
  }
  // Waits for the end (killing it at the deadline, exit_code -1 then); the captured output.
  RunResult wait(std::chrono::seconds deadline = std::chrono::seconds(300)) {
    RunResult r;
    auto until = std::chrono::steady_clock::now() + deadline;
    while (running()) {
      if (std::chrono::steady_clock::now() > until) {
        kill_now();
        r.out = read_all(io_ / "stdout");
        r.err = read_all(io_ / "stderr") + "\n[killed at the test deadline]";
        return r;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (reaped_ && WIFEXITED(status_)) r.exit_code = WEXITSTATUS(status_);
    r.out = read_all(io_ / "stdout");
    r.err = read_all(io_ / "stderr");
    return r;
  }
  // The raw wait status once reaped (WIFSIGNALED / WTERMSIG for a killed process).
  int wait_status() const { return status_; }

  // Sends sig without waiting (e.g. SIGTERM, then wait_exit); never to a reaped process.
  void send_signal(int sig) {
    if (pid_ > 0 && !reaped_) kill(pid_, sig);
  }
  // Waits up to `within` for the end without killing: the exit code, 128 + the signal number
  // for a process ended by a signal, or -1 when still running.
  int wait_exit(std::chrono::milliseconds within) {
    const auto until = std::chrono::steady_clock::now() + within;
    while (running()) {
      if (std::chrono::steady_clock::now() > until) return -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!reaped_) return -1;
    return WIFEXITED(status_) ? WEXITSTATUS(status_) : 128 + WTERMSIG(status_);
  }
  // What the process has written so far.
  std::string out() const { return read_all(io_ / "stdout"); }
  std::string err() const { return read_all(io_ / "stderr"); }

 private:
  void spawn(std::vector<std::string>& full, std::vector<char*>& envp,
             const std::string& stdin_path = {}) {
    const std::string out = io_ / "stdout", err = io_ / "stderr";
    std::vector<char*> argv;
    for (auto& a : full) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!stdin_path.empty()) {
      posix_spawn_file_actions_addopen(&actions, 0, stdin_path.c_str(), O_RDONLY, 0);
    }
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), envp.data()) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
  }

  TempDir io_;
  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;
};

// Runs enygma with args to its end (killed at the deadline: exit_code -1); the captured output.
// stdin_path: a file for its standard input.
inline RunResult run_enygma(const std::vector<std::string>& args,
                            std::chrono::seconds deadline = std::chrono::seconds(300),
                            const std::string& stdin_path = {}) {
  Child child(args, stdin_path);
  if (!child.started()) return {};
  return child.wait(deadline);
}

}  // namespace enygma::test

#endif
