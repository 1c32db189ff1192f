// G1 and G2 group law: generators, orders, formulas against each other.
#include <gtest/gtest.h>

#include <vector>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/field/cpu_features.hpp"
#include "support/test_rng.hpp"

namespace enygma {
namespace {

TEST(Curve, TwistConstantAndGenerators) {
  Fp2 xi = {Fp::from_u64(9), Fp::one()};
  EXPECT_EQ(G2Params::b() * xi, (Fp2{Fp::from_u64(3), Fp::zero()}));
  EXPECT_TRUE(G1Affine::generator().is_on_curve());
  EXPECT_TRUE(G2Affine::generator().is_on_curve());
  EXPECT_TRUE(G1Affine::infinity().to_jacobian().is_on_curve());
  // r * G = infinity for both generators
  EXPECT_TRUE(G1::generator().mul_vartime(Fr::kModulus).is_infinity());
  EXPECT_TRUE(G2::generator().mul_vartime(Fr::kModulus).is_infinity());
  U256 rm1;
  sub_borrow(rm1, Fr::kModulus, U256::from_u64(1));
  EXPECT_EQ(G1::generator().mul_vartime(rm1), -G1::generator());
  EXPECT_EQ(G2::generator().mul_vartime(rm1), -G2::generator());
}

template <class J>
void group_law(uint64_t seed) {
  test::TestRng rng(seed);
  J g = J::generator();
  for (int i = 0; i < 40; ++i) {
    U256 a = rng.field<Fr>().to_u256(), b = rng.field<Fr>().to_u256();
    J p = g.mul_vartime(a), q = g.mul_vartime(b);
    EXPECT_TRUE(p.is_on_curve());
    EXPECT_EQ(p + q, q + p);
    EXPECT_EQ(p + p, p.dbl());
    EXPECT_TRUE((p - p).is_infinity());
    EXPECT_EQ(p + J::infinity(), p);
    auto pa = p.to_affine();
    EXPECT_TRUE(pa.is_on_curve());
    EXPECT_EQ(q.add_mixed(pa), q + p);
    EXPECT_EQ(p.add_mixed(pa), p.dbl());
    EXPECT_TRUE(p.add_mixed(-pa).is_infinity());
    EXPECT_EQ(g.mul_secret(a), p);
    // (a + b) G = aG + bG
    Fr s = *Fr::from_canonical(a) + *Fr::from_canonical(b);
    EXPECT_EQ(g.mul_vartime(s.to_u256()), p + q);
  }
  std::vector<J> js = {J::generator(), J::infinity(), J::generator().dbl().dbl()};
  std::vector<typename J::Affine> out(js.size());
  J::batch_to_affine(js.data(), out.data(), js.size());
  for (size_t i = 0; i < js.size(); ++i) EXPECT_EQ(out[i], js[i].to_affine());
}

TEST(Curve, G1GroupLaw) {
  group_law<G1>(1);
}
TEST(Curve, G2GroupLaw) {
  group_law<G2>(2);
}

TEST(Fp2, ArithmeticAndSqrt) {
  test::TestRng rng(3);
  for (int i = 0; i < 200; ++i) {
    Fp2 a = {rng.field<Fp>(), rng.field<Fp>()}, b = {rng.field<Fp>(), rng.field<Fp>()};
    EXPECT_EQ(a.square(), a * a);
    EXPECT_EQ(a * b, b * a);
    if (!a.is_zero()) {
      EXPECT_EQ(a * a.inverse(), Fp2::one());
    }
    const Fp2 xi = {Fp::from_u64(9), Fp::one()};
    EXPECT_EQ(a.mul_by_xi(), a * xi);
    auto r = a.square().sqrt();
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(*r == a || *r == -a);
  }
}

// The product by definition, in Fp: (a0 b0 - a1 b1) + (a0 b1 + a1 b0) u.
Fp2 schoolbook(const Fp2& a, const Fp2& b) {
  return {a.c0 * b.c0 - a.c1 * b.c1, a.c0 * b.c1 + a.c1 * b.c0};
}

// Fp2 multiplication and squaring (the ADX kernels where they run) against the schoolbook
// product: random elements and coefficients at the edges of the bounds its proof uses (0, 1,
// m - 1, m - 2, values near m/2 and 2^253, whose sums approach 2m), so that t0 - t1 is negative
// and positive, both unreduced sums are largest and every redc input is near m 2^256.
TEST(Fp2, MultiplicationAgreesWithSchoolbook) {
  test::TestRng rng(4);
  std::vector<Fp> edge = {Fp::zero(),      Fp::one(),      -Fp::one(), -Fp::one() - Fp::one(),
                          Fp::from_u64(2), Fp::from_u64(3)};
  U256 half = shr1(Fp::kModulus), top{};
  top.w[3] = uint64_t(1) << 61;  // 2^253 < m
  for (const U256& v : {half, top}) {
    for (uint64_t d = 0; d < 3; ++d) {
      U256 x;
      add_carry(x, v, U256::from_u64(d));
      edge.push_back(Fp::from_montgomery(x));  // Montgomery words at the edge, too
      edge.push_back(*Fp::from_canonical(x));
    }
  }
  std::vector<Fp2> values;
  for (const Fp& x : edge) {
    for (const Fp& y : edge) values.push_back({x, y});
  }
  for (int i = 0; i < 2000; ++i) values.push_back({rng.field<Fp>(), rng.field<Fp>()});
  // The kernels' product with each scalar backend this CPU can run (core/field/kernels.hpp:
  // lazy reduction on ADX, Karatsuba otherwise).
  const bool adx_was = adx_enabled();
  for (const bool adx : {false, true}) {
    set_adx_enabled(adx);
    for (size_t i = 0; i < values.size(); ++i) {
      const Fp2& a = values[i];
      const Fp2& b = values[(i * 7919 + 13) % values.size()];
      ASSERT_EQ(a * b, schoolbook(a, b)) << i << " adx " << adx_enabled();
      ASSERT_EQ(Fp2::mul_karatsuba(a, b), schoolbook(a, b)) << i;
      ASSERT_EQ(a * a, schoolbook(a, a)) << i;
      // The kernels' squaring (ADX: two products of unreduced operands).
      ASSERT_EQ(a.square(), schoolbook(a, a)) << i << " adx " << adx_enabled();
    }
    for (size_t i = 0; i < edge.size() * edge.size(); ++i) {
      ASSERT_EQ(values[i].square(), schoolbook(values[i], values[i]))
          << i << " adx " << adx_enabled();
    }
    // Every pair of edge elements.
    for (size_t i = 0; i < edge.size() * edge.size(); ++i) {
      for (size_t j = 0; j < edge.size() * edge.size(); j += 5) {
        ASSERT_EQ(values[i] * values[j], schoolbook(values[i], values[j]))
            << i << " " << j << " adx " << adx_enabled();
      }
    }
  }
  set_adx_enabled(adx_was);
}

}  // namespace
}  // namespace enygma
