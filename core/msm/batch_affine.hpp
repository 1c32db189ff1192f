// Batch-affine point additions: many independent affine additions share one field inversion
// (Montgomery's trick), so an addition costs about 6 multiplications instead of the 10-11 of a
// mixed Jacobian addition. batch_add_pairs computes out = a + b for a list of independent
// pairs, every case handled (infinity, a == b, a == -b); the bucket reduction and the sum of
// the points with scalar 1 use it. The bucket-filling scheduler is core/msm/bucket_accumulator.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/curve/short_weierstrass.hpp"
#include "core/msm/batch_affine_lanes.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma::msm_detail {

template <class Affine>
struct PairAdd {
  Affine a, b;  // copies: out may alias the storage a or b came from
  Affine* out;
};

// Working memory of batch_add_pairs, owned by the caller and reused across its calls (a
// bucket reduction makes one call per step): allocated per call, its page faults and zeroing
// would cost more than the additions of a small sum.
template <class F>
struct BatchAddScratch {
  // The points are public (a verifier's): the shared inversion may take variable time
  // (inverse_vartime, several times faster than Fermat). Left false for a prover's MSM, whose
  // bucket contents follow the witness.
  bool public_values = false;
  SecureVector<F> denominators, prefix;
  // For the lane kernel (core/msm/batch_affine_lanes.hpp).
  SecureVector<AffineAddJob> jobs;
  SecureVector<size_t> equal_x;
  SecureVector<uint64_t> words;
};

// G1 and G2 on the lane kernel: plain additions several at a time
// (core/msm/batch_affine_lanes.hpp); ops with an operand at infinity are resolved here, those
// with equal x are moved to the front and left to the scalar code (returns how many).
template <class F, class P>
size_t batch_add_pairs_lanes(PairAdd<AffinePoint<F, P>>* ops, size_t k,
                             BatchAddScratch<F>& scratch) {
  // Caller-owned, not thread_local: the bucket reduction passes tens of thousands of ops, and
  // buffers of that size kept per thread would raise the peak memory of a one-shot proof.
  SecureVector<AffineAddJob>& jobs = scratch.jobs;
  SecureVector<size_t>& equal_x = scratch.equal_x;
  jobs.clear();
  equal_x.clear();
  jobs.reserve(k);
  for (size_t j = 0; j < k; ++j) {
    PairAdd<AffinePoint<F, P>>& op = ops[j];
    if (op.a.is_infinity()) {
      *op.out = op.b;
    } else if (op.b.is_infinity()) {
      *op.out = op.a;
    } else if (op.a.x == op.b.x) {
      equal_x.push_back(j);
    } else {
      jobs.push_back({words_of(op.a.x), words_of(op.b.x), words_of(op.b.y), words_of(op.out->x)});
    }
  }
  batch_add_lanes<F>(jobs.data(), jobs.size(), scratch.words, scratch.public_values);
  // Only now (the jobs point into ops): move the equal-x ops to the front.
  for (size_t i = 0; i < equal_x.size(); ++i) ops[i] = ops[equal_x[i]];
  return equal_x.size();
}

// *ops[j].out = ops[j].a + ops[j].b for every j; one inversion for the whole list.
template <class F, class P>
void batch_add_pairs(PairAdd<AffinePoint<F, P>>* ops, size_t k, BatchAddScratch<F>& scratch) {
  using Affine = AffinePoint<F, P>;
  if constexpr (kHasLaneBatchAdd<F>) {
    if (use_batch_lanes<F>(k)) k = batch_add_pairs_lanes(ops, k, scratch);
  }
  SecureVector<F>& denominators = scratch.denominators;
  SecureVector<F>& prefix = scratch.prefix;
  if (denominators.size() < k) denominators.resize(k);
  if (prefix.size() < k) prefix.resize(k);
  // A zero denominator marks an op already resolved (infinity operand or a == -b).
  F acc = F::one();
  for (size_t j = 0; j < k; ++j) {
    const Affine& a = ops[j].a;
    const Affine& b = ops[j].b;
    F d = F::zero();
    if (a.is_infinity()) {
      *ops[j].out = b;
    } else if (b.is_infinity()) {
      *ops[j].out = a;
    } else if (a.x != b.x) {
      d = b.x - a.x;
    } else if (a.y == b.y && !a.y.is_zero()) {
      d = a.y.dbl();  // doubling: lambda = 3x^2 / 2y
    } else {
      *ops[j].out = Affine::infinity();  // a == -b
    }
    denominators[j] = d;
    prefix[j] = acc;
    if (!d.is_zero()) acc *= d;
  }
  F inv = scratch.public_values ? inverse_vartime(acc) : acc.inverse();
  for (size_t j = k; j-- > 0;) {
    const F& d = denominators[j];
    if (d.is_zero()) continue;
    const F inv_j = inv * prefix[j];
    inv *= d;
    const Affine& a = ops[j].a;
    const Affine& b = ops[j].b;
    F lambda;
    if (a.x != b.x) {
      lambda = (b.y - a.y) * inv_j;
    } else {
      const F xx = a.x.square();
      lambda = (xx.dbl() + xx) * inv_j;
    }
    const F x3 = lambda.square() - a.x - b.x;
    *ops[j].out = {x3, lambda * (a.x - x3) - a.y};
  }
}

// One round of pairwise sums within each of `runs` runs of points: run r holds count[r] points
// from points + begin[r]; its pairs (2j, 2j + 1) are added into slot j (batch-affine, at most
// 1024 pairs per shared inversion) and an odd last point moves down after them, so that
// count[r] becomes ceil(count[r] / 2). Returns whether some run still holds more than one point.
template <class F, class P>
bool pairwise_sum_round(AffinePoint<F, P>* points, const size_t* begin, size_t* count, size_t runs,
                        SecureVector<PairAdd<AffinePoint<F, P>>>& ops,
                        BatchAddScratch<F>& scratch) {
  constexpr size_t kChunk = 1024;
  // A chunk's outputs (slots j) are below the inputs of the pairs still to come (2j' >= 2j).
  const auto flush = [&] {
    if (!ops.empty()) batch_add_pairs(ops.data(), ops.size(), scratch);
    ops.clear();
  };
  ops.clear();
  for (size_t r = 0; r < runs; ++r) {
    AffinePoint<F, P>* w = points + begin[r];
    for (size_t j = 0; 2 * j + 1 < count[r]; ++j) {
      ops.push_back({w[2 * j], w[2 * j + 1], &w[j]});
      if (ops.size() == kChunk) flush();
    }
  }
  flush();
  bool more = false;
  for (size_t r = 0; r < runs; ++r) {
    AffinePoint<F, P>* w = points + begin[r];
    const size_t pairs = count[r] / 2;
    if (count[r] & 1) w[pairs] = w[count[r] - 1];
    count[r] = pairs + (count[r] & 1);
    more |= count[r] > 1;
  }
  return more;
}

// Sum of affine points (consumed), by rounds of pairwise batch additions.
template <class F, class P>
JacobianPoint<F, P> sum_affine_points(SecureVector<AffinePoint<F, P>>& points) {
  constexpr size_t kJacobianBelow = 16;
  SecureVector<PairAdd<AffinePoint<F, P>>> ops;
  BatchAddScratch<F> scratch;
  const size_t begin = 0;
  size_t count = points.size();
  while (count >= kJacobianBelow)
    pairwise_sum_round(points.data(), &begin, &count, 1, ops, scratch);
  JacobianPoint<F, P> acc = JacobianPoint<F, P>::infinity();
  for (size_t i = 0; i < count; ++i) acc = acc.add_mixed(points[i]);
  return acc;
}

}  // namespace enygma::msm_detail
