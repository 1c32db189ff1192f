// The whole path of a transfer proof behind one small API, shared by the CLI, the server and the
// WebAssembly module: request JSON -> parse -> validate R1..R15 -> witness -> Groth16 proof ->
// reference response JSON, and response JSON -> verification.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/groth16/keys.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/verifier.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/r1cs/r1cs.hpp"
#include "core/transfer/request.hpp"
#include "core/util/result.hpp"

namespace enygma {

// "enygma-transfer-k<k>": the circuit name written into key files.
std::string transfer_circuit_name(unsigned k);

// Timings of one proof, in microseconds, by stage (filled by the caller's clock through
// ProveOptions::on_stage; core itself reads no clock).
struct TransferProof {
  Proof proof;
  std::vector<Fr> public_inputs;
  std::string response_json;  // the reference service's response format
};

class TransferProver {
 public:
  // Keys are the files' bytes (core does no file I/O). The proving key may be empty for a
  // verify-only instance. Checks that both keys belong to transfer_r1cs(k).
  static Result<std::shared_ptr<const TransferProver>> load(unsigned k,
                                                            std::span<const uint8_t> pk_file,
                                                            std::span<const uint8_t> vk_file,
                                                            ThreadPool& pool);

  unsigned k() const { return k_; }
  bool can_prove() const { return has_pk_; }
  bool insecure_dev_keys() const { return pk_.insecure_dev; }
  const VerifyingKey& verifying_key() const { return pvk_.vk; }
  const ProvingKey& proving_key() const { return pk_; }

  // Parse + validate (errors name the rule and field) + witness + prove.
  Result<TransferProof> prove_request(std::string_view request_json, ThreadPool& pool,
                                      const ProveOptions& options = {}) const;
  Result<TransferProof> prove(const TransferRequest& request, ThreadPool& pool,
                              const ProveOptions& options = {}) const;

  // A reference response JSON: Error when it is malformed (rule "proof", naming the field);
  // otherwise ok() means valid and an Error with rule "invalid" says why it is not.
  // pool: see groth16_verify (two threads split the work; the answer is the same).
  Status verify_response(std::string_view response_json,
                         ThreadPool& pool = sequential_pool()) const;
  Status verify(const Proof& proof, std::span<const Fr> public_inputs,
                ThreadPool& pool = sequential_pool()) const;

 private:
  unsigned k_ = 0;
  const R1cs* r1cs_ = nullptr;
  bool has_pk_ = false;
  ProvingKey pk_;
  PreparedVerifyingKey pvk_;
};

}  // namespace enygma
