// Shared by the fuzz targets: invariant checks that abort (so libFuzzer and the replay runner
// both report them), and the fixed data the targets check decoded values against.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/groth16/proof_format.hpp"
#include "core/groth16/verifier.hpp"

// A property every input must keep; its failure is a finding like a crash.
#define FUZZ_CHECK(cond)                                                                 \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      abort();                                                                           \
    }                                                                                    \
  } while (0)

namespace enygma::fuzz {

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A file of the repository (test fixtures); a missing fixture is a broken build, not an input.
inline std::vector<uint8_t> read_source_file(const std::string& relative_path) {
  const std::string path = std::string(ENYGMA_SOURCE_DIR) + "/" + relative_path;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    fprintf(stderr, "fuzz target: cannot read fixture %s\n", path.c_str());
    abort();
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string read_source_text(const std::string& relative_path) {
  auto bytes = read_source_file(relative_path);
  return {bytes.begin(), bytes.end()};
}

// The real snarkjs ceremony of tests/interop/fixtures (a tiny circuit, 2 public inputs): its
// verifying key, one valid proof and its public inputs. Proof decoders are fuzzed into a full
// verification against this key.
struct ProofFixture {
  PreparedVerifyingKey pvk;
  Proof proof;
  std::vector<Fr> public_inputs;
};

inline const ProofFixture& proof_fixture() {
  static const ProofFixture fixture = [] {
    const std::string dir = "tests/interop/fixtures/";
    auto vk = verifying_key_from_snarkjs_json(read_source_text(dir + "verification_key.json"));
    auto proof = proof_from_snarkjs_json(read_source_text(dir + "proof.json"));
    auto pub = public_from_snarkjs_json(read_source_text(dir + "public.json"));
    FUZZ_CHECK(vk.ok() && proof.ok() && pub.ok());
    ProofFixture f{prepare_verifying_key(*vk), *proof, *pub};
    FUZZ_CHECK(groth16_verify(f.pvk, f.proof, f.public_inputs).ok());
    return f;
  }();
  return fixture;
}

// Groth16 proofs are malleable only by rerandomisation (which needs the proof's discrete-log
// structure, out of a fuzzer's reach) and by (A, B, C) -> (-A, -B, C), since e(-A, -B) = e(A, B).
// So a proof a fuzzer makes verify for the fixture's statement must be one of these two.
inline bool is_fixture_proof_or_negation(const Proof& p) {
  const Proof& f = proof_fixture().proof;
  return p == f || (p.a == -f.a && p.b == -f.b && p.c == f.c);
}

// Verifies a decoded proof against the fixture key. Valid proofs must be the fixture's own
// (above) for the fixture's public inputs; anything else verifying would be a forgery.
inline void verify_against_fixture(const Proof& proof, std::span<const Fr> public_inputs) {
  const ProofFixture& f = proof_fixture();
  const bool valid = groth16_verify(f.pvk, proof, public_inputs).ok();
  if (!valid) return;
  FUZZ_CHECK(is_fixture_proof_or_negation(proof));
  FUZZ_CHECK(public_inputs.size() == f.public_inputs.size());
  for (size_t i = 0; i < public_inputs.size(); ++i) {
    FUZZ_CHECK(public_inputs[i] == f.public_inputs[i]);
  }
}

}  // namespace enygma::fuzz
