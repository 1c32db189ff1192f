// sum_j s_j * P_j for points P_j known in advance (a verifying key's IC points): the
// verifier's public-input sum, done once per proof.
//
// Pippenger with precomputed shifted bases: the table holds 2^(offset_w) * P_j for every
// signed-digit window w of every point, so an evaluation is a single bucket pass over the
// (point, digit) pairs with 2^(c-1) buckets and no doublings. The pairs are sorted by bucket
// and each bucket is summed by rounds of pairwise batch-affine additions (one inversion per
// round for all buckets), then one running-sum reduction. For 50 public inputs and c = 8 that
// is ~1,600 batch-affine additions in ~5 rounds plus 128 Jacobian steps, against ~64 windows
// of mixed additions and 254 doublings for a plain MSM of 50 terms. The table costs
// W = ceil(255 / c) affine points per base (c = 8: 32 points, 2 KiB per G1 base).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstdint>
#include <span>
#include <vector>

#include "core/curve/short_weierstrass.hpp"
#include "core/field/fr.hpp"
#include "core/msm/batch_affine.hpp"
#include "core/msm/signed_digits.hpp"

namespace enygma {

template <class F, class P>
class FixedBaseMsm {
 public:
  using Affine = AffinePoint<F, P>;
  using Jacobian = JacobianPoint<F, P>;

  FixedBaseMsm() = default;
  explicit FixedBaseMsm(std::span<const Affine> bases, unsigned window_bits = 8)
      : layout_(msm_detail::signed_windows(Fr::kBits, window_bits)), n_(bases.size()) {
    const unsigned W = layout_.count();
    std::vector<Jacobian> shifted(n_ * W);
    for (size_t j = 0; j < n_; ++j) {
      Jacobian q = bases[j].to_jacobian();
      for (unsigned w = 0; w < W; ++w) {
        shifted[j * W + w] = q;
        for (unsigned i = 0; i < layout_.width[w]; ++i) q = q.dbl();
      }
    }
    table_.resize(shifted.size());
    Jacobian::batch_to_affine(shifted.data(), table_.data(), shifted.size());
  }

  size_t size() const { return n_; }

  // scalars.size() must equal size().
  Jacobian eval(std::span<const Fr> scalars) const {
    if (n_ == 0) return Jacobian::infinity();
    const unsigned W = layout_.count();
    const size_t B = size_t(1) << (layout_.max_width - 1);
    const size_t n = std::min(n_, scalars.size());
    // 1. Signed digits; the table points sorted by bucket |d| - 1 (counting sort), negated
    //    where the digit is negative.
    std::vector<int16_t> digits(n * W);
    std::vector<uint32_t> start(B + 1, 0);
    for (size_t j = 0; j < n; ++j) {
      msm_detail::signed_digits(scalars[j].to_u256(), layout_, &digits[j * W]);
      for (size_t t = j * W; t < (j + 1) * W; ++t) {
        if (digits[t] != 0 && !table_[t].is_infinity()) ++start[size_t(std::abs(digits[t]))];
      }
    }
    for (size_t b = 0; b < B; ++b) start[b + 1] += start[b];
    std::vector<Affine> points(start[B]);
    std::vector<uint32_t> next(start.begin(), start.end() - 1);
    for (size_t t = 0; t < n * W; ++t) {
      const int d = digits[t];
      if (d == 0 || table_[t].is_infinity()) continue;
      points[next[size_t(std::abs(d)) - 1]++] = d > 0 ? table_[t] : -table_[t];
    }
    // 2. Each bucket summed by rounds of pairwise additions, every bucket's pairs of a round
    //    sharing one inversion (a few rounds: the buckets hold ~n W / B points each).
    std::vector<uint32_t> len(B);
    for (size_t b = 0; b < B; ++b) len[b] = start[b + 1] - start[b];
    std::vector<msm_detail::PairAdd<Affine>> ops;
    std::vector<F> denominators, prefix;
    for (;;) {
      ops.clear();
      for (size_t b = 0; b < B; ++b) {
        for (size_t i = 0; i < len[b] / 2; ++i) {
          const size_t s = start[b];
          ops.push_back({points[s + 2 * i], points[s + 2 * i + 1], &points[s + i]});
        }
      }
      if (ops.empty()) break;
      msm_detail::batch_add_pairs(ops.data(), ops.size(), denominators, prefix);
      for (size_t b = 0; b < B; ++b) {
        const uint32_t l = len[b];
        if (l < 2) continue;
        if (l & 1) points[start[b] + l / 2] = points[start[b] + l - 1];
        len[b] = l / 2 + (l & 1);
      }
    }
    // 3. sum_b (b + 1) S_b = sum of the running sums from the top bucket down.
    Jacobian running = Jacobian::infinity(), total = Jacobian::infinity();
    for (size_t b = B; b-- > 0;) {
      if (len[b] == 1) running = running.add_mixed(points[start[b]]);
      total += running;
    }
    return total;
  }

 private:
  msm_detail::WindowLayout layout_;
  size_t n_ = 0;
  std::vector<Affine> table_;  // table_[j * W + w] = 2^(offset_w) * bases[j]
};

}  // namespace enygma
