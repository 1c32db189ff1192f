// The f64 lane multiplication (core/field/wasm/f64_lanes.hpp) against the scalar field, and the
// batch-affine additions on it against the group law: natively
// on its C++ model (std::fma), and in V8 on WebAssembly relaxed SIMD by
// wasm/tests/f64_lanes_check.cpp, which runs the same checks (f64_lanes_checks.hpp).
#include <gtest/gtest.h>

#include "support/batch_add_checks.hpp"
#include "support/f64_lanes_checks.hpp"
#include "support/sanitizer.hpp"

namespace enygma {
namespace {

TEST(F64Lanes, FusedMultiplyAddIsExact) {
  EXPECT_TRUE(f64_lanes::fused_fma_works());
}

// Random pairs per field besides the edge cases: fewer under the sanitizers, where the model's
// products run many times slower and what they look for (undefined behaviour, stray accesses)
// does not depend on the values; the release build and V8 check the arithmetic on all of them.
constexpr size_t kRandomPairs = ENYGMA_UNDER_SANITIZER ? 2000 : 20000;

TEST(F64Lanes, ProductsMatchTheScalarField) {
  const test::F64LanesReport r = test::check_f64_lanes<Fp>(kRandomPairs);
  EXPECT_EQ(r.checked, 9 * (kRandomPairs + test::kF64LanesEdgeCases * test::kF64LanesEdgeCases));
  EXPECT_EQ(r.wrong, 0u) << r.first_wrong;
  const test::F64LanesReport s = test::check_f64_lanes<Fr>(kRandomPairs);
  EXPECT_EQ(s.checked, r.checked);
  EXPECT_EQ(s.wrong, 0u) << "Fr: " << s.first_wrong;
}

// The batch-affine additions on the lanes (core/msm/batch_affine_f64.cpp), here on the model.
TEST(F64Lanes, G1BatchAdditionsMatchTheScalarGroupLaw) {
  EXPECT_EQ(test::batch_additions_match_the_group_law<G1>(
                [](const msm_detail::AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& s) {
                  msm_detail::g1_batch_add_f64(jobs, k, s);
                }),
            "");
}

TEST(F64Lanes, G2BatchAdditionsMatchTheScalarGroupLaw) {
  EXPECT_EQ(test::batch_additions_match_the_group_law<G2>(
                [](const msm_detail::AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& s) {
                  msm_detail::g2_batch_add_f64(jobs, k, s);
                }),
            "");
}

// The pairing's independent Fp2 products and squares on the lanes (core/curve/fp2_f64.cpp).
TEST(F64Lanes, Fp2ProductsAndSquaresMatchScalar) {
  EXPECT_EQ(test::check_fp2_many_f64(), "");
}

}  // namespace
}  // namespace enygma
