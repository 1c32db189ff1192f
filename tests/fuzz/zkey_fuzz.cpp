// Fuzz target: snarkjs .zkey import (core/groth16/zkey_import.hpp) for the circuit of the
// snarkjs fixture (tests/interop/fixtures/circuit.r1cs), and the header-only read_zkey_info.
// Invariant: an imported key is self-consistent: its verifying key passes the point checks and
// the key pair has the circuit's shape.
#include <cstdint>

#include "core/groth16/verifier.hpp"
#include "core/groth16/zkey_import.hpp"
#include "core/r1cs/r1cs_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace enygma;
  static const R1cs r1cs = [] {
    auto f = read_r1cs_file(fuzz::read_source_file("tests/interop/fixtures/circuit.r1cs"));
    FUZZ_CHECK(f.ok());
    return f->r1cs;
  }();
  const std::span<const uint8_t> bytes(data, size);
  auto info = read_zkey_info(bytes);
  if (!info) FUZZ_CHECK(!info.error().message.empty());

  ZkeyImportOptions options;
  options.allow_no_contributions = size % 2 == 0;  // both policies, by the input's parity
  auto imported = import_zkey(bytes, r1cs, sequential_pool(), options);
  if (!imported) {
    FUZZ_CHECK(imported.error().rule == "zkey" && !imported.error().message.empty());
    return 0;
  }
  FUZZ_CHECK(info.ok());
  const Groth16Keys& keys = imported->keys;
  FUZZ_CHECK(validate_verifying_key_points(keys.vk).ok());
  FUZZ_CHECK(keys.vk.num_public == r1cs.num_public && keys.pk.num_wires == r1cs.num_wires);
  FUZZ_CHECK(keys.vk.ic.size() == size_t(r1cs.num_public) + 1);
  return 0;
}
