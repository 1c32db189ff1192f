// Multi-scalar multiplication sum_i scalars[i] * points[i] for G1 and G2 (Pippenger's bucket
// method). One algorithm, written once over the group (core/msm/pippenger.hpp); these are its
// entry points. Scalars are Fr elements (Montgomery form, as witnesses are stored).
#pragma once

#include <cstddef>
#include <memory>

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

// One MSM in steps, for a caller that runs several at once on one pool (the prover):
// prepare() first (on one thread; its loops use the pool unless called from inside a job of
// it, where they run inline), then run(t) once for every t < the count prepare() returned, on
// any threads, then finish(). The points and scalars must stay alive until prepare() returns,
// the points until finish().
template <class J>
class MsmSteps {
 public:
  virtual ~MsmSteps() = default;
  virtual size_t prepare(ThreadPool& pool) = 0;
  virtual void run(size_t task) = 0;
  virtual J finish() = 0;
};
std::unique_ptr<MsmSteps<G1>> msm_g1_steps(const G1Affine* points, const Fr* scalars, size_t n,
                                           const MsmOptions& options = {});
std::unique_ptr<MsmSteps<G2>> msm_g2_steps(const G2Affine* points, const Fr* scalars, size_t n,
                                           const MsmOptions& options = {});
// The sum of two G1 MSMs as one: one set of bucket reductions for both, and a window fitted to
// their total size.
std::unique_ptr<MsmSteps<G1>> msm_g1_steps(const G1Affine* points, const Fr* scalars, size_t n,
                                           const G1Affine* points2, const Fr* scalars2, size_t n2,
                                           const MsmOptions& options = {});

}  // namespace enygma
