// Fuzz target: circom's .r1cs reader (core/r1cs/r1cs_file.hpp).
// Invariants: what parses has every term's wire below num_wires (checked by evaluating every
// constraint on a small witness), and writing it out and reading it back is a fixed point
// after one round (the writer canonicalises terms).
#include <cstdint>
#include <vector>

#include "core/r1cs/r1cs_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace enygma;
  auto parsed = read_r1cs_file({data, size});
  if (!parsed) {
    FUZZ_CHECK(!parsed.error().message.empty());
    return 0;
  }
  const R1cs& r1cs = parsed->r1cs;
  FUZZ_CHECK(r1cs.num_wires >= 1 && r1cs.num_public < r1cs.num_wires);
  FUZZ_CHECK(r1cs.b.rows() == r1cs.a.rows() && r1cs.c.rows() == r1cs.a.rows());
  // A witness costs 32 bytes a wire: only for circuits whose wires the input could name.
  if (r1cs.num_wires <= (1u << 16)) {
    std::vector<Fr> witness(r1cs.num_wires, Fr::one());
    (void)r1cs.first_unsatisfied(witness);
  }
  R1csFileOptions options;
  options.num_private_inputs = parsed->num_private_inputs;
  options.wire_map = !parsed->wire_labels.empty();
  const std::vector<uint8_t> once = write_r1cs_file(r1cs, options);
  auto reread = read_r1cs_file(once);
  FUZZ_CHECK(reread.ok());
  FUZZ_CHECK(reread->r1cs.num_wires == r1cs.num_wires &&
             reread->r1cs.num_public == r1cs.num_public &&
             reread->r1cs.num_constraints() == r1cs.num_constraints());
  FUZZ_CHECK(write_r1cs_file(reread->r1cs, options) == once);
  return 0;
}
