// Batch-affine additions eight at a time with AVX-512 IFMA, for G1 (over Fp) and G2 (over
// Fp2): the same arithmetic as core/msm/batch_affine.hpp (one shared inversion, ~6
// multiplications of the coordinate field per addition), run on the 8-lane field kernel of
// core/field/fp_ifma.hpp. Chosen at run time (ifma_enabled()); the callers
// (core/msm/bucket_accumulator.hpp, batch_add_pairs) keep the scalar code for every other CPU
// and for the rare exceptional additions (equal x: doubling or cancellation).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/curve/fp2.hpp"
#include "core/field/cpu_features.hpp"
#include "core/field/fp.hpp"

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

#if defined(ENYGMA_HAVE_IFMA_KERNEL)
// Perform every job. Precondition (the callers check it): a and b are finite points with
// different x coordinates. Every input is read before any output is written, so outputs may
// alias any job's inputs. scratch is reused between calls.
// public_values: the inversion may take variable time (see BatchAddScratch).
void g1_batch_add_ifma(const AffineAddJob* jobs, size_t k, std::vector<uint64_t>& scratch,
                       bool public_values = false);
void g2_batch_add_ifma(const AffineAddJob* jobs, size_t k, std::vector<uint64_t>& scratch,
                       bool public_values = false);
#endif

// Below this many additions the callers keep the scalar code (the lanes would be mostly
// padding).
inline constexpr size_t kIfmaMinOps = 16;

// Whether coordinates of type F have a kernel here (G1: Fp, G2: Fp2), and the words of one.
template <class F>
inline constexpr bool kHasIfmaBatchAdd = std::is_same_v<F, Fp> || std::is_same_v<F, Fp2>;
template <class F>
inline const uint64_t* words_of(const F& x) {
  static_assert(sizeof(F) % 32 == 0 && std::is_standard_layout_v<F>);
  return reinterpret_cast<const uint64_t*>(&x);
}
template <class F>
inline uint64_t* words_of(F& x) {
  return reinterpret_cast<uint64_t*>(&x);
}

#if defined(ENYGMA_HAVE_IFMA_KERNEL)
template <class F>
inline void batch_add_ifma(const AffineAddJob* jobs, size_t k, std::vector<uint64_t>& scratch,
                           bool public_values = false) {
  static_assert(kHasIfmaBatchAdd<F>);
  if constexpr (std::is_same_v<F, Fp>) {
    g1_batch_add_ifma(jobs, k, scratch, public_values);
  } else {
    g2_batch_add_ifma(jobs, k, scratch, public_values);
  }
}
#endif

}  // namespace enygma::msm_detail
