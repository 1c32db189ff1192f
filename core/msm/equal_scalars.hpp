// Terms of an MSM with equal scalars made into one: s P + s Q = s (P + Q). A witness repeats
// values (a value copied into several wires, the same input in several members' constraints),
// and each repetition would cost the MSM a term in every window; its point added to the first
// one's costs one batch-affine addition instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/curve/short_weierstrass.hpp"
#include "core/field/u256.hpp"
#include "core/msm/batch_affine.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma::msm_detail {

// The first slot of scalar s in a table of 2^log_slots (log_slots in 1..32): every word, each
// multiplied by its own odd constant, folded and mixed, so that structured scalars (x * 2^64,
// their negatives r - x * 2^64, small values) spread as random ones do. (Two of the four words
// alone put every x * 2^64 in one slot: the merge took seconds at 2^16 terms.)
inline size_t equal_scalar_slot(const U256& s, unsigned log_slots) {
  uint64_t x = s.w[0] ^ (s.w[1] * 0xC2B2AE3D27D4EB4Full) ^ (s.w[2] * 0x165667B19E3779F9ull) ^
               (s.w[3] * 0xD6E8FEB86659FD93ull);
  x ^= x >> 31;
  return size_t((x * 0x9E3779B97F4A7C15ull) >> (64 - log_slots));
}

// pts[i] and canonical[i] (i < pts.size()) are the terms. Terms whose scalars are equal are
// replaced by one: the first of them, its point the sum of theirs, kept in `merged` (which must
// outlive the pointers into it); a group whose points sum to infinity is dropped. The order of
// the remaining terms is kept. Returns how many terms were removed.
template <class F, class P>
size_t merge_equal_scalars(SecureVector<const AffinePoint<F, P>*>& pts,
                           SecureVector<U256>& canonical, SecureVector<AffinePoint<F, P>>& merged) {
  using Affine = AffinePoint<F, P>;
  const size_t m = pts.size();
  merged.clear();
  if (m < 2) return 0;
  // Open addressing over the scalars (equal_scalar_slot), at most half full. head[i]: the
  // first term with term i's scalar. The table holds term indices only, yet follows the
  // scalars: wiped like them.
  unsigned log_slots = 1;
  while ((size_t(1) << log_slots) < 2 * m) ++log_slots;
  const size_t mask = (size_t(1) << log_slots) - 1;
  constexpr uint32_t kEmpty = UINT32_MAX;
  SecureVector<uint32_t> slots(mask + 1, kEmpty), head(m);
  size_t repeats = 0;
  for (size_t i = 0; i < m; ++i) {
    const U256& s = canonical[i];
    size_t h = equal_scalar_slot(s, log_slots);
    for (;; h = (h + 1) & mask) {
      const uint32_t j = slots[h];
      if (j == kEmpty) {
        slots[h] = uint32_t(i);
        head[i] = uint32_t(i);
        break;
      }
      if (canonical[j] == s) {
        head[i] = j;
        ++repeats;
        break;
      }
    }
  }
  release(slots);
  if (repeats == 0) return 0;

  // The groups' points, each group contiguous in `work` (its first term's index in group_of),
  // summed by rounds of pairwise batch additions across all groups at once.
  SecureVector<uint32_t> size(m, 0), group_of(m, kEmpty);
  for (size_t i = 0; i < m; ++i) ++size[head[i]];
  SecureVector<size_t> begin, count;
  size_t end = 0;
  for (size_t i = 0; i < m; ++i) {
    if (head[i] == i && size[i] > 1) {
      group_of[i] = uint32_t(begin.size());
      begin.push_back(end);
      count.push_back(0);
      end += size[i];
    }
  }
  SecureVector<Affine> work(end);
  for (size_t i = 0; i < m; ++i) {
    const uint32_t g = group_of[head[i]];
    if (g != kEmpty) work[begin[g] + count[g]++] = *pts[i];
  }
  SecureVector<PairAdd<Affine>> ops;
  BatchAddScratch<F> scratch;
  while (pairwise_sum_round(work.data(), begin.data(), count.data(), begin.size(), ops, scratch)) {
  }
  merged.resize(begin.size());
  for (size_t g = 0; g < begin.size(); ++g) merged[g] = work[begin[g]];

  // Compact: a group's first term takes the sum, the others leave.
  size_t kept = 0;
  for (size_t i = 0; i < m; ++i) {
    if (head[i] != i) continue;
    const uint32_t g = group_of[i];
    if (g != kEmpty && merged[g].is_infinity()) continue;
    pts[kept] = g == kEmpty ? pts[i] : &merged[g];
    canonical[kept] = canonical[i];
    ++kept;
  }
  release(head);
  pts.resize(kept);
  canonical.resize(kept);
  return m - kept;
}

}  // namespace enygma::msm_detail
