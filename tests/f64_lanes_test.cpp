// The f64 lane multiplication (core/field/wasm/f64_lanes.hpp) against the scalar field: natively
// on its C++ model (std::fma), and in V8 on WebAssembly relaxed SIMD by
// wasm/tests/f64_lanes_check.cpp, which runs the same checks (f64_lanes_checks.hpp).
#include <gtest/gtest.h>

#include "support/f64_lanes_checks.hpp"

namespace enygma {
namespace {

TEST(F64Lanes, FusedMultiplyAddIsExact) {
  EXPECT_TRUE(f64_lanes::fused_fma_works());
}

TEST(F64Lanes, ProductsMatchTheScalarField) {
  const test::F64LanesReport r = test::check_f64_lanes(20000);
  EXPECT_EQ(r.checked, 2 * (20000 + test::kF64LanesEdgeCases * test::kF64LanesEdgeCases));
  EXPECT_EQ(r.wrong, 0u) << r.first_wrong;
}

TEST(F64Lanes, ChecksCatchAWrongProduct) {
  // The checker itself: a result off by m (still < 2m but another representative is fine), off
  // by one, or not below 2m must be told apart.
  EXPECT_TRUE(test::f64_lanes_result_ok(U256{{5, 0, 0, 0}}, U256{{5, 0, 0, 0}}));
  U256 off_by_m;
  add_carry(off_by_m, U256{{5, 0, 0, 0}}, Fp::kModulus);
  EXPECT_TRUE(test::f64_lanes_result_ok(off_by_m, U256{{5, 0, 0, 0}}));
  EXPECT_FALSE(test::f64_lanes_result_ok(U256{{6, 0, 0, 0}}, U256{{5, 0, 0, 0}}));
  U256 two_m;
  add_carry(two_m, Fp::kModulus, Fp::kModulus);
  EXPECT_FALSE(test::f64_lanes_result_ok(two_m, U256{{0, 0, 0, 0}}));
}

}  // namespace
}  // namespace enygma
