// Failure injection: `enygma setup` killed with SIGKILL while it writes a key never leaves a half
// key under the key's name, nor one key of the pair without the other (native/common/file_io.cpp
// writes each to a temporary file, fsyncs them, then renames both), a partial temporary file is
// refused by the loader as truncated, and `enygma prove` then says which key is missing and how to
// make it. Native only (it runs the CLI); one k = 2 setup per attempt (~3-8 s), hence its own test
// program.
#include <gtest/gtest.h>

#if !defined(__EMSCRIPTEN__)

#include <poll.h>
#include <sys/inotify.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "core/groth16/key_format.hpp"
#include "support/subprocess.hpp"

namespace enygma {
namespace {

namespace fs = std::filesystem;

bool has_infix(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

std::vector<uint8_t> file_bytes(const fs::path& path) {
  const std::string s = test::read_all(path.string());
  return {s.begin(), s.end()};
}

// Runs `enygma setup --k 2` into dir and SIGKILLs it as soon as a file whose name contains
// `trigger` appears in dir (inotify: the kill lands while the writer is on that file). Returns
// whether the trigger was seen before setup ended by itself.
bool kill_setup_when_created(const std::string& dir, const std::string& trigger) {
  const int in = inotify_init1(IN_CLOEXEC);
  if (in < 0) return false;
  inotify_add_watch(in, dir.c_str(), IN_CREATE);
  test::Child setup({"setup", "--circuit", "transfer", "--k", "2", "--out", dir, "--threads", "2",
                     "--insecure-seed", "hardening-interrupt"});
  bool seen = false;
  alignas(inotify_event) char buf[4096];
  while (!seen && setup.running()) {
    pollfd p{in, POLLIN, 0};
    if (poll(&p, 1, 20) <= 0) continue;
    const ssize_t n = read(in, buf, sizeof buf);
    for (ssize_t off = 0; off < n;) {
      const auto* ev = reinterpret_cast<const inotify_event*>(buf + off);
      if (ev->len > 0 && has_infix(ev->name, trigger)) seen = true;
      off += ssize_t(sizeof(inotify_event) + ev->len);
    }
    if (seen) setup.kill_now(SIGKILL);
  }
  close(in);
  return seen;
}

// Every file under a key's final name loads completely; anything else is a temporary file.
void expect_only_whole_keys(const fs::path& dir) {
  const std::string name = std::string("enygma-transfer-k2");
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    const auto data = file_bytes(entry.path());
    if (file == "transfer-k2.pk") {
      auto pk = load_proving_key(data, name, sequential_pool());
      EXPECT_TRUE(pk.ok()) << file << ": " << pk.error().message;
    } else if (file == "transfer-k2.vk") {
      auto vk = load_verifying_key(data, name);
      EXPECT_TRUE(vk.ok()) << file << ": " << vk.error().message;
    } else {
      // <final name>.<16 hex digits>.tmp (core of native/common/file_io.cpp)
      EXPECT_TRUE(std::regex_match(file, std::regex(R"(transfer-k2\.(pk|vk)\.[0-9a-f]{16}\.tmp)")))
          << "unexpected file " << file;
    }
  }
}

TEST(HardeningSetupKill, SetupKilledWhileWritingTheProvingKeyLeavesNoHalfKey) {
  ASSERT_TRUE(fs::exists(test::enygma_binary())) << test::enygma_binary();
  // The kill lands while the proving key is written or flushed, before its rename; should the
  // writer still win the race, the attempt proves nothing and is repeated.
  bool interrupted = false;
  for (int attempt = 0; attempt < 3 && !interrupted; ++attempt) {
    test::TempDir dir;
    ASSERT_TRUE(kill_setup_when_created(dir.path().string(), "transfer-k2.pk."))
        << "setup ended before writing the proving key";
    expect_only_whole_keys(dir.path());
    if (fs::exists(dir / "transfer-k2.pk")) continue;  // renamed before the kill arrived
    interrupted = true;
    // A partial temporary file is refused as truncated (were it ever renamed by hand). It may
    // also be whole: the kill then came between the last write (or the flush to disk) and the
    // rename, and the key is still absent under its name, which is what counts.
    for (const auto& entry : fs::directory_iterator(dir.path())) {
      if (!has_infix(entry.path().filename().string(), "transfer-k2.pk.")) continue;
      auto pk = load_proving_key(file_bytes(entry.path()), std::string("enygma-transfer-k2"),
                                 sequential_pool());
      if (pk.ok()) continue;
      EXPECT_TRUE(has_infix(pk.error().message, "truncated") ||
                  has_infix(pk.error().message, "header"))
          << pk.error().message;
    }

    // The verifying key is not there either (its temporary file was whole, but the two are
    // renamed only once both are: a pair, or neither).
    EXPECT_FALSE(fs::exists(dir / "transfer-k2.vk"));
    // The CLI names the missing key and the command that makes it.
    auto prove =
        test::run_enygma({"prove", "--k", "2", "--keys", dir.path().string(), "--input",
                          std::string(ENYGMA_SHARED_DIR).append("/vectors/transfer-k2.json")},
                         std::chrono::seconds(120));
    EXPECT_NE(prove.exit_code, 0);
    EXPECT_TRUE(has_infix(prove.err, "transfer-k2.vk")) << prove.err;
    EXPECT_TRUE(has_infix(prove.err, "enygma setup")) << prove.err;
  }
  EXPECT_TRUE(interrupted) << "no attempt killed setup in the middle of writing the proving key";
}

}  // namespace
}  // namespace enygma

#endif  // !__EMSCRIPTEN__
