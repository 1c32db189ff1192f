// Fuzz target: the reference service's proof JSON ({"pi_a", "pi_b", "pi_c", "public_signal"},
// proof_from_reference_json), then verification against the fixture key (tests/interop/fixtures).
// Invariants: what parses prints and re-parses to the same proof and public inputs; it
// verifies only as the fixture's own proof (or its (-A, -B, C) twin) for the fixture's inputs.
#include <cstdint>

#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace enygma;
  (void)fuzz::proof_fixture();
  auto parsed = proof_from_reference_json(fuzz::as_text(data, size));
  if (!parsed) {
    FUZZ_CHECK(!parsed.error().rule.empty() && !parsed.error().message.empty());
    return 0;
  }
  auto again =
      proof_from_reference_json(proof_to_reference_json(parsed->proof, parsed->public_inputs));
  FUZZ_CHECK(again.ok() && again->proof == parsed->proof &&
             again->public_inputs == parsed->public_inputs);
  // The reference format does not promise on-curve points: the verifier must refuse them.
  fuzz::verify_against_fixture(parsed->proof, parsed->public_inputs);
  return 0;
}
