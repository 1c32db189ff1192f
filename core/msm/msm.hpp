// Multi-scalar multiplication sum_i scalars[i] * points[i] for G1 and G2 (Pippenger's bucket
// method). One algorithm, written once over the group (core/msm/pippenger.hpp); these are its
// entry points. Scalars are Fr elements (Montgomery form, as witnesses are stored).
#pragma once

#include <cstddef>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/msm/plan.hpp"
#include "core/parallel/thread_pool.hpp"

namespace enygma {

// The points must be on their curves; for G2 with options.endomorphism = kOn, in the order-r
// subgroup as well.
G1 msm_g1(const G1Affine* points, const Fr* scalars, size_t n, ThreadPool& pool,
          const MsmOptions& options = {});
G2 msm_g2(const G2Affine* points, const Fr* scalars, size_t n, ThreadPool& pool,
          const MsmOptions& options = {});

}  // namespace enygma
