#include "core/registry/circuit_prover.hpp"

#include <sodium.h>

#include "core/groth16/key_format.hpp"
#include "core/groth16/proof_format.hpp"
#include "core/util/at_exit.hpp"

namespace enygma {

namespace {

// The field of load()'s errors: which of the two keys (a caller that read them from files
// names the file instead).
constexpr const char* kProvingKey = "proving_key";
constexpr const char* kVerifyingKey = "verifying_key";

Error key_mismatch(const std::string& what, const CircuitId& circuit) {
  return make_error(what + " was made for another version of the " + circuit.str() +
                        " circuit (circuit digest differs); regenerate it",
                    "key", what == "the proving key" ? kProvingKey : kVerifyingKey);
}

Error of_key(Error e, const char* which) {
  e.field = which;
  return e;
}

void wipe(std::vector<Fr>& w) {
  if (!w.empty()) sodium_memzero(w.data(), w.size() * sizeof(Fr));
}

}  // namespace

Result<std::shared_ptr<const CircuitProver>> CircuitProver::load(
    const CircuitId& circuit, std::optional<std::span<const uint8_t>> pk_file,
    std::span<const uint8_t> vk_file, ThreadPool& pool, const CircuitLoadOptions& options) {
  auto step = [&](const char* name) {
    if (options.on_step) options.on_step(name);
  };
  auto prover = std::make_shared<CircuitProver>();
  prover->circuit_ = circuit;
  const std::string name = circuit.key_name();
  // This build's circuit (its R1CS built on first use, then cached), against which the keys'
  // circuit digest is compared: one step, the first time this load asks for it.
  auto build = [&]() -> const R1cs& {
    if (!prover->r1cs_) {
      step("r1cs");
      prover->r1cs_ = circuit_r1cs_shared(circuit);
    }
    return *prover->r1cs_;
  };

  step("verifying_key");
  auto vk = load_verifying_key(vk_file, name, options.check_verifying_key_points);
  if (!vk) return of_key(vk.error(), kVerifyingKey);
  auto vk_matches = [&](const R1cs& r1cs) {
    return vk->circuit_digest == circuit_digest(circuit) && vk->num_public == r1cs.num_public;
  };
  if (options.check_circuit_digest && !vk_matches(build())) {
    return key_mismatch("the verifying key", circuit);
  }
  if (pk_file) {
    step("proving_key");
    auto pk = load_proving_key(*pk_file, name, pool, options.proving_key_owner);
    if (!pk) return of_key(pk.error(), kProvingKey);
    if (options.check_circuit_digest || !pk->shape) {
      // Proving without a shape needs the R1CS anyway: check it as well.
      const R1cs& r1cs = build();
      if (!vk_matches(r1cs)) return key_mismatch("the verifying key", circuit);
      if (pk->circuit_digest != circuit_digest(circuit) || pk->num_wires != r1cs.num_wires ||
          pk->num_public != r1cs.num_public) {
        return key_mismatch("the proving key", circuit);
      }
    } else if (vk->circuit_digest != pk->circuit_digest || vk->num_public != pk->num_public) {
      // Unchecked against this build, the two keys must at least belong together.
      return key_mismatch("the verifying key", circuit);
    }
    // Keys of one circuit from two setups: the proofs made would fail against this verifying
    // key. The proving key holds three of the verifying key's points.
    if (!(pk->alpha1 == vk->alpha1) || !(pk->beta2 == vk->beta2) || !(pk->delta2 == vk->delta2)) {
      return make_error(
          "the proving key and the verifying key come from different setups (their alpha, beta "
          "or delta differ); use the two files that one `enygma setup` made",
          "key", kProvingKey);
    }
    prover->pk_ = std::move(*pk);
    prover->has_pk_ = true;
  }
  // The R1CS served the digest checks; proving needs it only without a constraint shape.
  if (!prover->has_pk_ || prover->pk_.shape) prover->r1cs_.reset();
  prover->vk_ = std::move(*vk);
  if (options.prepare_verifier) {
    step("verifier");
    prover->prepared();
  }
  return std::shared_ptr<const CircuitProver>(std::move(prover));
}

std::vector<uint8_t> CircuitProver::raw_proving_key_file() const {
  if (pk_.shape || !r1cs_) return serialize_proving_key(pk_, circuit_.key_name());
  const ConstraintShape shape = ConstraintShape::from_r1cs(*r1cs_);
  return serialize_proving_key(pk_, circuit_.key_name(), PointFormat::kRaw, &shape);
}

Result<CircuitProof> CircuitProver::prove_request(std::string_view request_json, ThreadPool& pool,
                                                  const ProveOptions& options) const {
  if (!has_pk_) return make_error("this instance has no proving key", "key");
  const CircuitFamily& family = *circuit_.family;
  if (pool.size() < 2) {
    auto witness = family.witness(request_json, circuit_.k);
    if (!witness) return witness.error();
    return prove_witness(std::move(*witness), pool, options);
  }
  // The rules' checks beside the witness's computation, each parsing the request: the witness
  // is used only when no rule fails (the first failing rule is the error, as family.witness
  // reports it), and wiped otherwise. The calling thread starts on the witness, the longer of
  // the two; the other thread, woken, takes the checks (or the caller does, after it).
  std::vector<Error> broken;
  Result<std::vector<Fr>> witness = make_error("the witness was not computed", "internal");
  const AtExit wipe_at_exit{[&] {
    if (witness) wipe(*witness);
  }};
  pool.run_tasks(2, [&](size_t task) {
    if (task == 0) {
      witness = family.witness_unchecked(request_json, circuit_.k);
    } else {
      broken = family.validate_all(request_json, circuit_.k);
    }
  });
  if (!broken.empty()) return broken.front();
  if (!witness) return witness.error();
  return prove_witness(std::move(*witness), pool, options);
}

Result<CircuitProof> CircuitProver::prove_witness(std::vector<Fr> witness, ThreadPool& pool,
                                                  const ProveOptions& options) const {
  const AtExit wipe_at_exit{[&] { wipe(witness); }};
  if (!has_pk_) return make_error("this instance has no proving key", "key");
  if (witness.size() != pk_.num_wires) {
    // The witness is this build's circuit's (the family computed it): a key of another size
    // was made for another circuit, unchecked at load (CircuitLoadOptions::check_circuit_digest
    // off). The key is at fault, not the request.
    if (pk_.circuit_digest != circuit_digest(circuit_)) {
      return key_mismatch("the proving key", circuit_);
    }
    return make_error("the proving key has " + std::to_string(pk_.num_wires) + " wires, the " +
                          circuit_.str() + " circuit " + std::to_string(witness.size()) +
                          "; regenerate it",
                      "key", kProvingKey);
  }
  auto proof = pk_.shape ? groth16_prove(pk_, *pk_.shape, witness, pool, options)
                         : groth16_prove(pk_, *r1cs_, witness, pool, options);
  if (!proof && proof.error().rule == "witness" && pk_.shape) proof = diagnose(witness);
  CircuitProof out;
  // The public inputs are public: copied out before the witness is wiped (at the return).
  out.public_inputs.assign(witness.begin() + 1, witness.begin() + 1 + pk_.num_public);
  if (!proof) return proof.error();
  out.proof = *proof;
  out.response_json = proof_to_reference_json(out.proof, out.public_inputs);
  return out;
}

// The witness does not satisfy the key's constraint shape. Either the key was made for another
// version of the circuit (not checked at load), or this build computed a wrong witness: the
// circuit built now tells which, and for the second names the constraint as the R1CS path does.
Error CircuitProver::diagnose(std::span<const Fr> witness) const {
  if (pk_.circuit_digest != circuit_digest(circuit_)) {
    return key_mismatch("the proving key", circuit_);
  }
  const std::shared_ptr<const R1cs> held = circuit_r1cs_shared(circuit_);
  const R1cs& r1cs = *held;
  const auto bad = r1cs.first_unsatisfied(witness);
  if (!bad) {
    // The circuit's own constraints hold: the key's shape is not the circuit its digest names.
    return make_error("the proving key's constraint shape does not match its circuit digest (" +
                          circuit_.str() + "); regenerate it",
                      "key", kProvingKey);
  }
  std::string what = "the witness does not satisfy constraint " + std::to_string(*bad);
  if (*bad < r1cs.labels.size() && !r1cs.labels[*bad].empty()) {
    what += " (" + r1cs.labels[*bad] + ")";
  }
  return make_error(what, "witness");
}

Status CircuitProver::verify_response(std::string_view response_json, const JsonDocument& document,
                                      ThreadPool& pool) const {
  auto parsed = proof_from_reference_json(response_json, document);
  if (!parsed) return parsed.error();
  // A response of another circuit, or cut short: malformed for this one, not a proof that fails.
  if (parsed->public_inputs.size() != vk_.num_public) {
    return make_error("public_signal has " + std::to_string(parsed->public_inputs.size()) +
                          " values; the " + circuit_.str() + " circuit has " +
                          std::to_string(vk_.num_public) + " public inputs",
                      "proof", "public_signal");
  }
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

Status check_keys_prove(const CircuitId& circuit, std::span<const uint8_t> pk_file,
                        std::span<const uint8_t> vk_file, ThreadPool& pool) {
  auto prover = CircuitProver::load(circuit, pk_file, vk_file, pool);
  if (!prover) return prover.error();
  const std::array<uint8_t, 32> seed{};  // the request is public test data
  auto request = circuit.family->make_request(circuit.k, seed, 0);
  if (!request) return request.error();
  auto proof = (*prover)->prove_request(*request, pool);
  if (!proof) {
    return make_error("the keys of " + circuit.str() + " make no proof: " + proof.error().message,
                      "key");
  }
  if (Status st = (*prover)->verify_response(proof->response_json, kRequestBody, pool); !st) {
    return make_error("the keys of " + circuit.str() + " make proofs that do not verify (" +
                          st.error().message +
                          "): a proving key point outside its subgroup, or queries of another "
                          "setup (run snarkjs zkey verify)",
                      "key");
  }
  return ok_status();
}

}  // namespace enygma
