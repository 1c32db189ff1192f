// Groth16 key generation for an R1CS (the circuit-specific setup).
//
// groth16_setup draws the toxic waste (tau, alpha, beta, gamma, delta) from libsodium's CSPRNG
// and wipes it, and everything derived from it, before returning. Single-party keys are still
// only as trustworthy as the machine that made them: production keys should come from a
// multi-party ceremony (snarkjs zkey contribute; see the README).
//
// groth16_setup_insecure_from_seed derives the toxic waste from a public seed: anyone with the
// seed can forge proofs. It exists for development keys and reproducible tests only, and keys
// made by it carry insecure_dev = true.
#pragma once

#include <cstdint>
#include <span>

#include "core/groth16/keys.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/r1cs/r1cs.hpp"

namespace enygma {

struct Groth16Keys {
  ProvingKey pk;
  VerifyingKey vk;
};

// The evaluation domain's kinds of size (core/poly/evaluation_domain.hpp): kAny, the smallest
// n = 2^k or 3 * 2^k with n >= constraints + num_public + 1 (fewer H points and smaller
// transforms); kPowerOfTwo, the smallest 2^k (the only kind snarkjs knows: keys that a snarkjs
// .zkey's layout must hold).
enum class DomainSizes { kAny, kPowerOfTwo };
size_t groth16_domain_size(const R1cs& r1cs, DomainSizes sizes = DomainSizes::kAny);

Groth16Keys groth16_setup(const R1cs& r1cs, ThreadPool& pool,
                          DomainSizes sizes = DomainSizes::kAny);
Groth16Keys groth16_setup_insecure_from_seed(const R1cs& r1cs, std::span<const uint8_t> seed,
                                             ThreadPool& pool,
                                             DomainSizes sizes = DomainSizes::kAny);

}  // namespace enygma
