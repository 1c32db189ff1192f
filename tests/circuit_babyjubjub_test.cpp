// Baby Jubjub gadgets against the native curve: complete addition (also at the identity,
// doubling, opposite and small-order points), on-curve checks, the Montgomery conversion,
// table lookups, and fixed-base multiplication at the scalar extremes and on random scalars.
#include <gtest/gtest.h>

#include "core/circuit/babyjubjub_gadget.hpp"
#include "core/circuit/bits.hpp"
#include "core/circuit/fixed_base.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "support/audit.hpp"
#include "support/test_rng.hpp"

namespace enygma::circuit {
namespace {

using test::TestRng;

constexpr U256 kP = Fr::kModulus;
constexpr U256 kL = BjjScalarParams::kModulus;

BjjPoint random_point(TestRng& rng) {
  return babyjubjub::mul(babyjubjub::generator_g(), rng.u256());
}

struct BuiltBjj {
  R1cs r1cs;
  std::vector<Fr> witness;
  uint32_t first_internal;
};

PointLc input_point(CircuitBuilder& b, const BjjPoint& p) {
  return point_of(b.private_wire(p.x), b.private_wire(p.y));
}

TEST(BabyJubjubGadget, CompleteAdditionMatchesNative) {
  TestRng rng(21);
  const BjjPoint g = babyjubjub::generator_g();
  const BjjPoint p = random_point(rng), q = random_point(rng);
  const BjjPoint t2 = babyjubjub::torsion_point_order2();
  const std::pair<BjjPoint, BjjPoint> cases[] = {{p, q},
                                                 {p, p},
                                                 {p, babyjubjub::negate(p)},
                                                 {p, babyjubjub::identity()},
                                                 {babyjubjub::identity(), babyjubjub::identity()},
                                                 {g, t2},
                                                 {t2, t2},
                                                 {babyjubjub::add(p, t2), q}};
  for (const auto& [a, c] : cases) {
    CircuitBuilder b(BuildMode::kShapeAndWitness);
    PointLc pa = input_point(b, a), pc = input_point(b, c);
    const uint32_t first = b.num_wires();
    PointLc sum = edwards_add(b, pa, pc, "add");
    EXPECT_EQ(point_value(sum), babyjubjub::add(a, c));
    EXPECT_EQ(b.num_constraints(), 6u);
    R1cs r = b.take_r1cs();
    auto w = b.take_witness();
    EXPECT_EQ(audit(r, w, first, r.num_wires), "");
  }
  // A wrong claimed sum is rejected; the right one accepted.
  for (bool right : {true, false}) {
    CircuitBuilder b(BuildMode::kShapeAndWitness);
    PointLc pa = input_point(b, p), pc = input_point(b, q);
    BjjPoint s = babyjubjub::add(p, q);
    if (!right) s = babyjubjub::add(s, g);
    enforce_edwards_sum(b, pa, pc, input_point(b, s), "sum");
    EXPECT_EQ(!b.first_violation().has_value(), right);
  }
  // Adding a constant point.
  for (const BjjPoint& k : {q, babyjubjub::identity(), t2}) {
    CircuitBuilder b(BuildMode::kShapeAndWitness);
    PointLc pa = input_point(b, p);
    const uint32_t first = b.num_wires();
    PointLc sum = edwards_add_constant(b, pa, k, "addc");
    EXPECT_EQ(point_value(sum), babyjubjub::add(p, k));
    EXPECT_EQ(b.num_constraints(), 3u);
    R1cs r = b.take_r1cs();
    auto w = b.take_witness();
    EXPECT_EQ(audit(r, w, first, r.num_wires), "");
  }
}

TEST(BabyJubjubGadget, OnCurveAndMontgomeryConversion) {
  TestRng rng(22);
  const BjjPoint p = random_point(rng);
  for (const BjjPoint& c : {p, babyjubjub::identity(), babyjubjub::torsion_point_order2()}) {
    CircuitBuilder b(BuildMode::kShapeAndWitness);
    PointLc pc = input_point(b, c);
    const uint32_t first = b.num_wires();
    enforce_on_curve(b, pc, "R3");
    EXPECT_EQ(b.num_constraints(), 3u);
    R1cs r = b.take_r1cs();
    auto w = b.take_witness();
    EXPECT_EQ(audit(r, w, first, r.num_wires), "");
  }
  CircuitBuilder off(BuildMode::kShapeAndWitness);
  enforce_on_curve(off, input_point(off, {p.x, p.y + Fr::one()}), "R3");
  EXPECT_TRUE(off.first_violation().has_value());

  const MontPoint m = edwards_to_montgomery(p);
  // On the Montgomery curve v^2 = u^3 + A u^2 + u (B = 1).
  EXPECT_EQ(m.v.square(), m.u * m.u * m.u + montgomery_a() * m.u * m.u + m.u);
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  MontPointLc ml{Lc(b.private_wire(m.u)), Lc(b.private_wire(m.v))};
  const uint32_t first = b.num_wires();
  PointLc e = montgomery_to_edwards(b, ml, "conv");
  EXPECT_EQ(point_value(e), p);
  R1cs r = b.take_r1cs();
  auto w = b.take_witness();
  EXPECT_EQ(audit(r, w, first, r.num_wires), "");
}

TEST(BabyJubjubGadget, LookupPairIsExactForEveryIndex) {
  TestRng rng(23);
  const size_t products[5] = {0, 0, 1, 3, 8};
  for (unsigned m = 0; m <= 4; ++m) {
    std::vector<Fr> xs, ys;
    for (unsigned i = 0; i < (1u << m); ++i) {
      xs.push_back(rng.field<Fr>());
      ys.push_back(rng.field<Fr>());
    }
    for (unsigned idx = 0; idx < (1u << m); ++idx) {
      CircuitBuilder b(BuildMode::kShapeAndWitness);
      std::vector<Var> bits;
      for (unsigned i = 0; i < m; ++i) bits.push_back(b.private_wire(Fr::from_u64((idx >> i) & 1)));
      const uint32_t first = b.num_wires();
      LcPair out = lookup_pair(b, bits, xs, ys, "lookup");
      EXPECT_EQ(out.first.value(), xs[idx]);
      EXPECT_EQ(out.second.value(), ys[idx]);
      EXPECT_EQ(b.num_constraints(), products[m]);
      R1cs r = b.take_r1cs();
      auto w = b.take_witness();
      EXPECT_EQ(audit(r, w, first, r.num_wires), "");
    }
  }
}

U256 low_bits(U256 x, unsigned n) {
  for (unsigned i = n; i < 256; ++i) x.w[i / 64] &= ~(uint64_t(1) << (i % 64));
  return x;
}

// [s]B in the circuit for the n low bits of s, checked against babyjubjub::mul.
void check_fixed_base(FixedBase base, const U256& scalar, unsigned n) {
  const U256 s = low_bits(scalar, n);
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  std::vector<Var> bits;
  for (unsigned i = 0; i < n; ++i)
    bits.push_back(b.private_wire(s.bit(i) ? Fr::one() : Fr::zero()));
  for (const Var& v : bits) enforce_boolean(b, v, "bit");
  const uint32_t first = b.num_wires();
  const size_t before = b.num_constraints();
  PointLc out = fixed_base_mul(b, base, bits, "mul");
  const BjjPoint expect = babyjubjub::mul(fixed_base_point(base), s);
  EXPECT_EQ(point_value(out), expect) << "n=" << n << " s=" << to_decimal(s);
  EXPECT_EQ(b.num_constraints() - before, fixed_base_mul_cost(n)) << n;
  R1cs r = b.take_r1cs();
  auto w = b.take_witness();
  EXPECT_EQ(audit(r, w, first, r.num_wires), "") << "n=" << n << " s=" << to_decimal(s);
}

TEST(FixedBase, ExtremeScalars) {
  U256 l_minus_1, p_minus_1;
  sub_borrow(l_minus_1, kL, U256::from_u64(1));
  sub_borrow(p_minus_1, kP, U256::from_u64(1));
  U256 all_ones;
  for (auto& w : all_ones.w) w = ~uint64_t(0);
  for (FixedBase base : {FixedBase::kG, FixedBase::kH}) {
    for (unsigned n : {250u, 251u, 254u}) {
      for (const U256& s : {U256{}, U256::from_u64(1), l_minus_1, kL, p_minus_1, all_ones}) {
        check_fixed_base(base, s, n);
      }
    }
  }
  EXPECT_EQ(fixed_base_mul_cost(254), 513u);
  EXPECT_EQ(fixed_base_mul_cost(251), 505u);
  EXPECT_EQ(fixed_base_mul_cost(250), 502u);
}

TEST(FixedBase, RandomScalarsAndShortLengths) {
  TestRng rng(24);
  for (unsigned n : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 17u, 248u, 249u, 252u, 253u}) {
    check_fixed_base(n % 2 ? FixedBase::kG : FixedBase::kH, rng.u256(), n);
  }
  for (int i = 0; i < 3; ++i) check_fixed_base(FixedBase::kH, rng.u256(), 254);
}

TEST(FixedBase, WitnessModeAgrees) {
  TestRng rng(25);
  const U256 s = low_bits(rng.u256(), 254);
  std::vector<Fr> wit[2];
  for (int mode = 0; mode < 2; ++mode) {
    CircuitBuilder b(mode == 0 ? BuildMode::kWitness : BuildMode::kShapeAndWitness);
    std::vector<Var> bits;
    for (unsigned i = 0; i < 254; ++i)
      bits.push_back(b.private_wire(s.bit(i) ? Fr::one() : Fr::zero()));
    fixed_base_mul(b, FixedBase::kG, bits, "mul");
    wit[mode] = b.take_witness();
  }
  ASSERT_EQ(wit[0].size(), wit[1].size());
  for (size_t i = 0; i < wit[0].size(); ++i) ASSERT_EQ(wit[0][i], wit[1][i]) << i;
}

}  // namespace
}  // namespace enygma::circuit
