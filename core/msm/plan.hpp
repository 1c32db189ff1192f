// Choices for Pippenger: the window size and how the work is cut into tasks, from a cost model
// counted in batch-affine additions. MsmOptions lets tests and benchmarks force any of them.
#pragma once

#include <algorithm>
#include <cstddef>

#include "core/msm/signed_digits.hpp"

namespace enygma {

// Knobs for tests and benchmarks; the defaults choose everything from the input.
struct MsmOptions {
  enum class Path { kAuto, kReference, kBatchAffine };
  Path path = Path::kAuto;
  unsigned window_bits = 0;       // c in 1..16 (more: 16); 0 = chosen from the input size
  size_t batch_size = 0;          // batch-affine additions per inversion; 0 = automatic
  unsigned windows_per_pass = 0;  // windows whose buckets are filled together; 0 = automatic
  unsigned tasks_per_thread = 0;  // 0 = automatic
  // The GLV split of the batch-affine path (core/msm/glv.hpp). kAuto: G1 only, whose points are
  // all of order r; kOn: G2 too, for points known to be in the order-r subgroup (a proving
  // key's: the endomorphism is multiplication by lambda only there); kOff: never.
  enum class Endomorphism { kAuto, kOn, kOff };
  Endomorphism endomorphism = Endomorphism::kAuto;
  // Terms with equal scalars summed into one (core/msm/equal_scalars.hpp); off only to measure.
  bool merge_equal_scalars = true;
  // Plan the work for this many threads (0: the pool's size). A caller that runs several MSMs
  // at once gives 1 to those it runs whole on one thread: splitting the windows costs more
  // bucket work in total (smaller passes, smaller batches).
  unsigned threads = 0;
};

namespace msm_detail {

// Below this many non-trivial terms the Jacobian path is used: it is simpler and the gap is
// small there (measured with callgrind: batch-affine needs ~10% fewer instructions at 8 terms,
// ~40% fewer at 512).
constexpr size_t kBatchAffineMinTerms = 64;

// Window size for Jacobian buckets: mixed addition per term (~11 multiplications), two
// additions per bucket in the reduction (~27).
inline unsigned reference_window_bits(size_t m, unsigned bits) {
  unsigned best_c = 1;
  double best = 0;
  for (unsigned c = 1; c <= 16; ++c) {
    const double w = signed_windows(bits, c).count();
    const double cost = w * (double(m) * 11.0 + 27.0 * double(size_t(1) << (c - 1)));
    if (c == 1 || cost < best) {
      best = cost;
      best_c = c;
    }
  }
  return best_c;
}

struct BatchAffinePlan {
  unsigned layout_c = 0;       // the windows are signed_windows(bits, layout_c)
  unsigned c = 0;              // widest window
  unsigned window_groups = 1;  // windows split into this many ranges
  unsigned point_chunks = 1;   // points split into this many ranges
  unsigned windows_per_pass = 1;
  size_t batch = 0, queue = 0;
  size_t segments = 1;  // reduction chains per window
  double cost = 0;      // model estimate, in batch-affine additions
};

// Cost model in units of one batch-affine bucket addition (~6 multiplications). The constants
// are multiplication counts (an inversion by Fermat is ~380 multiplications, ~60-75 additions
// once the additions' subtractions are counted); the choices they lead to were checked with the
// window and batch sweeps of bench/msm_bench.cpp (within noise of the best at 2^12..2^18).
struct BatchAffineCosts {
  double inversion = 75;                 // one field inversion (Fermat)
  double reduction = 2.3;                // per bucket: two batched additions with copies
  double jacobian = 2.5;                 // one Jacobian addition (segment combination)
  double task = 2000;                    // allocation, clearing, Horner
  size_t cache_bytes = size_t(2) << 20;  // buckets of one pass should stay in L2/L3
  size_t max_batch = 2048;
};

inline BatchAffinePlan plan_for(size_t m, unsigned windows, unsigned c, unsigned groups,
                                unsigned chunks, unsigned threads, size_t point_bytes,
                                const MsmOptions& opt, const BatchAffineCosts& k = {}) {
  BatchAffinePlan plan;
  plan.c = c;
  plan.window_groups = groups;
  plan.point_chunks = chunks;
  const size_t B = size_t(1) << (c - 1);
  const unsigned per_group = (windows + groups - 1) / groups;
  size_t wpp = opt.windows_per_pass;
  if (wpp == 0) {
    wpp = std::max<size_t>(1, k.cache_bytes / (B * point_bytes));
    const size_t passes = (per_group + wpp - 1) / wpp;
    wpp = (per_group + passes - 1) / passes;  // equal passes: small ones batch poorly
  }
  wpp = std::min<size_t>(wpp, per_group);
  plan.windows_per_pass = unsigned(wpp);
  plan.batch = opt.batch_size ? opt.batch_size : std::clamp<size_t>(wpp * B / 8, 8, k.max_batch);
  plan.queue = std::max<size_t>(plan.batch / 4, 32);
  // Reduction chains per window: fewer chains mean more steps (one inversion each), more
  // chains mean more Jacobian work combining them; balance the two.
  size_t segments = 1;
  while (segments * 2 <= B / 2 &&
         double(segments) * double(segments) * 2 <= 10.0 * double(B) / double(wpp)) {
    segments *= 2;
  }
  plan.segments = segments;
  const double points = double(m) / chunks;
  const double passes = double((per_group + wpp - 1) / wpp);
  const double adds = points * per_group * (1.0 - 1.0 / double(B));
  const double task = adds * (1.0 + k.inversion / double(plan.batch)) +
                      k.reduction * per_group * double(B) +
                      passes * double(B / segments + 1) * k.inversion +
                      3.0 * k.jacobian * per_group * double(segments) + k.task;
  plan.cost = double((groups * chunks + threads - 1) / threads) * task;
  return plan;
}

inline BatchAffinePlan plan_batch_affine(size_t m, unsigned bits, unsigned threads,
                                         size_t point_bytes, const MsmOptions& opt) {
  BatchAffinePlan best;
  const unsigned c_lo = opt.window_bits ? opt.window_bits : 4;
  const unsigned c_hi = opt.window_bits ? opt.window_bits : 16;
  const unsigned max_chunks =
      std::max(1u, threads * (opt.tasks_per_thread ? opt.tasks_per_thread : 4));
  for (unsigned c_max = c_lo; c_max <= c_hi; ++c_max) {
    // Few-bit scalars may not fill c_max-bit windows; plan with the widths actually used.
    const WindowLayout layout = signed_windows(bits, c_max);
    const unsigned c = layout.max_width, windows = layout.count();
    if (c != c_max && c_max != c_lo) continue;  // same layout as a smaller c_max
    for (unsigned g = 1; g <= windows; ++g) {
      for (unsigned p = 1; p <= max_chunks; ++p) {
        if (p > 1 && m / p < 256) break;
        if (opt.tasks_per_thread && g * p < threads * opt.tasks_per_thread) continue;
        BatchAffinePlan plan = plan_for(m, windows, c, g, p, threads, point_bytes, opt);
        plan.layout_c = c_max;
        if (best.c == 0 || plan.cost < best.cost * 0.999) best = plan;
      }
    }
  }
  if (best.c == 0) {  // tasks_per_thread asked for more tasks than the input allows
    const WindowLayout layout = signed_windows(bits, c_lo);
    best = plan_for(m, layout.count(), layout.max_width, 1, 1, threads, point_bytes, opt);
    best.layout_c = c_lo;
  }
  return best;
}

}  // namespace msm_detail
}  // namespace enygma
