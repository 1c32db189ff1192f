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

namespace {

template <class F, class P>
class Steps final : public MsmSteps<JacobianPoint<F, P>> {
 public:
  Steps(const AffinePoint<F, P>* points, const Fr* scalars, size_t n, const MsmOptions& options)
      : job_(points, scalars, n, options) {}
  Steps(const AffinePoint<F, P>* points, const Fr* scalars, size_t n,
        const AffinePoint<F, P>* points2, const Fr* scalars2, size_t n2, const MsmOptions& options)
      : job_(points, scalars, n, points2, scalars2, n2, options) {}
  size_t prepare(ThreadPool& pool) override { return job_.prepare(pool); }
  void run(size_t task) override { job_.run(task); }
  JacobianPoint<F, P> finish() override { return job_.finish(); }

 private:
  msm_detail::MsmJob<F, P> job_;
};

}  // namespace

std::unique_ptr<MsmSteps<G1>> msm_g1_steps(const G1Affine* points, const Fr* scalars, size_t n,
                                           const MsmOptions& options) {
  return std::make_unique<Steps<Fp, G1Params>>(points, scalars, n, options);
}

std::unique_ptr<MsmSteps<G1>> msm_g1_steps(const G1Affine* points, const Fr* scalars, size_t n,
                                           const G1Affine* points2, const Fr* scalars2, size_t n2,
                                           const MsmOptions& options) {
  return std::make_unique<Steps<Fp, G1Params>>(points, scalars, n, points2, scalars2, n2, options);
}

std::unique_ptr<MsmSteps<G2>> msm_g2_steps(const G2Affine* points, const Fr* scalars, size_t n,
                                           const MsmOptions& options) {
  return std::make_unique<Steps<Fp2, G2Params>>(points, scalars, n, options);
}

}  // namespace enygma
