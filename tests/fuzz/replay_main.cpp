// A plain main for the fuzz targets (any compiler): runs LLVMFuzzerTestOneInput once on every
// file given, and on every file under every folder given (a missing folder is skipped: a target
// without regressions has no regressions/<name>/). CTest runs it over the seed corpus and the
// kept inputs of fixed findings; a crash or a failed invariant (abort) fails the test.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const fs::path arg = argv[i];
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      for (const auto& entry : fs::recursive_directory_iterator(arg)) {
        if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') {
          files.push_back(entry.path());
        }
      }
    } else if (fs::is_regular_file(arg, ec)) {
      files.push_back(arg);
    } else {
      fprintf(stderr, "(skipping %s: no such file or folder)\n", argv[i]);
    }
  }
  std::sort(files.begin(), files.end());  // the same order on every run
  for (const auto& file : files) {
    const std::vector<uint8_t> bytes = read_bytes(file);
    fprintf(stderr, "running %s (%zu bytes)\n", file.c_str(), bytes.size());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
  printf("replayed %zu inputs\n", files.size());
  return files.empty() ? 1 : 0;  // no input at all means a wrong path, not a pass
}
