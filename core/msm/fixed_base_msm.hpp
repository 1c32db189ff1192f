// sum_j s_j * P_j for points P_j known in advance (a verifying key's IC points): the
// verifier's public-input sum, done once per proof.
//
// Pippenger with precomputed shifted bases: the table holds 2^(offset_w) * P_j for every
// signed-digit window w of every point, so an evaluation is a single bucket pass over the
// (point, digit) pairs with 2^(c-1) buckets and no doublings. The pairs are sorted by bucket
// and each bucket is summed by rounds of pairwise batch-affine additions (one inversion per
// round for all buckets), then the buckets are reduced by segmented batch-affine running sums
// (core/msm/bucket_reduction.hpp). For 50 public inputs and c = 8 that is ~1,600 batch-affine
// additions in ~5 rounds, ~270 more in 9 steps and ~50 Jacobian steps, against ~64 windows of
// mixed additions and 254 doublings for a plain MSM of 50 terms. The table costs
// W = ceil(255 / c) affine points per base (c = 8: 32 points, 2 KiB per G1 base).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "core/curve/short_weierstrass.hpp"
#include "core/field/fr.hpp"
#include "core/msm/batch_affine.hpp"
#include "core/msm/bucket_reduction.hpp"
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
    // The working memory stays with the thread: allocated per call it cost more than the
    // arithmetic (page faults and zeroing: ~60% of a 50-input evaluation, measured). It holds
    // public data only (digits of public inputs, points).
    thread_local Workspace ws;
    ws.scratch.public_values = true;  // a verifier's points and public inputs
    // 1. Signed digits; the table points sorted by bucket |d| - 1 (counting sort), negated
    //    where the digit is negative.
    ws.digits.resize(n * W);
    ws.start.assign(B + 1, 0);
    std::vector<uint32_t>& start = ws.start;
    for (size_t j = 0; j < n; ++j) {
      msm_detail::signed_digits(scalars[j].to_u256(), layout_, &ws.digits[j * W]);
      for (size_t t = j * W; t < (j + 1) * W; ++t) {
        const int d = ws.digits[t];
        if (d != 0 && !table_[t].is_infinity()) ++start[size_t(std::abs(d))];
      }
    }
    for (size_t b = 0; b < B; ++b) start[b + 1] += start[b];
    ws.points.resize(start[B]);
    std::vector<Affine>& points = ws.points;
    ws.next.assign(start.begin(), start.end() - 1);
    for (size_t t = 0; t < n * W; ++t) {
      const int d = ws.digits[t];
      if (d == 0 || table_[t].is_infinity()) continue;
      points[ws.next[size_t(std::abs(d)) - 1]++] = d > 0 ? table_[t] : -table_[t];
    }
    // 2. Each bucket summed by rounds of pairwise additions, every bucket's pairs of a round
    //    sharing one inversion (a few rounds: the buckets hold ~n W / B points each).
    ws.len.resize(B);
    std::vector<uint32_t>& len = ws.len;
    for (size_t b = 0; b < B; ++b) len[b] = start[b + 1] - start[b];
    for (;;) {
      if (!sum_pairs_round(points, start, len, ws)) break;
      for (size_t b = 0; b < B; ++b) {
        const uint32_t l = len[b];
        if (l < 2) continue;
        if (l & 1) points[start[b] + l / 2] = points[start[b] + l - 1];
        len[b] = l / 2 + (l & 1);
      }
    }
    // 3. sum_b (b + 1) S_b by the segmented batch-affine reduction (all segments' running
    //    sums in lockstep, one inversion per step): B = 128 buckets in 16 segments of 8 are
    //    9 batches of <= 32 additions and ~50 Jacobian steps, against the 256 of one running
    //    sum. 32 segments (5 batches, ~100 Jacobian steps) measured the same natively and ~5%
    //    slower in the f64-lane module, whose Jacobian steps are scalar and its batches not.
    ws.buckets.assign(B, Affine::infinity());
    for (size_t b = 0; b < B; ++b) {
      if (len[b] == 1) ws.buckets[b] = points[start[b]];
    }
    const size_t segments = std::min<size_t>(kSegments, B);
    Jacobian total;
    msm_detail::reduce_buckets_batch_affine(ws.buckets.data(), 1, B, segments, &total, &ws.scratch);
    return total;
  }

 private:
  struct Workspace {
    std::vector<int16_t> digits;
    std::vector<uint32_t> start, next, len;
    std::vector<Affine> points, buckets;
    std::vector<msm_detail::PairAdd<Affine>> ops;
    std::vector<msm_detail::AffineAddJob> jobs;
    msm_detail::BatchAddScratch<F> scratch;
  };

  // One round: in every bucket b, points[start[b] + i] = points[start[b] + 2i] +
  // points[start[b] + 2i + 1] for i < len[b] / 2. Returns false when there was nothing to add.
  // On the lane kernel the ordinary pairs go to it straight from the points (every input is
  // read before any output is written); the others (an operand at infinity, equal x) are
  // copied first and done by batch_add_pairs after it. Without the lane kernel every pair goes
  // to batch_add_pairs, which copies its operands.
  static bool sum_pairs_round(std::vector<Affine>& points, const std::vector<uint32_t>& start,
                              const std::vector<uint32_t>& len, Workspace& ws) {
    const size_t B = len.size();
    size_t pairs = 0;
    for (size_t b = 0; b < B; ++b) pairs += len[b] / 2;
    if (pairs == 0) return false;
    ws.ops.clear();
    ws.jobs.clear();
    const bool lanes = msm_detail::use_batch_lanes<F>(pairs);
    for (size_t b = 0; b < B; ++b) {
      const size_t s = start[b];
      for (size_t i = 0; i < len[b] / 2; ++i) {
        const Affine &p = points[s + 2 * i], &q = points[s + 2 * i + 1];
        Affine* out = &points[s + i];
        if (lanes && !p.is_infinity() && !q.is_infinity() && p.x != q.x) {
          ws.jobs.push_back({msm_detail::words_of(p.x), msm_detail::words_of(q.x),
                             msm_detail::words_of(q.y), msm_detail::words_of(out->x)});
        } else {
          ws.ops.push_back({p, q, out});
        }
      }
    }
    if constexpr (msm_detail::kHasLaneBatchAdd<F>) {
      if (!ws.jobs.empty()) {
        msm_detail::batch_add_lanes<F>(ws.jobs.data(), ws.jobs.size(), ws.scratch.words,
                                       ws.scratch.public_values);
      }
    }
    if (!ws.ops.empty()) msm_detail::batch_add_pairs(ws.ops.data(), ws.ops.size(), ws.scratch);
    return true;
  }
  static constexpr size_t kSegments = 16;  // B is a power of two; so is min(16, B)
  msm_detail::WindowLayout layout_;
  size_t n_ = 0;
  std::vector<Affine> table_;  // table_[j * W + w] = 2^(offset_w) * bases[j]
};

}  // namespace enygma
