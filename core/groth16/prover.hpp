// The Groth16 prover: one proof from a proving key, its R1CS and a satisfying witness.
//
// pi_A = alpha + sum_j w_j A_j(tau) + r delta                           (G1)
// pi_B = beta  + sum_j w_j B_j(tau) + s delta                           (G2, and in G1 for pi_C)
// pi_C = sum_{j private} w_j K_j + sum_i p(x_i) H_i + s pi_A + r B_1 - r s delta   (G1)
// The blinding r, s comes from libsodium's CSPRNG; a test seed makes it reproducible (same
// key, witness and seed: the same bytes on every build and target). Witness-derived buffers
// are wiped before returning.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>

#include "core/groth16/keys.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/r1cs/r1cs.hpp"
#include "core/util/result.hpp"

namespace enygma {

enum class ProveStage { kConstraints, kQuotient, kMsmA, kMsmB1, kMsmB2, kMsmC, kMsmH, kDone };
const char* prove_stage_name(ProveStage stage);

// The longest test seed (a BLAKE2b key); a longer one is refused (rule "input").
inline constexpr size_t kMaxTestSeedBytes = 64;

struct ProveOptions {
  // Non-empty: derive r and s from this seed (1 to kMaxTestSeedBytes bytes). INSECURE (proofs
  // become linkable and the witness can leak through repeated seeds); for cross-target tests only.
  std::span<const uint8_t> insecure_test_seed;
  // Called at the start of each stage (from the calling thread). What it throws stops the
  // proof and is thrown from groth16_prove.
  std::function<void(ProveStage)> on_stage;
  // Checked between stages; when it becomes true the prover stops with rule "cancelled".
  const std::atomic<bool>* cancel = nullptr;
};

Result<Proof> groth16_prove(const ProvingKey& pk, const R1cs& r1cs, std::span<const Fr> witness,
                            ThreadPool& pool, const ProveOptions& options = {});
// The same from the key's compact constraint system (ProvingKey::shape): no labels in errors.
Result<Proof> groth16_prove(const ProvingKey& pk, const ConstraintShape& shape,
                            std::span<const Fr> witness, ThreadPool& pool,
                            const ProveOptions& options = {});

}  // namespace enygma
