// Fuzz target: snarkjs's JSON files. The input is tried as a proof.json (verified with the
// fixture's public inputs), as a public.json (verified with the fixture's proof) and as a
// verification_key.json (which, when it parses, must print and re-parse to the same key, and,
// when its points pass the checks, is then used to verify the fixture proof. Its answer is not
// checked: other keys accept that proof too, e.g. alpha and beta both negated, or gamma and
// every IC point negated, since e(-P, -Q) = e(P, Q); the fixture key's own proofs are checked by
// the two other parts).
#include <cstdint>

#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace enygma;

bool same_keys(const VerifyingKey& a, const VerifyingKey& b) {
  return a.num_public == b.num_public && a.alpha1 == b.alpha1 && a.beta2 == b.beta2 &&
         a.gamma2 == b.gamma2 && a.delta2 == b.delta2 && a.ic == b.ic;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto& fixture = fuzz::proof_fixture();
  const std::string_view text = fuzz::as_text(data, size);

  if (auto proof = proof_from_snarkjs_json(text); proof.ok()) {
    auto again = proof_from_snarkjs_json(proof_to_snarkjs_json(*proof));
    FUZZ_CHECK(again.ok() && *again == *proof);
    fuzz::verify_against_fixture(*proof, fixture.public_inputs);
  }

  if (auto pub = public_from_snarkjs_json(text); pub.ok()) {
    auto again = public_from_snarkjs_json(public_to_snarkjs_json(*pub));
    FUZZ_CHECK(again.ok() && *again == *pub);
    fuzz::verify_against_fixture(fixture.proof, *pub);
  }

  if (auto vk = verifying_key_from_snarkjs_json(text); vk.ok()) {
    auto again = verifying_key_from_snarkjs_json(verifying_key_to_snarkjs_json(*vk));
    FUZZ_CHECK(again.ok() && same_keys(*again, *vk));
    if (validate_verifying_key_points(*vk).ok()) {
      const PreparedVerifyingKey pvk = prepare_verifying_key(*vk);
      (void)groth16_verify(pvk, fixture.proof, fixture.public_inputs);
    }
  }
  return 0;
}
