// Multi-scalar multiplication sum_i scalars[i] * points[i] for G1 and G2 (Pippenger's bucket
// method). One algorithm, written once over the group (core/msm/pippenger.hpp); these are its
// entry points. Scalars are Fr elements (Montgomery form, as witnesses are stored).
#pragma once

#include <cstddef>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/parallel/thread_pool.hpp"

namespace enygma {

G1 msm_g1(const G1Affine* points, const Fr* scalars, size_t n, ThreadPool& pool);
G2 msm_g2(const G2Affine* points, const Fr* scalars, size_t n, ThreadPool& pool);

}  // namespace enygma
