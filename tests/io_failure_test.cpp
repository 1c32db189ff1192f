// Failures that no file system here makes on demand: a sync, a rename or a stat that the system
// refuses. The enygma program runs with tests/support/fail_io_preload.c preloaded, which makes
// the calls named in FAIL_IO_CALLS fail with EIO. Each failure is exit 1 with an error naming the
// file (rule io), an output's old file stays as it was and no temporary file is left beside it.
//
// Native release builds only: the sanitizers' runtime must be the first library (the build
// makes the library: support/preloads.hpp).
#include <gtest/gtest.h>

#if !defined(__EMSCRIPTEN__)

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "support/preloads.hpp"
#include "support/subprocess.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

using test::TempDir;

using test::kFailIoLibrary;  // "" in sanitizer builds: the tests skip

// enygma with `args`, the calls in `calls` (comma-separated) failing.
test::RunResult run_failing(const std::string& calls, const std::vector<std::string>& args) {
  test::Child child(test::enygma_binary().string(), args,
                    {std::string("LD_PRELOAD=") + kFailIoLibrary, "FAIL_IO_CALLS=" + calls});
  return child.wait(std::chrono::seconds(120));
}

std::set<std::string> names_in(const std::filesystem::path& dir) {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    names.insert(e.path().filename().string());
  }
  return names;
}

std::string io_error(const std::string& what, const std::string& path) {
  return "{\"error\":\"" + what + " " + path +
         ": Input/output error\",\"rule\":\"io\",\"field\":\"" + path + "\"}\n";
}

#define SKIP_WITHOUT_LIBRARY() \
  if (!*kFailIoLibrary) GTEST_SKIP() << "sanitizer build: no library preloaded"

// A file written (an R1CS, a proof) whose sync or rename fails: the old file stays, a new one is
// not made, and its temporary file is removed.
TEST(IoFailure, AnOutputThatCannotBeSyncedOrRenamedLeavesTheOldFileAndNoTemporaryFile) {
  SKIP_WITHOUT_LIBRARY();
  TempDir keys;
  const test::RunResult setup = run_failing(
      "", {"setup", "--k", "2", "--out", keys.path().string(), "--insecure-seed", "io-failure"});
  ASSERT_EQ(setup.exit_code, 0) << setup.err;  // (the library loaded, nothing failing)
  for (const std::string call : {"fsync", "rename"}) {
    SCOPED_TRACE(call);
    TempDir dir;
    const std::string old_file = dir / "old.json";
    std::ofstream(old_file) << "old";
    for (const std::string& out : {old_file, dir / "new.json"}) {
      SCOPED_TRACE(out);
      const std::vector<std::vector<std::string>> commands = {
          {"export-r1cs", "--k", "2", "--out", out},
          {"prove", "--k", "2", "--keys", keys.path().string(), "--input",
           test::vector_path("transfer-k2.json"), "--out", out}};
      for (const auto& command : commands) {
        SCOPED_TRACE(command[0]);
        const test::RunResult r = run_failing(call, command);
        EXPECT_EQ(r.exit_code, 1) << r.err;
        EXPECT_EQ(r.err, io_error("cannot write", out));
        EXPECT_EQ(names_in(dir.path()), std::set<std::string>{"old.json"});
        EXPECT_EQ(test::read_all(old_file), "old");
      }
    }
  }
  // The same commands write their files where nothing fails.
  TempDir dir;
  const test::RunResult r = run_failing("", {"export-r1cs", "--k", "2", "--out", dir / "r.r1cs"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(names_in(dir.path()), std::set<std::string>{"r.r1cs"});
}

// Keys whose files cannot be synced or renamed: setup fails naming a key file; no key file and
// no temporary file is left in the folder.
TEST(IoFailure, SetupThatCannotWriteItsKeysLeavesNoKeyFile) {
  SKIP_WITHOUT_LIBRARY();
  for (const std::string call : {"fsync", "rename"}) {
    SCOPED_TRACE(call);
    TempDir dir;
    const std::string keys = dir / "keys";
    const test::RunResult r =
        run_failing(call, {"setup", "--k", "2", "--out", keys, "--insecure-seed", "io-failure"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const std::regex named("\\{\"error\":\"cannot write " + keys +
                           "/transfer-k2\\.(pk|vk): Input/output error\",\"rule\":\"io\"");
    EXPECT_TRUE(std::regex_search(r.err, named)) << r.err;
    EXPECT_TRUE(!std::filesystem::exists(keys) || names_in(keys).empty()) << r.err;
  }
}

// A file that cannot be stated once opened (a request, a key file): exit 1 naming it, for a
// command and for the server's start.
TEST(IoFailure, AFileThatCannotBeStatedIsAnErrorNamingIt) {
  SKIP_WITHOUT_LIBRARY();
  TempDir keys;
  ASSERT_EQ(run_failing("", {"setup", "--k", "2", "--out", keys.path().string(), "--insecure-seed",
                             "io-failure"})
                .exit_code,
            0);
  TempDir dir;
  const std::string input = test::vector_path("transfer-k2.json");
  const test::RunResult prove =
      run_failing("fstat", {"prove", "--k", "2", "--keys", keys.path().string(), "--input", input,
                            "--out", dir / "p.json"});
  EXPECT_EQ(prove.exit_code, 1) << prove.err;
  EXPECT_EQ(prove.err, io_error("cannot stat", input));
  EXPECT_TRUE(names_in(dir.path()).empty());
  const test::RunResult serve =
      run_failing("fstat", {"serve", "--keys", keys.path().string(), "--port", "0"});
  EXPECT_EQ(serve.exit_code, 1) << serve.err;
  EXPECT_NE(serve.err.find("enygma serve: cannot start: cannot stat " + (keys / "transfer-k2.vk") +
                           ": Input/output error"),
            std::string::npos)
      << serve.err;
}

}  // namespace
}  // namespace enygma

#endif  // !defined(__EMSCRIPTEN__)
