// The circuit builder and linear combinations: canonical terms, values carried in witness mode,
// and the three build modes agreeing on wires, constraints and values.
#include <gtest/gtest.h>

#include "core/circuit/builder.hpp"
#include "support/audit.hpp"
#include "support/test_rng.hpp"

namespace enygma::circuit {
namespace {

using test::TestRng;

TEST(LinearCombination, TermsStaySortedMergedAndWithoutZeros) {
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  Var x = b.private_wire(Fr::from_u64(3));
  Var y = b.private_wire(Fr::from_u64(5));
  Var z = b.private_wire(Fr::from_u64(7));
  Lc lc = Lc(z) * Fr::from_u64(2) + Lc(x) + Fr::from_u64(10);
  lc += Lc(y);
  lc.add_var(x, Fr::from_u64(4));  // merges into x's term
  ASSERT_EQ(lc.terms().size(), 3u);
  EXPECT_EQ(lc.terms()[0].wire, x.index);
  EXPECT_EQ(lc.terms()[0].coeff, Fr::from_u64(5));
  EXPECT_EQ(lc.terms()[1].wire, y.index);
  EXPECT_EQ(lc.terms()[2].wire, z.index);
  EXPECT_EQ(lc.constant_term(), Fr::from_u64(10));
  EXPECT_EQ(lc.value(), Fr::from_u64(2 * 7 + 5 * 3 + 5 + 10));
  lc -= Lc(y);  // cancels: the term disappears
  ASSERT_EQ(lc.terms().size(), 2u);
  EXPECT_EQ(lc.terms()[1].wire, z.index);
  Lc zero = lc * Fr::zero();
  EXPECT_TRUE(zero.terms().empty());
  EXPECT_TRUE(zero.value().is_zero());
  Lc neg = -lc;
  EXPECT_EQ(neg.value(), -lc.value());
  EXPECT_EQ(neg.constant_term(), -Fr::from_u64(10));
}

TEST(LinearCombination, WitnessModeCarriesValuesWithoutTerms) {
  CircuitBuilder b(BuildMode::kWitness);
  Var x = b.private_wire(Fr::from_u64(3));
  Lc lc = Lc(x) * Fr::from_u64(4) + Fr::one();
  EXPECT_TRUE(lc.terms().empty());
  EXPECT_EQ(lc.value(), Fr::from_u64(13));
}

TEST(LinearCombination, RowPutsTheConstantOnWireZero) {
  CircuitBuilder b(BuildMode::kShape);
  Var x = b.private_wire(Fr::zero());
  std::vector<R1csTerm> row;
  (Lc(x) + Fr::from_u64(2)).append_to_row(row);
  ASSERT_EQ(row.size(), 2u);
  EXPECT_EQ(row[0].wire, 0u);
  EXPECT_EQ(row[0].coeff, Fr::from_u64(2));
  EXPECT_EQ(row[1].wire, x.index);
}

// A small definition exercised in every mode: (x + 2y) * y = z, z public.
void define(CircuitBuilder& b, const Fr& x, const Fr& y) {
  Var out = b.public_input((x + y.dbl()) * y);
  Var vx = b.private_wire(x);
  Var vy = b.private_wire(y);
  CircuitBuilder::Scope scope(b, "demo", 3);
  Var prod = b.mul(Lc(vx) + Lc(vy) * Fr::from_u64(2), vy, "product");
  b.enforce_equal(prod, out, "out");
}

TEST(CircuitBuilder, ModesAgreeOnShapeAndValues) {
  TestRng rng(7);
  const Fr x = rng.field<Fr>(), y = rng.field<Fr>();
  CircuitBuilder shape(BuildMode::kShape), wit(BuildMode::kWitness),
      both(BuildMode::kShapeAndWitness);
  define(shape, Fr::zero(), Fr::zero());
  define(wit, x, y);
  define(both, x, y);
  EXPECT_EQ(shape.num_wires(), both.num_wires());
  EXPECT_EQ(wit.num_wires(), both.num_wires());
  EXPECT_EQ(wit.num_constraints(), both.num_constraints());
  EXPECT_EQ(both.first_violation(), std::nullopt);
  R1cs r_shape = shape.take_r1cs(), r_both = both.take_r1cs();
  EXPECT_EQ(r_shape.digest(), r_both.digest());
  EXPECT_EQ(r_shape.num_public, 1u);
  ASSERT_EQ(r_shape.labels.size(), 2u);
  EXPECT_EQ(r_shape.labels[0], "demo[3]/product");
  auto w_wit = wit.take_witness(), w_both = both.take_witness();
  ASSERT_EQ(w_wit.size(), w_both.size());
  for (size_t i = 0; i < w_wit.size(); ++i) EXPECT_EQ(w_wit[i], w_both[i]);
  EXPECT_EQ(r_shape.first_unsatisfied(w_wit), std::nullopt);
  EXPECT_EQ(audit(r_shape, w_wit, 2, r_shape.num_wires), "");
  // A wrong public value is caught, and the builder names the violated constraint.
  CircuitBuilder bad(BuildMode::kShapeAndWitness);
  Var out = bad.public_input(Fr::from_u64(1));
  Var p = bad.mul(Lc::constant(2), Lc::constant(3), "six");
  bad.enforce_equal(p, out, "out");
  EXPECT_EQ(bad.first_violation(), std::optional<size_t>(1));
  EXPECT_EQ(bad.first_violation_label(), "out");
}

TEST(Audit, FindsAWireNoConstraintPins) {
  // inv with x * inv = 1 - e and x * e = 0 only: for x = 0, inv is free.
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  Var x = b.private_wire(Fr::zero());
  Var inv = b.private_wire(Fr::zero());
  Var e = b.private_wire(Fr::one());
  b.enforce(x, inv, Lc::constant(1) - Lc(e), "x*inv = 1 - e");
  b.enforce(x, e, Lc(), "x*e = 0");
  R1cs r = b.take_r1cs();
  auto w = b.take_witness();
  const std::string report = audit(r, w, inv.index, r.num_wires);
  EXPECT_NE(report.find("1 free wire(s): wire 2"), std::string::npos) << report;
}

}  // namespace
}  // namespace enygma::circuit
