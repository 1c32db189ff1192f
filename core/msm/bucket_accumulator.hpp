// The bucket-filling scheduler of batch-affine Pippenger: bucket[b] += P is queued into a
// batch of independent affine additions that share one inversion (core/msm/batch_affine.hpp
// has the arithmetic). An addition into a bucket that already has one pending in the current
// batch is deferred to a queue and retried after the batch ("batch-affine" Pippenger; cf.
// Aztec's and gnark-crypto's MSMs and the ZPrize 2022 MSM write-ups). Heavy conflicts on few
// buckets (many equal scalars) are summed in Jacobian coordinates instead, so no input
// degrades to one inversion per addition.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <new>
#include <type_traits>
#include <vector>

#include "core/curve/short_weierstrass.hpp"
#include "core/msm/batch_affine_lanes.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma::msm_detail {

// A heap array aligned to the cache line, so that a G1 bucket (64 bytes) is one line.
template <class T>
class CacheAlignedArray {
 public:
  CacheAlignedArray() = default;
  explicit CacheAlignedArray(size_t n) { resize(n); }
  ~CacheAlignedArray() { release(); }
  CacheAlignedArray(const CacheAlignedArray&) = delete;
  CacheAlignedArray& operator=(const CacheAlignedArray&) = delete;
  void resize(size_t n) {
    if (n <= capacity_) {
      size_ = n;
      return;
    }
    release();
    data_ = static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(64)));
    capacity_ = size_ = n;
  }
  T* data() { return data_; }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }

 private:
  void release() {
    if (data_) {
      sodium_memzero(data_, capacity_ * sizeof(T));  // buckets follow the scalars' digits
      ::operator delete(data_, std::align_val_t(64));
    }
    data_ = nullptr;
    capacity_ = size_ = 0;
  }
  T* data_ = nullptr;
  size_t size_ = 0, capacity_ = 0;
};

// Fills affine buckets: bucket[b] += (*x, *y), batched, where x is a point's x (or its image
// under the GLV endomorphism) and y its y or the caller's copy of -y (negating once per point
// beats negating once per digit). Buckets hold (0, 0) when empty. The caller owns the bucket
// array and its state bytes (zero = empty, not busy); the coordinates must stay alive until
// finish().
template <class F, class P>
class BucketAccumulator {
 public:
  using Affine = AffinePoint<F, P>;
  using Jacobian = JacobianPoint<F, P>;

  BucketAccumulator(size_t batch_capacity, size_t queue_capacity)
      : batch_capacity_(std::max<size_t>(batch_capacity, 1)),
        queue_capacity_(std::max<size_t>(queue_capacity, 4)) {
    batch_.reserve(batch_capacity_);
    queue_.reserve(queue_capacity_ + batch_capacity_);
    pending_.reserve(queue_capacity_ + batch_capacity_);
    denominators_.resize(batch_capacity_);
    prefix_.resize(batch_capacity_);
  }

  void attach(Affine* buckets, uint8_t* state) {
    buckets_ = buckets;
    state_ = state;
  }

  inline void add(uint32_t bucket, const F* x, const F* y) {
    const uint8_t s = state_[bucket];
    if (s & kBusy) {
      queue_.push_back({x, y, bucket, 0});
      if (queue_.size() >= queue_capacity_) flush();
      return;
    }
    if (!(s & kFull)) {  // empty bucket: no addition needed
      buckets_[bucket] = {*x, *y};
      state_[bucket] = kFull;
      return;
    }
    state_[bucket] = kFull | kBusy;
    __builtin_prefetch(&buckets_[bucket], 1);
    if constexpr (sizeof(Affine) > 64) __builtin_prefetch(&buckets_[bucket].y, 1);
    batch_.push_back({x, y, bucket, 0});
    if (batch_.size() == batch_capacity_) flush();
  }

  // Performs every pending addition.
  void finish() {
    while (!batch_.empty() || !queue_.empty()) {
      flush();
      // Draining the rest one batch at a time would cost an inversion per few additions.
      if (queue_.size() >= 8 && queue_.size() > batch_.size()) spill();
    }
    spill_.clear();
  }

 private:
  enum : uint8_t { kFull = 1, kBusy = 2 };
  enum : uint8_t { kAdd = 0, kDouble = 1, kCancel = 2 };
  struct Entry {
    const F* x;
    const F* y;  // the point's y or its negation
    uint32_t bucket;
    uint32_t kind;
  };

  // Executes the batch, then moves deferred additions into the next batch.
  void flush() {
    execute();
    pending_.swap(queue_);
    queue_.clear();
    for (const Entry& e : pending_) {
      const uint8_t s = state_[e.bucket];
      if (s & kBusy) {
        queue_.push_back(e);
      } else if (!(s & kFull)) {
        buckets_[e.bucket] = {*e.x, *e.y};
        state_[e.bucket] = kFull;
      } else {
        state_[e.bucket] = kFull | kBusy;
        batch_.push_back(e);
        if (batch_.size() == batch_capacity_) execute();
      }
    }
    pending_.clear();
    // Still many conflicts after a full drain: a few buckets receive most points.
    if (queue_.size() >= queue_capacity_ / 2) spill();
  }

  // Sums the queued points of each bucket in Jacobian coordinates and queues one affine point
  // per bucket instead.
  void spill() {
    std::sort(queue_.begin(), queue_.end(),
              [](const Entry& a, const Entry& b) { return a.bucket < b.bucket; });
    SecureVector<Jacobian> sums;
    SecureVector<uint32_t> owners;
    for (size_t i = 0; i < queue_.size();) {
      size_t j = i;
      Jacobian acc = Jacobian::infinity();
      for (; j < queue_.size() && queue_[j].bucket == queue_[i].bucket; ++j) {
        acc = acc.add_mixed(Affine{*queue_[j].x, *queue_[j].y});
      }
      if (!acc.is_infinity()) {
        sums.push_back(acc);
        owners.push_back(queue_[i].bucket);
      }
      i = j;
    }
    SecureVector<Affine> affine(sums.size());
    Jacobian::batch_to_affine(sums.data(), affine.data(), sums.size());
    queue_.clear();
    for (size_t i = 0; i < affine.size(); ++i) {
      spill_.push_back(affine[i]);  // deque: addresses stay valid while queued
      queue_.push_back({&spill_.back().x, &spill_.back().y, owners[i], 0});
    }
  }

  void execute() {
    if constexpr (kHasLaneBatchAdd<F>) {
      if (use_batch_lanes<F>(batch_.size())) return execute_lanes();
    }
    execute_scalar();
  }

  // G1 and G2 on the lane kernel: the plain additions several at a time; the exceptional ones
  // (equal x: a doubling or a cancellation) by the scalar code afterwards. Every bucket in the
  // batch is distinct, so the order does not matter.
  void execute_lanes() {
    jobs_.clear();
    size_t exceptional = 0;
    for (const Entry& e : batch_) {
      Affine& b = buckets_[e.bucket];
      if (__builtin_expect(*e.x == b.x, 0)) {
        batch_[exceptional++] = e;
        continue;
      }
      jobs_.push_back({words_of(b.x), words_of(*e.x), words_of(*e.y), words_of(b.x)});
      state_[e.bucket] = kFull;
    }
    if constexpr (kHasLaneBatchAdd<F>) {
      batch_add_lanes<F>(jobs_.data(), jobs_.size(), lane_scratch_);
    }
    batch_.resize(exceptional);
    execute_scalar();
  }
  SecureVector<AffineAddJob> jobs_;
  SecureVector<uint64_t> lane_scratch_;

  void execute_scalar() {
    const size_t k = batch_.size();
    if (k == 0) return;
    Entry* batch = batch_.data();
    F* den = denominators_.data();
    F* prefix = prefix_.data();
    F acc = F::one();
    for (size_t j = 0; j < k; ++j) {
      Entry& e = batch[j];
      const Affine& b = buckets_[e.bucket];
      F d = *e.x - b.x;
      e.kind = kAdd;
      if (__builtin_expect(d.is_zero(), 0)) {
        if (*e.y == b.y && !b.y.is_zero()) {
          e.kind = kDouble;
          d = b.y.dbl();
        } else {
          e.kind = kCancel;
          d = F::one();
        }
      }
      den[j] = d;
      prefix[j] = acc;
      acc *= d;
    }
    F inv = acc.inverse();
    for (size_t j = k; j-- > 0;) {
      const Entry& e = batch[j];
      Affine& b = buckets_[e.bucket];
      const F inv_j = inv * prefix[j];
      inv *= den[j];
      if (__builtin_expect(e.kind != kAdd, 0)) {
        if (e.kind == kCancel) {
          b = Affine::infinity();
          state_[e.bucket] = 0;
          continue;
        }
        const F xx = b.x.square();
        const F lambda = (xx.dbl() + xx) * inv_j;
        const F x3 = lambda.square() - b.x.dbl();
        b.y = lambda * (b.x - x3) - b.y;
        b.x = x3;
        state_[e.bucket] = kFull;
        continue;
      }
      const F lambda = (*e.y - b.y) * inv_j;
      const F x3 = lambda.square() - b.x - *e.x;
      b.y = lambda * (b.x - x3) - b.y;
      b.x = x3;
      state_[e.bucket] = kFull;
    }
    batch_.clear();
  }

  const size_t batch_capacity_, queue_capacity_;
  Affine* buckets_ = nullptr;
  uint8_t* state_ = nullptr;
  SecureVector<Entry> batch_, queue_, pending_;
  SecureVector<F> denominators_, prefix_;
  std::deque<Affine, WipingAllocator<Affine>> spill_;
};

}  // namespace enygma::msm_detail
