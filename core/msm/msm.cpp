#include "core/msm/msm.hpp"

#include "core/msm/pippenger.hpp"

namespace enygma {

G1 msm_g1(const G1Affine* points, const Fr* scalars, size_t n, ThreadPool& pool,
          const MsmOptions& options) {
  return msm_detail::msm(points, scalars, n, pool, options);
}

G2 msm_g2(const G2Affine* points, const Fr* scalars, size_t n, ThreadPool& pool,
          const MsmOptions& options) {
  return msm_detail::msm(points, scalars, n, pool, options);
}

}  // namespace enygma
