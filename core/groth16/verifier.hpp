// The Groth16 verifier: e(A, B) == e(alpha, beta) * e(sum_j x_j IC_j, gamma) * e(C, delta),
// checked as one multi-pairing
//   FE( ML(-A, B) * ML(vk_x, gamma) * ML(C, delta) ) == e(alpha, beta)^-1
// with e(alpha, beta) and the Miller-loop lines of gamma and delta precomputed once per key
// (monic lines: prepare_g2_monic in core/pairing/pairing.hpp).
#pragma once

#include <span>

#include "core/groth16/keys.hpp"
#include "core/msm/fixed_base_msm.hpp"
#include "core/pairing/pairing.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/util/result.hpp"

namespace enygma {

struct PreparedVerifyingKey {
  VerifyingKey vk;
  Fp12 alpha_beta_inverse;  // e(alpha, beta)^-1
  G2Prepared gamma, delta;
  FixedBaseMsm<Fp, G1Params> ic_sum;  // IC_1..IC_n with precomputed shifts, for vk_x
};

// Every point on its curve; G2 points in the order-r subgroup; gamma, delta not the identity.
Status validate_verifying_key_points(const VerifyingKey& vk);

PreparedVerifyingKey prepare_verifying_key(const VerifyingKey& vk);

// ok() when the proof is valid for these public inputs. Otherwise an Error with rule "invalid"
// and the reason: wrong number of public inputs, a proof point not on its curve or not in its
// subgroup, or the pairing check failing. (Public inputs are Fr, canonical by construction;
// the parsers of JSON and bytes reject non-canonical numbers before this.)
// With a pool of two or more threads the work is split in two halves that run at once (the
// proof's pairings and the public-input sum with its pairing); the answer is the same.
Status groth16_verify(const PreparedVerifyingKey& pvk, const Proof& proof,
                      std::span<const Fr> public_inputs, ThreadPool& pool = sequential_pool());

}  // namespace enygma
