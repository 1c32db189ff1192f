#include "core/registry/circuit_prover.hpp"

#include <sodium.h>

#include "core/groth16/key_format.hpp"
#include "core/groth16/proof_format.hpp"

namespace enygma {

namespace {

Error key_mismatch(const std::string& what, const CircuitId& circuit) {
  return make_error(what + " was made for another version of the " + circuit.str() +
                        " circuit (circuit digest differs); regenerate it",
                    "key");
}

void wipe(std::vector<Fr>& w) {
  if (!w.empty()) sodium_memzero(w.data(), w.size() * sizeof(Fr));
}

}  // namespace

Result<std::shared_ptr<const CircuitProver>> CircuitProver::load(
    const CircuitId& circuit, std::span<const uint8_t> pk_file, std::span<const uint8_t> vk_file,
    ThreadPool& pool, const CircuitLoadOptions& options) {
  auto step = [&](const char* name) {
    if (options.on_step) options.on_step(name);
  };
  auto prover = std::make_shared<CircuitProver>();
  prover->circuit_ = circuit;
  step("r1cs");
  prover->r1cs_ = &circuit_r1cs(circuit);
  const auto& digest = circuit_digest(circuit);
  const std::string name = circuit.key_name();

  step("verifying_key");
  auto vk = load_verifying_key(vk_file, name);
  if (!vk) return vk.error();
  if (vk->circuit_digest != digest || vk->num_public != prover->r1cs_->num_public) {
    return key_mismatch("the verifying key", circuit);
  }
  if (!pk_file.empty()) {
    step("proving_key");
    auto pk = load_proving_key(pk_file, name, pool);
    if (!pk) return pk.error();
    if (pk->circuit_digest != digest || pk->num_wires != prover->r1cs_->num_wires ||
        pk->num_public != prover->r1cs_->num_public) {
      return key_mismatch("the proving key", circuit);
    }
    prover->pk_ = std::move(*pk);
    prover->has_pk_ = true;
  }
  prover->vk_ = std::move(*vk);
  if (options.prepare_verifier) {
    step("verifier");
    prover->prepared();
  }
  return std::shared_ptr<const CircuitProver>(std::move(prover));
}

Result<CircuitProof> CircuitProver::prove_request(std::string_view request_json, ThreadPool& pool,
                                                  const ProveOptions& options) const {
  if (!has_pk_) return make_error("this instance has no proving key", "key");
  auto witness = circuit_.family->witness(request_json, circuit_.k);
  if (!witness) return witness.error();
  return prove_witness(std::move(*witness), pool, options);
}

Result<CircuitProof> CircuitProver::prove_witness(std::vector<Fr> witness, ThreadPool& pool,
                                                  const ProveOptions& options) const {
  if (!has_pk_) {
    wipe(witness);
    return make_error("this instance has no proving key", "key");
  }
  if (witness.size() != r1cs_->num_wires) {
    wipe(witness);
    return make_error("the witness has " + std::to_string(witness.size()) + " values, the " +
                          circuit_.str() + " circuit " + std::to_string(r1cs_->num_wires),
                      "input", "witness");
  }
  auto proof = groth16_prove(pk_, *r1cs_, witness, pool, options);
  CircuitProof out;
  // The public inputs are public: copied out before the witness is wiped.
  out.public_inputs.assign(witness.begin() + 1, witness.begin() + 1 + r1cs_->num_public);
  wipe(witness);
  if (!proof) return proof.error();
  out.proof = *proof;
  out.response_json = proof_to_reference_json(out.proof, out.public_inputs);
  return out;
}

Status CircuitProver::verify_response(std::string_view response_json, ThreadPool& pool) const {
  auto parsed = proof_from_reference_json(response_json);
  if (!parsed) return parsed.error();
  return verify(parsed->proof, parsed->public_inputs, pool);
}

const PreparedVerifyingKey& CircuitProver::prepared() const {
  std::call_once(pvk_once_, [this] { pvk_ = prepare_verifying_key(vk_); });
  return pvk_;
}

Status CircuitProver::verify(const Proof& proof, std::span<const Fr> public_inputs,
                             ThreadPool& pool) const {
  return groth16_verify(prepared(), proof, public_inputs, pool);
}

}  // namespace enygma
