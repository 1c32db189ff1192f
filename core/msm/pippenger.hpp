// Pippenger's bucket method for sum_i s_i * P_i, written once for any short Weierstrass group
// (G1 over Fp, G2 over Fp2).
//
// 1. Scalars leave Montgomery form; zero scalars and points at infinity are dropped, points
//    whose scalar is 1 are summed directly (witnesses are full of bits), and terms with equal
//    scalars become one over the sum of their points (core/msm/equal_scalars.hpp).
// 2. The rest are cut into signed digits of at most c bits (core/msm/signed_digits.hpp); c and
//    the split of the work come from a cost model (core/msm/plan.hpp). On the fast path each
//    scalar is first split by the GLV endomorphism (core/msm/glv.hpp) into two of half the
//    size, for P and phi(P) = (beta x, y): twice the terms, half the windows.
// 3. Window sums: a reference path with Jacobian buckets (small inputs; the oracle for tests)
//    and a fast path with batch-affine buckets (core/msm/bucket_accumulator.hpp) and a batch-affine
//    bucket reduction (core/msm/bucket_reduction.hpp).
// 4. Horner over the windows: sum_w 2^(offset_w) S_w.
//
// Parallelism: the work is cut into tasks of (a range of windows) x (a range of points); each
// task owns its buckets, so tasks share nothing but read-only inputs.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/curve/short_weierstrass.hpp"
#include "core/field/fr.hpp"
#include "core/msm/batch_affine.hpp"
#include "core/msm/bucket_accumulator.hpp"
#include "core/msm/bucket_reduction.hpp"
#include "core/msm/equal_scalars.hpp"
#include "core/msm/glv.hpp"
#include "core/msm/plan.hpp"
#include "core/msm/signed_digits.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma {

namespace msm_detail {

// Scalars in canonical form, split by kind. The scalars and everything derived from them (GLV
// halves, digits, which terms are 0, 1 or more, the buckets, the batch additions' operands)
// follow the witness, so every buffer of core/msm's MSMs is a SecureVector (or wiped by its
// owner): wiped when released.
struct PreparedScalars {
  SecureVector<U256> canonical;  // all n
  SecureVector<uint32_t> rest;   // scalar >= 2, finite point
  SecureVector<uint32_t> ones;   // scalar == 1, finite point
  unsigned max_bits = 0;         // over rest
};

inline unsigned bit_length(const U256& s) {
  for (int i = 3; i >= 0; --i) {
    if (s.w[i] != 0) return unsigned(i) * 64 + 64 - unsigned(__builtin_clzll(s.w[i]));
  }
  return 0;
}

template <class Affine>
PreparedScalars prepare_scalars(const Affine* points, const Fr* scalars, size_t n,
                                ThreadPool& pool) {
  PreparedScalars out;
  out.canonical.resize(n);
  const size_t chunks = std::min<size_t>((n + 1023) / 1024, size_t(pool.size()) * 4);
  SecureVector<SecureVector<uint32_t>> rest(chunks), ones(chunks);
  SecureVector<unsigned> bits(chunks, 0);
  pool.run_tasks(chunks, [&](size_t t) {
    const size_t begin = n * t / chunks, end = n * (t + 1) / chunks;
    for (size_t i = begin; i < end; ++i) {
      // 0 and 1 are recognised in Montgomery form (witnesses are full of both), without the
      // multiplication that leaves it.
      if (scalars[i].is_zero() || points[i].is_infinity()) continue;
      if (scalars[i] == Fr::one()) {
        ones[t].push_back(uint32_t(i));
      } else {
        const U256 s = scalars[i].to_u256();
        out.canonical[i] = s;
        rest[t].push_back(uint32_t(i));
        bits[t] = std::max(bits[t], bit_length(s));
      }
    }
  });
  for (size_t t = 0; t < chunks; ++t) {
    out.rest.insert(out.rest.end(), rest[t].begin(), rest[t].end());
    out.ones.insert(out.ones.end(), ones[t].begin(), ones[t].end());
    out.max_bits = std::max(out.max_bits, bits[t]);
  }
  return out;
}

// digits[i * windows + w] for the scalars canonical[idx[i]].
inline SecureVector<int16_t> compute_digits(const U256* canonical,
                                            const SecureVector<uint32_t>& idx,
                                            const WindowLayout& layout, ThreadPool& pool) {
  const size_t windows = layout.count();
  const DigitPlan plan(layout);
  SecureVector<int16_t> digits(idx.size() * windows);
  pool.parallel_for(
      idx.size(),
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) plan.digits(canonical[idx[i]], &digits[i * windows]);
      },
      4096);
  return digits;
}

// sum_w 2^(offset_w) S_w
template <class J>
J horner(const SecureVector<J>& window_sums, const WindowLayout& layout) {
  J acc = J::infinity();
  for (size_t w = window_sums.size(); w-- > 0;) {
    for (unsigned i = 0; i < layout.width[w]; ++i) acc = acc.dbl();
    acc += window_sums[w];
  }
  return acc;
}

// Sum of points[idx[i]] for all i, in parallel.
template <class F, class P>
JacobianPoint<F, P> sum_indexed_points(const AffinePoint<F, P>* points,
                                       const SecureVector<uint32_t>& idx, ThreadPool& pool) {
  using Jacobian = JacobianPoint<F, P>;
  const size_t n = idx.size();
  if (n == 0) return Jacobian::infinity();
  const size_t tasks = std::min<size_t>((n + 2047) / 2048, pool.size());
  SecureVector<Jacobian> partial(tasks);
  pool.run_tasks(tasks, [&](size_t t) {
    SecureVector<AffinePoint<F, P>> copy;
    copy.reserve(n / tasks + 1);
    for (size_t i = n * t / tasks; i < n * (t + 1) / tasks; ++i) copy.push_back(points[idx[i]]);
    partial[t] = sum_affine_points(copy);
  });
  Jacobian acc = Jacobian::infinity();
  for (const Jacobian& p : partial) acc += p;
  return acc;
}

// Window sums with Jacobian buckets, windows in parallel.
template <class F, class P>
SecureVector<JacobianPoint<F, P>> window_sums_jacobian(const AffinePoint<F, P>* points,
                                                       const uint32_t* idx, size_t m,
                                                       const int16_t* digits,
                                                       const WindowLayout& layout,
                                                       ThreadPool& pool) {
  using Jacobian = JacobianPoint<F, P>;
  const unsigned windows = layout.count();
  SecureVector<Jacobian> sums(windows);
  pool.run_tasks(windows, [&](size_t w) {
    const size_t B = size_t(1) << (layout.width[w] - 1);
    SecureVector<Jacobian> buckets(B, Jacobian::infinity());
    for (size_t i = 0; i < m; ++i) {
      const int d = digits[i * windows + w];
      if (d == 0) continue;
      const AffinePoint<F, P>& p = points[idx[i]];
      if (d > 0) {
        buckets[size_t(d - 1)] = buckets[size_t(d - 1)].add_mixed(p);
      } else {
        buckets[size_t(-d - 1)] = buckets[size_t(-d - 1)].add_mixed(-p);
      }
    }
    sums[w] = reduce_buckets_jacobian(buckets.data(), B);
  });
  return sums;
}

// Whether the fast path splits scalars by the endomorphism: G1 always unless told not to (its
// points are all of order r); G2 only when the caller vouches for the points' subgroup.
template <class F>
bool use_glv(const MsmOptions& opt) {
  if (opt.endomorphism == MsmOptions::Endomorphism::kOff) return false;
  return std::is_same_v<F, Fp> || opt.endomorphism == MsmOptions::Endomorphism::kOn;
}

// The reference: every term through Jacobian buckets, no special cases for 0 or 1 scalars.
template <class F, class P>
JacobianPoint<F, P> msm_reference(const AffinePoint<F, P>* points, const Fr* scalars, size_t n,
                                  ThreadPool& pool, unsigned window_bits = 0) {
  SecureVector<U256> canonical(n);
  SecureVector<uint32_t> idx(n);
  for (size_t i = 0; i < n; ++i) {
    canonical[i] = scalars[i].to_u256();
    idx[i] = uint32_t(i);
  }
  const unsigned bits = Fr::kBits;
  const unsigned c = window_bits ? window_bits : reference_window_bits(n, bits);
  const WindowLayout layout = signed_windows(bits, c);
  const SecureVector<int16_t> digits = compute_digits(canonical.data(), idx, layout, pool);
  return horner(window_sums_jacobian(points, idx.data(), n, digits.data(), layout, pool), layout);
}

// One MSM in three steps, so that a caller can run several on one pool at once (the prover):
//   prepare(pool)  scalars out of Montgomery form, the ones summed, the GLV split (batch-affine
//                  path), digits, plan; small inputs are finished here. Returns the number of
//                  tasks. Runs its loops on the pool, or inline when called from a pool job.
//   run(t)         for each t < tasks, once, on any threads: (window group) x (point chunk) of
//                  the batch-affine window sums; a task owns its buckets.
//   finish()       the tasks' window sums combined (Horner); the witness-derived buffers freed.
// msm() below is prepare, the tasks on the pool, finish.
//
// The input may come in two parts (two point arrays with their scalars) whose sum is wanted:
// one MSM over both shares one set of bucket reductions, and its larger size may take a wider
// window (the prover's C and H queries).
//
// Batch-affine terms: without GLV, term i is *pts_[i] with digits digits[i * W ...]; with it,
// base point i has two terms, 2i = *pts_[i] and 2i + 1 = phi of it (endo_x[i], its y), with
// digits at (2i + t) * W.
template <class F, class P>
class MsmJob {
 public:
  using Affine = AffinePoint<F, P>;
  using Jacobian = JacobianPoint<F, P>;

  MsmJob(const Affine* points, const Fr* scalars, size_t n, const MsmOptions& opt = {})
      : parts_{{Part{points, scalars, n}, Part{}}}, opt_(opt) {}
  MsmJob(const Affine* points, const Fr* scalars, size_t n, const Affine* points2,
         const Fr* scalars2, size_t n2, const MsmOptions& opt = {})
      : parts_{{Part{points, scalars, n}, Part{points2, scalars2, n2}}}, opt_(opt) {}
  MsmJob(const MsmJob&) = delete;
  MsmJob& operator=(const MsmJob&) = delete;
  // The sum is of the caller's scalars (a proof's witness, before r and s blind it): wiped
  // with the job, whether finished or not (a cancelled proof).
  ~MsmJob() { sodium_memzero(&result_, sizeof(result_)); }

  size_t prepare(ThreadPool& pool) {
    result_ = Jacobian::infinity();
    if (opt_.path == MsmOptions::Path::kReference) {
      for (const Part& part : parts_) {
        if (part.n > 0) {
          result_ += msm_reference(part.points, part.scalars, part.n, pool, opt_.window_bits);
        }
      }
      return 0;
    }
    unsigned max_bits = 0;
    std::array<PreparedScalars, 2> prep;
    for (size_t k = 0; k < parts_.size(); ++k) {
      const Part& part = parts_[k];
      if (part.n == 0) continue;
      prep[k] = prepare_scalars(part.points, part.scalars, part.n, pool);
      result_ += sum_indexed_points(part.points, prep[k].ones, pool);
      max_bits = std::max(max_bits, prep[k].max_bits);
      m_ += prep[k].rest.size();
    }
    // The batch-affine terms of both parts, in order: their points and canonical scalars.
    SecureVector<U256> canonical;
    canonical.reserve(m_);
    pts_.reserve(m_);
    for (size_t k = 0; k < parts_.size(); ++k) {
      for (uint32_t i : prep[k].rest) {
        pts_.push_back(&parts_[k].points[i]);
        canonical.push_back(prep[k].canonical[i]);
      }
      release(prep[k].canonical);
    }
    if (opt_.merge_equal_scalars) m_ -= merge_equal_scalars(pts_, canonical, merged_);
    if (m_ == 0) return 0;
    const bool fast = opt_.path == MsmOptions::Path::kBatchAffine ||
                      (opt_.path == MsmOptions::Path::kAuto && m_ >= kBatchAffineMinTerms);
    SecureVector<uint32_t> identity(m_);
    for (size_t i = 0; i < m_; ++i) identity[i] = uint32_t(i);
    if (!fast) {  // a few terms: Jacobian buckets over a copy of the points
      const unsigned c = opt_.window_bits ? opt_.window_bits : reference_window_bits(m_, max_bits);
      layout_ = signed_windows(max_bits, c);
      digits_ = compute_digits(canonical.data(), identity, layout_, pool);
      SecureVector<Affine> copy(m_);
      for (size_t i = 0; i < m_; ++i) copy[i] = *pts_[i];
      result_ += horner(
          window_sums_jacobian(copy.data(), identity.data(), m_, digits_.data(), layout_, pool),
          layout_);
      release(digits_);
      return 0;
    }
    if (use_glv<F>(opt_)) {
      prepare_glv(canonical, pool);
    } else {
      plan_ = plan_batch_affine(m_, max_bits, plan_threads(pool), sizeof(Affine), opt_);
      layout_ = signed_windows(max_bits, plan_.layout_c);
      digits_ = compute_digits(canonical.data(), identity, layout_, pool);
      terms_ = 1;
    }
    release(canonical);
    neg_y_.resize(m_);
    pool.parallel_for(
        m_,
        [&](size_t begin, size_t end) {
          for (size_t i = begin; i < end; ++i) neg_y_[i] = -pts_[i]->y;
        },
        4096);
    partial_.assign(size_t(layout_.count()) * plan_.point_chunks, Jacobian::infinity());
    return size_t(plan_.window_groups) * plan_.point_chunks;
  }

  void run(size_t task) {
    const unsigned W = layout_.count();
    const size_t B = size_t(1) << (layout_.max_width - 1);
    const unsigned groups = plan_.window_groups, chunks = plan_.point_chunks;
    const unsigned g = unsigned(task / chunks), p = unsigned(task % chunks);
    const unsigned w0 = unsigned(size_t(W) * g / groups),
                   w1 = unsigned(size_t(W) * (g + 1) / groups);
    const size_t p0 = m_ * p / chunks, p1 = m_ * (p + 1) / chunks;
    const size_t wpp = plan_.windows_per_pass;
    CacheAlignedArray<Affine> buckets(wpp * B);
    SecureVector<uint8_t> state(wpp * B);
    BucketAccumulator<F, P> acc(plan_.batch, plan_.queue);
    const int16_t* digits = digits_.data();
    for (unsigned ws = w0; ws < w1; ws += unsigned(wpp)) {
      const unsigned nw = std::min<unsigned>(unsigned(wpp), w1 - ws);
      std::memset(static_cast<void*>(buckets.data()), 0, nw * B * sizeof(Affine));
      std::memset(state.data(), 0, nw * B);
      acc.attach(buckets.data(), state.data());
      for (size_t i = p0; i < p1; ++i) {
        const Affine* pt = pts_[i];
        const F* y[2] = {&pt->y, &neg_y_[i]};
        for (size_t t = 0; t < terms_; ++t) {
          const F* x = t ? &endo_x_[i] : &pt->x;
          const int16_t* dg = digits + (i * terms_ + t) * W + ws;
          for (unsigned w = 0; w < nw; ++w) {
            const int d = dg[w];
            if (d == 0) continue;
            const uint32_t mag = uint32_t(d < 0 ? -d : d);
            acc.add(uint32_t(w * B) + mag - 1, x, y[d < 0]);
          }
        }
      }
      acc.finish();
      reduce_buckets_batch_affine(buckets.data(), nw, B, plan_.segments,
                                  &partial_[size_t(p) * W + ws]);
    }
  }

  Jacobian finish() {
    if (!partial_.empty()) {
      const unsigned W = layout_.count();
      SecureVector<Jacobian> sums(partial_.begin(), partial_.begin() + W);
      for (unsigned p = 1; p < plan_.point_chunks; ++p) {
        for (unsigned w = 0; w < W; ++w) sums[w] += partial_[size_t(p) * W + w];
      }
      result_ += horner(sums, layout_);
      release(partial_);
    }
    release(digits_);
    release(neg_y_);
    release(endo_x_);
    release(pts_);
    release(merged_);
    const Jacobian out = result_;
    sodium_memzero(&result_, sizeof(result_));
    return out;
  }

 private:
  struct Part {
    const Affine* points = nullptr;
    const Fr* scalars = nullptr;
    size_t n = 0;
  };

  unsigned plan_threads(const ThreadPool& pool) const {
    return opt_.threads ? opt_.threads : pool.size();
  }

  // The scalars split into halves (signs folded into the digits) and phi's x coordinates.
  void prepare_glv(SecureVector<U256>& canonical, ThreadPool& pool) {
    const size_t chunks = std::min<size_t>((m_ + 1023) / 1024, size_t(pool.size()) * 4);
    SecureVector<GlvSplit> split(m_);
    SecureVector<unsigned> bits(chunks, 0);
    pool.run_tasks(chunks, [&](size_t t) {
      for (size_t i = m_ * t / chunks; i < m_ * (t + 1) / chunks; ++i) {
        split[i] = glv_split(canonical[i]);
        bits[t] = std::max({bits[t], bit_length(split[i].k1), bit_length(split[i].k2)});
      }
    });
    release(canonical);  // peak memory: the halves replace the scalars
    unsigned max_bits = 1;
    for (unsigned b : bits) max_bits = std::max(max_bits, b);
    plan_ = plan_batch_affine(2 * m_, max_bits, plan_threads(pool), sizeof(Affine), opt_);
    layout_ = signed_windows(max_bits, plan_.layout_c);
    const DigitPlan digit_plan(layout_);
    const size_t W = layout_.count();
    terms_ = 2;
    digits_.resize(2 * m_ * W);
    endo_x_.resize(m_);
    pool.parallel_for(
        m_,
        [&](size_t begin, size_t end) {
          for (size_t i = begin; i < end; ++i) {
            digit_plan.digits(split[i].k1, &digits_[2 * i * W], split[i].neg1);
            digit_plan.digits(split[i].k2, &digits_[(2 * i + 1) * W], split[i].neg2);
            endo_x_[i] = glv_endo_x(pts_[i]->x);
          }
        },
        2048);
  }

  std::array<Part, 2> parts_;
  MsmOptions opt_;
  Jacobian result_ = Jacobian::infinity();
  SecureVector<const Affine*> pts_;  // the points of the batch-affine terms
  SecureVector<Affine> merged_;      // sums of points with equal scalars (merge_equal_scalars)
  size_t m_ = 0, terms_ = 1;
  BatchAffinePlan plan_;
  WindowLayout layout_;
  SecureVector<int16_t> digits_;
  SecureVector<F> neg_y_, endo_x_;
  SecureVector<Jacobian> partial_;  // [chunk * W + window]
};

template <class F, class P>
JacobianPoint<F, P> msm(const AffinePoint<F, P>* points, const Fr* scalars, size_t n,
                        ThreadPool& pool, const MsmOptions& opt = {}) {
  MsmJob<F, P> job(points, scalars, n, opt);
  const size_t tasks = job.prepare(pool);
  pool.run_tasks(tasks, [&](size_t t) { job.run(t); });
  return job.finish();
}

}  // namespace msm_detail
}  // namespace enygma
