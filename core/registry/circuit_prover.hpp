// The whole path of a proof for any registered circuit, behind one small API shared by the CLI,
// the server and the WebAssembly module: request JSON -> parse -> validate (rule-naming errors)
// -> witness -> Groth16 proof -> the reference response JSON; and response JSON -> verification.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/groth16/keys.hpp"
#include "core/groth16/proof_format.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/verifier.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/registry/registry.hpp"
#include "core/util/result.hpp"

namespace enygma {

struct CircuitProof {
  Proof proof;
  std::vector<Fr> public_inputs;
  std::string response_json;  // the reference service's response format
};

struct CircuitLoadOptions {
  // Prepare the verifier (e(alpha, beta), the lines of gamma and delta, the IC table) in load().
  // When false it is prepared by the first verification instead: a one-shot prover never
  // verifies, and a verifying service should pay for it once, at start, not in its first
  // request.
  bool prepare_verifier = true;
  // Compare the keys' circuit digest with the circuit this build defines, which builds its R1CS
  // (the slowest step of a one-shot proof: ~70 ms at k = 6). When false and the proving key
  // carries its constraint shape, nothing is built: the two keys are only compared with each
  // other, and a key made for another version of the circuit shows at the first proof (the
  // witness does not satisfy its constraints; the error then names the key). Without a shape the
  // R1CS is needed to prove, and is checked.
  bool check_circuit_digest = true;
  // Check the verifying key's points (on their curves, beta, gamma and delta in G2's subgroup:
  // load_verifying_key). False only for a key whose points this build checked when it kept it
  // (the browser's key cache): its file digest still guards against corruption.
  bool check_verifying_key_points = true;
  // Keeps the proving key file's bytes alive (and unchanged) while held: a raw key is then
  // read in place (load_proving_key's file_owner), its arrays in those bytes, instead of copied.
  std::shared_ptr<const void> proving_key_owner;
  // Called as each step of load() starts ("verifying_key", "r1cs", "proving_key", "verifier"),
  // for timings (core has no clock).
  std::function<void(const char* step)> on_step;
};

class CircuitProver {
 public:
  // Keys are the files' bytes (core does no file I/O). No proving key (nullopt) makes a
  // verify-only instance; an empty one is a truncated file. Checks that both keys were made for
  // this circuit (name and R1CS digest) and by the same setup (alpha, beta and delta); errors
  // (rule "key") say which key.
  static Result<std::shared_ptr<const CircuitProver>> load(
      const CircuitId& circuit, std::optional<std::span<const uint8_t>> pk_file,
      std::span<const uint8_t> vk_file, ThreadPool& pool, const CircuitLoadOptions& options = {});

  const CircuitId& circuit() const { return circuit_; }
  bool can_prove() const { return has_pk_; }
  bool insecure_dev_keys() const { return pk_.insecure_dev; }
  const VerifyingKey& verifying_key() const { return vk_; }
  const ProvingKey& proving_key() const { return pk_; }
  // The proving key as a raw key file with its constraint shape (derived from the circuit when
  // the key came without one, as compressed keys do), so that loading it builds no circuit.
  std::vector<uint8_t> raw_proving_key_file() const;

  // Parse + validate (errors name the rule and field) + witness + prove.
  Result<CircuitProof> prove_request(std::string_view request_json, ThreadPool& pool,
                                     const ProveOptions& options = {}) const;
  // A witness already computed (validated); it is wiped here.
  Result<CircuitProof> prove_witness(std::vector<Fr> witness, ThreadPool& pool,
                                     const ProveOptions& options = {}) const;

  // A reference response JSON: Error when it is malformed (rule "proof", naming the field; a
  // public_signal of another length than this circuit's public inputs too; rule "input" for a
  // text that is no JSON object, naming `document`); otherwise ok() means valid and an Error
  // with rule "invalid" says why it is not.
  Status verify_response(std::string_view response_json, const JsonDocument& document,
                         ThreadPool& pool = sequential_pool()) const;
  Status verify(const Proof& proof, std::span<const Fr> public_inputs,
                ThreadPool& pool = sequential_pool()) const;

 private:
  const PreparedVerifyingKey& prepared() const;
  Error diagnose(std::span<const Fr> witness) const;

  CircuitId circuit_;
  // Built only when needed (CircuitLoadOptions), and kept only where proving needs it (a proving
  // key without its constraint shape): the registry's cache may drop its copy.
  std::shared_ptr<const R1cs> r1cs_;
  bool has_pk_ = false;
  ProvingKey pk_;
  VerifyingKey vk_;
  // Prepared once, by load() or by the first verification (several threads may verify at once).
  mutable std::once_flag pvk_once_;
  mutable PreparedVerifyingKey pvk_;
};

// Whether keys from elsewhere (a ceremony's zkey) make valid proofs: one proof of a request the
// circuit's wallet makes from a fixed seed, verified with the verifying key. Their points may be
// on their curves and still make no valid proof (a B2 point outside G2's subgroup, H or C
// queries of another setup, a domain of another size), which `snarkjs zkey verify` finds from
// the ceremony's transcript; this finds it from the keys alone, before they are used. Errors
// (rule "key") say what failed.
Status check_keys_prove(const CircuitId& circuit, std::span<const uint8_t> pk_file,
                        std::span<const uint8_t> vk_file, ThreadPool& pool);

}  // namespace enygma
