#include "core/transfer/transfer_prover.hpp"

#include <sodium.h>

#include <map>
#include <mutex>

#include "core/groth16/key_format.hpp"
#include "core/groth16/proof_format.hpp"
#include "core/transfer/transfer_circuit.hpp"
#include "core/transfer/validate.hpp"

namespace enygma {

std::string transfer_circuit_name(unsigned k) { return "enygma-transfer-k" + std::to_string(k); }

namespace {

Error key_mismatch(const std::string& what, unsigned k) {
  return make_error(what + " was made for another version of the k=" + std::to_string(k) +
                        " transfer circuit (circuit digest differs); regenerate it",
                    "key");
}

// R1cs::digest hashes the whole constraint system: compute it once per k.
const std::array<uint8_t, 32>& transfer_r1cs_digest(unsigned k) {
  static std::mutex mu;
  static std::map<unsigned, std::array<uint8_t, 32>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(k);
  if (it == cache.end()) it = cache.emplace(k, transfer_r1cs(k).digest()).first;
  return it->second;
}

}  // namespace

Result<std::shared_ptr<const TransferProver>> TransferProver::load(
    unsigned k, std::span<const uint8_t> pk_file, std::span<const uint8_t> vk_file,
    ThreadPool& pool) {
  if (k < kMinK || k > kMaxK) {
    return make_error("unsupported anonymity-set size k=" + std::to_string(k) + " (supported: " +
                          std::to_string(kMinK) + ".." + std::to_string(kMaxK) + ")",
                      "input", "k");
  }
  auto prover = std::make_shared<TransferProver>();
  prover->k_ = k;
  prover->r1cs_ = &transfer_r1cs(k);
  const auto digest = transfer_r1cs_digest(k);
  const std::string name = transfer_circuit_name(k);

  auto vk = load_verifying_key(vk_file, name);
  if (!vk) return vk.error();
  if (vk->circuit_digest != digest || vk->num_public != prover->r1cs_->num_public) {
    return key_mismatch("the verifying key", k);
  }
  if (!pk_file.empty()) {
    auto pk = load_proving_key(pk_file, name, pool);
    if (!pk) return pk.error();
    if (pk->circuit_digest != digest || pk->num_wires != prover->r1cs_->num_wires ||
        pk->num_public != prover->r1cs_->num_public) {
      return key_mismatch("the proving key", k);
    }
    prover->pk_ = std::move(*pk);
    prover->has_pk_ = true;
  }
  prover->pvk_ = prepare_verifying_key(*vk);
  return std::shared_ptr<const TransferProver>(std::move(prover));
}

Result<TransferProof> TransferProver::prove_request(std::string_view request_json,
                                                    ThreadPool& pool,
                                                    const ProveOptions& options) const {
  auto req = parse_transfer_request(request_json, k_);
  if (!req) return req.error();
  return prove(*req, pool, options);
}

Result<TransferProof> TransferProver::prove(const TransferRequest& request, ThreadPool& pool,
                                            const ProveOptions& options) const {
  if (!has_pk_) return make_error("this instance has no proving key", "key");
  if (request.k != k_) {
    return make_error("request has k=" + std::to_string(request.k) + ", prover has k=" +
                          std::to_string(k_),
                      "input", "k");
  }
  if (auto valid = validate_transfer(request); !valid) return valid.error();
  std::vector<Fr> witness = transfer_witness(request);
  auto proof = groth16_prove(pk_, *r1cs_, witness, pool, options);
  sodium_memzero(witness.data(), witness.size() * sizeof(Fr));
  if (!proof) return proof.error();
  TransferProof out;
  out.proof = *proof;
  out.public_inputs = request.public_inputs();
  out.response_json = proof_to_reference_json(out.proof, out.public_inputs);
  return out;
}

Status TransferProver::verify_response(std::string_view response_json, ThreadPool& pool) const {
  auto parsed = proof_from_reference_json(response_json);
  if (!parsed) return parsed.error();
  return verify(parsed->proof, parsed->public_inputs, pool);
}

Status TransferProver::verify(const Proof& proof, std::span<const Fr> public_inputs,
                              ThreadPool& pool) const {
  return groth16_verify(pvk_, proof, public_inputs, pool);
}

}  // namespace enygma
