// Batch-affine additions on a multi-lane field kernel, for G1 (over Fp) and G2 (over Fp2): the
// same arithmetic as core/msm/batch_affine.hpp (one shared inversion, ~6 multiplications of
// the coordinate field per addition), several additions at once. The field kernels' dispatch
// point (core/field/kernels.hpp) says whether a lane kernel exists in this build and runs now;
// its implementation is core/msm/batch_affine_ifma.cpp (AVX-512 IFMA, eight lanes). The
// callers (core/msm/bucket_accumulator.hpp, batch_add_pairs) keep the scalar code otherwise,
// and for the rare exceptional additions (equal x: doubling or cancellation).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/curve/fp2.hpp"
#include "core/field/fp.hpp"
#include "core/field/kernels.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma::msm_detail {

// *out = a + b for affine points stored as Montgomery words, canonical, as in AffinePoint:
// x then y, each 4 words (G1) or 8 words (G2, c0 then c1). a_xy points at a's x (y follows
// it); b_x and b_y may be apart (the MSM adds a point with either its y or its negated copy).
struct AffineAddJob {
  const uint64_t* a_xy;
  const uint64_t* b_x;
  const uint64_t* b_y;
  uint64_t* out;
};

// Perform every job. Precondition (the callers check it): a and b are finite points with
// different x coordinates. Every input is read before any output is written, so outputs may
// alias any job's inputs. scratch is reused between calls.
// public_values: the inversion may take variable time (see BatchAddScratch).
// Defined by the lane backend of the build; called only where kernels::kHaveBatchLanes.
void g1_batch_add_lanes(const AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& scratch,
                        bool public_values = false);
void g2_batch_add_lanes(const AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& scratch,
                        bool public_values = false);

// The f64-lane kernel (core/msm/batch_affine_f64.cpp, two additions at once) by name: the lane
// kernel of the WebAssembly module built with relaxed SIMD, and elsewhere a C++ model of it,
// which the tests compare with the scalar additions. Same contract as above.
void g1_batch_add_f64(const AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& scratch,
                      bool public_values = false);
void g2_batch_add_f64(const AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& scratch,
                      bool public_values = false);

// Room in scratch for `groups` values of a lane kernel's per-group type G, aligned to kAlign
// bytes (given: GCC caps alignof of a 512-bit vector type at 16 where AVX-512 is not enabled for
// the whole file, as for the IFMA kernel's).
template <class G, size_t kAlign>
G* group_storage(SecureVector<uint64_t>& scratch, size_t groups) {
  static_assert(sizeof(G) % kAlign == 0 && kAlign % 8 == 0);
  constexpr size_t kAlignWords = kAlign / 8;
  scratch.resize(groups * sizeof(G) / 8 + kAlignWords);
  uint64_t* base = scratch.data();
  base += (kAlignWords - (reinterpret_cast<uintptr_t>(base) / 8) % kAlignWords) % kAlignWords;
  return reinterpret_cast<G*>(base);
}

// Below this many additions the callers keep the scalar code (the lanes would be mostly
// padding).
inline constexpr size_t kLaneMinOps = 16;

// Whether coordinates of type F have a lane kernel (G1: Fp, G2: Fp2), and the words of one.
template <class F>
inline constexpr bool kHasLaneBatchAdd = kernels::kHaveBatchLanes &&
                                         (std::is_same_v<F, Fp> || std::is_same_v<F, Fp2>);
template <class F>
inline const uint64_t* words_of(const F& x) {
  static_assert(sizeof(F) % 32 == 0 && std::is_standard_layout_v<F>);
  return reinterpret_cast<const uint64_t*>(&x);
}
template <class F>
inline uint64_t* words_of(F& x) {
  return reinterpret_cast<uint64_t*>(&x);
}

// Whether k additions over F go to the lane kernel now.
template <class F>
inline bool use_batch_lanes(size_t k) {
  if constexpr (kHasLaneBatchAdd<F>) {
    return k >= kLaneMinOps && kernels::batch_lanes_enabled();
  } else {
    return false;
  }
}

template <class F>
inline void batch_add_lanes(const AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& scratch,
                            bool public_values = false) {
  static_assert(kHasLaneBatchAdd<F>);
  if constexpr (std::is_same_v<F, Fp>) {
    g1_batch_add_lanes(jobs, k, scratch, public_values);
  } else {
    g2_batch_add_lanes(jobs, k, scratch, public_values);
  }
}

}  // namespace enygma::msm_detail
