// Running the enygma binary from tests (native only): arguments in, exit code and captured
// stdout/stderr out, with a deadline so a hanging command fails the test instead of blocking it.
#pragma once

#if !defined(__EMSCRIPTEN__)

#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace enygma::test {

// <build>/bin/enygma, found from this test program's path (<build>/tests/<name>).
inline std::filesystem::path enygma_binary() {
  return std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() / "bin" /
         "enygma";
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

inline std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline RunResult run_enygma(const std::vector<std::string>& args,
                            std::chrono::seconds deadline = std::chrono::seconds(300)) {
  TempDir io;
  const std::string out = io / "stdout", err = io / "stderr";
  std::vector<std::string> full = {enygma_binary().string()};
  full.insert(full.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : full) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid;
  RunResult r;
  int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return r;
  auto until = std::chrono::steady_clock::now() + deadline;
  int status = 0;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (std::chrono::steady_clock::now() > until) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.out = read_all(out);
      r.err = read_all(err) + "\n[killed at the test deadline]";
      return r;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_all(out);
  r.err = read_all(err);
  return r;
}

}  // namespace enygma::test

#endif
