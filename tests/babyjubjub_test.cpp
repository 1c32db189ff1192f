// Baby Jubjub: curve membership and group law (extended coordinates against the affine formula
// of the relation document), scalar multiplication, subgroup and torsion, reduction mod l, and
// Pedersen against the reference requests' commitments.
#include "core/primitives/babyjubjub.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/test_rng.hpp"
#include "support/vectors.hpp"

#if defined(ENYGMA_HAVE_GMP)
#include <gmp.h>
#endif

namespace enygma {
namespace {

namespace bjj = babyjubjub;
using test::TestRng;

const U256& kSubgroupOrder = bjj::subgroup_order();

// The addition law exactly as the relation document writes it (affine, two divisions).
BjjPoint add_reference(const BjjPoint& p, const BjjPoint& q) {
  Fr k = bjj::kD * p.x * q.x * p.y * q.y;
  Fr x3 = (p.x * q.y + p.y * q.x) * (Fr::one() + k).inverse();
  Fr y3 = (p.y * q.y - bjj::kA * p.x * q.x) * (Fr::one() - k).inverse();
  return {x3, y3};
}

// Plain right-to-left double-and-add with the reference law (variable time, test only).
BjjPoint mul_reference(BjjPoint p, const U256& s) {
  BjjPoint acc = bjj::identity();
  for (unsigned i = 0; i < 256; ++i) {
    if (s.bit(i)) acc = add_reference(acc, p);
    p = add_reference(p, p);
  }
  return acc;
}

U256 random_scalar(TestRng& rng) {
  return rng.field<Fr>().to_u256();
}

BjjPoint random_subgroup_point(TestRng& rng) {
  return bjj::mul(bjj::generator_g(), random_scalar(rng));
}

// A curve point from x, if (1 - a x^2) / (1 - d x^2) is a square.
std::optional<BjjPoint> lift_x(const Fr& x) {
  Fr x2 = x.square();
  auto y = ((Fr::one() - bjj::kA * x2) * (Fr::one() - bjj::kD * x2).inverse()).sqrt();
  if (!y) return std::nullopt;
  return BjjPoint{x, *y};
}

TEST(BabyJubjub, GeneratorsAreOnTheCurveAndOfOrderL) {
  for (const BjjPoint* g : {&bjj::generator_g(), &bjj::generator_h()}) {
    EXPECT_TRUE(bjj::on_curve(*g));
    EXPECT_NE(*g, bjj::identity());
    EXPECT_EQ(bjj::mul(*g, kSubgroupOrder), bjj::identity());
    EXPECT_TRUE(bjj::in_subgroup(*g));
    U256 lm1;
    sub_borrow(lm1, kSubgroupOrder, U256::from_u64(1));
    EXPECT_EQ(bjj::mul(*g, lm1), bjj::negate(*g));
  }
  EXPECT_NE(bjj::generator_g(), bjj::generator_h());
  EXPECT_EQ(kSubgroupOrder.bit_length(), 251u);
  EXPECT_EQ(to_decimal(kSubgroupOrder),
            "2736030358979909402780800718157159386076813972158567259200215660948447373041");
}

TEST(BabyJubjub, IdentityAndNegation) {
  const BjjPoint o = bjj::identity();
  EXPECT_EQ(o, (BjjPoint{Fr::zero(), Fr::one()}));
  EXPECT_TRUE(bjj::on_curve(o));
  EXPECT_EQ(bjj::add(o, o), o);
  EXPECT_EQ(bjj::negate(o), o);
  EXPECT_EQ(bjj::mul(bjj::generator_g(), U256{}), o);
  EXPECT_EQ(bjj::mul(bjj::generator_g(), U256::from_u64(1)), bjj::generator_g());
  EXPECT_EQ(bjj::mul(o, U256::from_u64(12345)), o);
  EXPECT_FALSE(bjj::on_curve({Fr::one(), Fr::one()}));
  EXPECT_FALSE(bjj::on_curve({Fr::zero(), Fr::zero()}));
  EXPECT_FALSE(bjj::on_curve({bjj::generator_g().x, bjj::generator_g().y + Fr::one()}));
}

TEST(BabyJubjub, GroupLawAgainstTheAffineFormula) {
  TestRng rng(11);
  for (int i = 0; i < 30; ++i) {
    BjjPoint p = random_subgroup_point(rng), q = random_subgroup_point(rng);
    BjjPoint r = random_subgroup_point(rng);
    ASSERT_TRUE(bjj::on_curve(p));
    EXPECT_EQ(bjj::add(p, q), add_reference(p, q));
    EXPECT_EQ(bjj::add(p, p), add_reference(p, p));
    EXPECT_EQ(bjj::add(p, q), bjj::add(q, p));
    EXPECT_EQ(bjj::add(bjj::add(p, q), r), bjj::add(p, bjj::add(q, r)));
    EXPECT_EQ(bjj::add(p, bjj::identity()), p);
    EXPECT_EQ(bjj::add(p, bjj::negate(p)), bjj::identity());
    EXPECT_TRUE(bjj::on_curve(bjj::add(p, q)));
  }
}

TEST(BabyJubjub, ScalarMultiplication) {
  TestRng rng(12);
  const BjjPoint& g = bjj::generator_g();
  EXPECT_EQ(bjj::mul(g, U256::from_u64(2)), bjj::add(g, g));
  EXPECT_EQ(bjj::mul(g, U256::from_u64(3)), bjj::add(g, bjj::add(g, g)));
  for (int i = 0; i < 10; ++i) {
    U256 a = random_scalar(rng), b = random_scalar(rng);
    BjjPoint pa = bjj::mul(g, a), pb = bjj::mul(g, b);
    EXPECT_EQ(pa, mul_reference(g, a));
    // (a + b) G = aG + bG, the sum taken modulo l
    BjjScalar s =
        *BjjScalar::from_canonical(bjj::mod_l(a)) + *BjjScalar::from_canonical(bjj::mod_l(b));
    EXPECT_EQ(bjj::mul(g, s.to_u256()), bjj::add(pa, pb));
    // a (bG) = b (aG)
    EXPECT_EQ(bjj::mul(pb, a), bjj::mul(pa, b));
    // full 256-bit scalars are taken as integers
    U256 big = rng.u256();
    EXPECT_EQ(bjj::mul(g, big), bjj::mul(g, bjj::mod_l(big)));
  }
}

TEST(BabyJubjub, TorsionAndCofactor) {
  const BjjPoint t2 = bjj::torsion_point_order2();
  EXPECT_TRUE(bjj::on_curve(t2));
  EXPECT_EQ(bjj::add(t2, t2), bjj::identity());
  EXPECT_FALSE(bjj::in_subgroup(t2));
  const BjjPoint g = bjj::generator_g();
  BjjPoint gt = bjj::add(g, t2);
  EXPECT_TRUE(bjj::on_curve(gt));
  EXPECT_FALSE(bjj::in_subgroup(gt));
  EXPECT_EQ(gt, (BjjPoint{-g.x, -g.y}));
  // A point lifted from an arbitrary x: the curve order is 8l, so 8l P = O and the complete law
  // handles points outside the subgroup too.
  TestRng rng(13);
  int lifted = 0;
  for (int i = 0; i < 40 && lifted < 4; ++i) {
    auto p = lift_x(rng.field<Fr>());
    if (!p) continue;
    ++lifted;
    ASSERT_TRUE(bjj::on_curve(*p));
    U256 l8 = kSubgroupOrder;
    for (int s = 0; s < 3; ++s) add_carry(l8, l8, l8);
    EXPECT_EQ(bjj::mul(*p, l8), bjj::identity());
    BjjPoint q = bjj::mul(*p, U256::from_u64(8));
    EXPECT_TRUE(bjj::in_subgroup(q));
    EXPECT_EQ(bjj::add(*p, q), add_reference(*p, q));
  }
  EXPECT_GT(lifted, 0);
}

U256 mod_l_reference(U256 x) {
  while (cmp(x, kSubgroupOrder) >= 0) sub_borrow(x, x, kSubgroupOrder);
  return x;
}

TEST(BabyJubjub, ReductionModL) {
  TestRng rng(14);
  U256 pm1;
  sub_borrow(pm1, Fr::kModulus, U256::from_u64(1));
  U256 l7 = kSubgroupOrder, lm1;
  sub_borrow(lm1, kSubgroupOrder, U256::from_u64(1));
  for (int s = 0; s < 6; ++s) add_carry(l7, l7, kSubgroupOrder);  // 7l < p
  for (const U256& x : {U256{}, U256::from_u64(1), lm1, kSubgroupOrder, l7, pm1}) {
    EXPECT_EQ(bjj::mod_l(*Fr::from_canonical(x)), mod_l_reference(x)) << to_decimal(x);
    EXPECT_EQ(bjj::mod_l(x), mod_l_reference(x)) << to_decimal(x);
  }
  const U256 all_ones{{~0ull, ~0ull, ~0ull, ~0ull}};
  EXPECT_EQ(bjj::mod_l(all_ones), mod_l_reference(all_ones));
  for (int i = 0; i < 200; ++i) {
    Fr x = rng.field<Fr>();
    U256 y = rng.u256();
    EXPECT_EQ(bjj::mod_l(x), mod_l_reference(x.to_u256()));
    EXPECT_EQ(bjj::mod_l(y), mod_l_reference(y));
  }
#if defined(ENYGMA_HAVE_GMP)
  mpz_t m, a;
  mpz_inits(m, a, nullptr);
  mpz_set_str(m, to_decimal(kSubgroupOrder).c_str(), 10);
  char buf[100];
  for (int i = 0; i < 200; ++i) {
    U256 y = rng.u256();
    mpz_set_str(a, to_decimal(y).c_str(), 10);
    mpz_mod(a, a, m);
    EXPECT_EQ(to_decimal(bjj::mod_l(y)), mpz_get_str(buf, 10, a));
  }
  mpz_clears(m, a, nullptr);
#endif
}

TEST(BabyJubjub, PedersenIsVGPlusRH) {
  TestRng rng(15);
  const BjjPoint &g = bjj::generator_g(), &h = bjj::generator_h();
  EXPECT_EQ(bjj::pedersen(Fr::zero(), Fr::zero()), bjj::identity());
  EXPECT_EQ(bjj::pedersen(Fr::one(), Fr::zero()), g);
  EXPECT_EQ(bjj::pedersen(Fr::zero(), Fr::one()), h);
  const Fr l = *Fr::from_canonical(kSubgroupOrder);
  EXPECT_EQ(bjj::pedersen(l, l), bjj::identity());
  for (int i = 0; i < 10; ++i) {
    Fr v = rng.field<Fr>(), r = rng.field<Fr>();
    EXPECT_EQ(bjj::pedersen(v, r), bjj::add(bjj::mul(g, v.to_u256()), bjj::mul(h, r.to_u256())));
    // canonical representatives: v and v + l (both below p) commit alike; v and v + p cannot
    // be told apart by any field element, so that case does not arise
    Fr small = Fr::from_u64(rng.next());
    EXPECT_EQ(bjj::pedersen(small + l, r), bjj::pedersen(small, r));
    EXPECT_NE(bjj::pedersen(small + Fr::one(), r), bjj::pedersen(small, r));
  }
}

nlohmann::json read_vector(const char* name) {
  const std::string text = test::read_vector(name);
  if (text.empty()) return nullptr;
  return nlohmann::json::parse(text);
}

Fr dec(const nlohmann::json& v) {
  return *Fr::from_decimal(v.get<std::string>());
}

TEST(BabyJubjub, PedersenMatchesTheReferenceRequests) {
  for (const char* name : {"transfer-k2.json", "transfer-k6.json"}) {
    auto doc = read_vector(name);
    if (doc.is_null()) GTEST_SKIP() << name << " not present";
    const size_t k = doc["tx_values"].size();
    for (size_t i = 0; i < k; ++i) {
      BjjPoint tc{dec(doc["tx_commits"][i][0]), dec(doc["tx_commits"][i][1])};
      EXPECT_TRUE(bjj::on_curve(tc));
      EXPECT_TRUE(bjj::in_subgroup(tc));
      EXPECT_EQ(bjj::pedersen(dec(doc["tx_values"][i]), dec(doc["tx_random_values"][i])), tc)
          << name << " tx_commits[" << i << "]";
    }
  }
}

}  // namespace
}  // namespace enygma
