// Bucket reduction: the window sum sum_{j=1}^{B} j * bucket[j-1] of Pippenger's method.
//
// Reference (Jacobian): the running-sum trick, 2 additions per bucket.
// Fast (batch-affine): each window's buckets are cut into S segments of L = B / S buckets, and
// all segments of all windows run their running sums in lockstep, so every step is a batch of
// independent affine additions sharing one inversion. Segment s (digits sL+1 .. sL+L) yields
//   R_s = sum_k bucket[sL+k-1] and T_s = sum_k k * bucket[sL+k-1]   (k = 1..L),
// and the window sum is sum_s T_s + L * sum_s s * R_s, the last sum again a running sum (over
// S segments, in Jacobian coordinates; S << B).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/msm/batch_affine.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma::msm_detail {

template <class J>
J reduce_buckets_jacobian(const J* buckets, size_t count) {
  J running = J::infinity(), total = J::infinity();
  for (size_t j = count; j-- > 0;) {
    running += buckets[j];
    total += running;
  }
  return total;
}

// windows * B buckets (window-major, bucket[w * B + j] holds digit j + 1; (0, 0) = empty) ->
// out[w] for each window. segments must divide B (both powers of two).
template <class F, class P>
void reduce_buckets_batch_affine(const AffinePoint<F, P>* buckets, size_t windows, size_t B,
                                 size_t segments, JacobianPoint<F, P>* out,
                                 BatchAddScratch<F>* reuse = nullptr) {
  using Affine = AffinePoint<F, P>;
  using Jacobian = JacobianPoint<F, P>;
  const size_t L = B / segments;
  const size_t chains = windows * segments;
  SecureVector<Affine> running(chains, Affine::infinity()), total(chains, Affine::infinity());
  SecureVector<PairAdd<Affine>> ops(2 * chains);
  BatchAddScratch<F> own;
  BatchAddScratch<F>& scratch = reuse ? *reuse : own;
  for (size_t step = 1; step <= L + 1; ++step) {
    size_t k = 0;
    for (size_t ch = 0; ch < chains; ++ch) {
      const Affine before = running[ch];
      if (step <= L) {
        // chain ch = (window ch / S, segment ch % S) starts at bucket ch * L
        const Affine& bucket = buckets[ch * L + (L - step)];
        if (!bucket.is_infinity()) {
          if (before.is_infinity()) {
            running[ch] = bucket;
          } else {
            ops[k++] = {before, bucket, &running[ch]};
          }
        }
      }
      if (!before.is_infinity()) {
        if (total[ch].is_infinity()) {
          total[ch] = before;
        } else {
          ops[k++] = {total[ch], before, &total[ch]};
        }
      }
    }
    batch_add_pairs(ops.data(), k, scratch);
  }
  unsigned log_l = 0;
  while ((size_t(1) << log_l) < L) ++log_l;
  for (size_t w = 0; w < windows; ++w) {
    const Affine* r = &running[w * segments];
    const Affine* t = &total[w * segments];
    Jacobian suffix = Jacobian::infinity(), weighted = Jacobian::infinity();
    Jacobian sum_t = Jacobian::infinity();
    for (size_t s = segments; s-- > 1;) {
      suffix = suffix.add_mixed(r[s]);
      weighted += suffix;  // sum_{s >= 1} s * R_s
    }
    for (size_t s = 0; s < segments; ++s) sum_t = sum_t.add_mixed(t[s]);
    for (unsigned i = 0; i < log_l; ++i) weighted = weighted.dbl();
    out[w] = sum_t + weighted;
  }
}

}  // namespace enygma::msm_detail
