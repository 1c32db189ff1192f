// Fuzz target: the 128-byte binary proof (proof_from_bytes), then verification against the
// fixture key and statement (tests/interop/fixtures).
// Invariants: a decoded proof re-encodes to the same bytes (one encoding per proof), its
// points pass validate_proof_points, and it verifies only if it is the fixture's proof or its
// (-A, -B, C) twin.
#include <cstdint>
#include <cstring>

#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace enygma;
  const auto& fixture = fuzz::proof_fixture();
  auto proof = proof_from_bytes({data, size});
  if (!proof) {
    FUZZ_CHECK(proof.error().rule == "proof" && !proof.error().message.empty());
    return 0;
  }
  FUZZ_CHECK(size == kProofBytes);
  const auto encoded = proof_to_bytes(*proof);
  FUZZ_CHECK(memcmp(encoded.data(), data, kProofBytes) == 0);
  FUZZ_CHECK(validate_proof_points(*proof).ok());
  fuzz::verify_against_fixture(*proof, fixture.public_inputs);
  return 0;
}
