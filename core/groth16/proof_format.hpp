// Proof and verifying-key formats at the boundary:
// - the reference service's JSON: {"pi_a": [Ax, Ay], "pi_b": [[Bx.c1, Bx.c0], [By.c1, By.c0]],
//   "pi_c": [Cx, Cy], "public_signal": [...]} (decimal strings; G2 imaginary part first, the
//   Ethereum precompile order);
// - snarkjs's proof.json / public.json / verification_key.json (projective triples, G2 real
//   part first, curve "bn128");
// - a 128-byte binary proof: compressed A (32) || B (64) || C (32).
// Parsing is strict about the text: canonical coordinates below p, scalars below r; errors name
// the field ("pi_b[1][0]"). A proof's points are checked by the verifier (on the curve, B in the
// G2 subgroup: groth16_verify); a verifying key's here.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/groth16/keys.hpp"
#include "core/util/result.hpp"

namespace enygma {

// A JSON document as its refusals as a whole name it ("<name> is not valid JSON", "<name> must be
// a JSON object", "<name> is larger than ... bytes") and the field they name when none of its
// members is at fault. The server's request body is kRequestBody ("the body", no field); a file,
// its path and the option that names it; the browser module's argument, "response".
struct JsonDocument {
  std::string_view name;
  std::string_view field;
};
inline constexpr JsonDocument kRequestBody{"the body", ""};

struct ProofWithPublic {
  Proof proof;
  std::vector<Fr> public_inputs;
};

// Reference JSON.
std::string proof_to_reference_json(const Proof& proof, std::span<const Fr> public_inputs);
Result<ProofWithPublic> proof_from_reference_json(std::string_view json_text,
                                                  const JsonDocument& document = kRequestBody);

// snarkjs JSON.
std::string proof_to_snarkjs_json(const Proof& proof);
std::string public_to_snarkjs_json(std::span<const Fr> public_inputs);
std::string verifying_key_to_snarkjs_json(const VerifyingKey& vk);
Result<Proof> proof_from_snarkjs_json(std::string_view json_text,
                                      const JsonDocument& document = {"the proof", ""});
Result<std::vector<Fr>> public_from_snarkjs_json(std::string_view json_text,
                                                 const JsonDocument& document = {
                                                     "the public inputs' text", ""});
Result<VerifyingKey> verifying_key_from_snarkjs_json(std::string_view json_text,
                                                     const JsonDocument& document = {
                                                         "the verifying key", ""});

// 128-byte binary.
inline constexpr size_t kProofBytes = 128;
std::array<uint8_t, kProofBytes> proof_to_bytes(const Proof& proof);
Result<Proof> proof_from_bytes(std::span<const uint8_t> bytes);

// Checks every point of a proof from outside: on the curve, B in the G2 subgroup. The curve
// check alone, for a verifier that tells B's subgroup by its Miller-loop lines
// (prepare_g2_checked, meaningful only after the curve check has passed), and the refusal of
// a B outside the subgroup (ok when in_subgroup): the messages are the same.
Status validate_proof_points(const Proof& proof);
Status validate_proof_points_on_curve(const Proof& proof);
Status proof_b_subgroup_status(bool in_subgroup);

}  // namespace enygma
