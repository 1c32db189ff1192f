// Fuzz target: circom's .wtns reader (core/r1cs/wtns_file.hpp).
// Invariant: what parses writes out and reads back to the same values.
#include <cstdint>

#include "core/r1cs/wtns_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace enygma;
  auto parsed = read_wtns_file({data, size});
  if (!parsed) {
    FUZZ_CHECK(!parsed.error().message.empty());
    return 0;
  }
  auto written = write_wtns_file(*parsed);
  auto reread = read_wtns_file(written);
  FUZZ_CHECK(reread.ok() && *reread == *parsed);
  return 0;
}
