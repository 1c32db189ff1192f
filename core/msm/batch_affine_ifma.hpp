// Batch-affine G1 additions eight at a time with AVX-512 IFMA: the same arithmetic as
// core/msm/batch_affine.hpp (one shared inversion, ~6 multiplications per addition), run on the
// 8-lane field kernel of core/field/fp_ifma.hpp. Chosen at run time (ifma_enabled()); the
// callers (core/msm/bucket_accumulator.hpp, batch_add_pairs) keep the scalar code for every
// other CPU and for the rare exceptional additions (equal x: doubling or cancellation).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/field/cpu_features.hpp"

namespace enygma::msm_detail {

// *out = a + b for affine G1 points stored as Montgomery words (x then y, canonical, as in
// AffinePoint<Fp, ...>). a_xy points at a's x (y follows it); b_x and b_y may be apart (the
// MSM adds a point with either its y or its negated copy). out may alias a_xy.
struct G1AddJob {
  const uint64_t* a_xy;
  const uint64_t* b_x;
  const uint64_t* b_y;
  uint64_t* out;
};

#if defined(ENYGMA_HAVE_IFMA_KERNEL)
// Performs every job. Precondition (the caller checks it): a and b are finite points with
// different x coordinates. Every input is read before any output is written, so outputs may
// alias any job's inputs. scratch is reused between calls.
void g1_batch_add_ifma(const G1AddJob* jobs, size_t k, std::vector<uint64_t>& scratch);
#endif

}  // namespace enygma::msm_detail
