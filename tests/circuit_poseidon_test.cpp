// The Poseidon gadget against the native hash (and the iden3 known answer), its constraint
// counts, constant folding of inputs known when the circuit is defined, and pinned S-boxes.
#include <gtest/gtest.h>

#include "core/circuit/poseidon_gadget.hpp"
#include "core/primitives/poseidon.hpp"
#include "support/audit.hpp"
#include "support/test_rng.hpp"

namespace enygma::circuit {
namespace {

using test::TestRng;

struct HashRun {
  R1cs r1cs;
  std::vector<Fr> witness;
  uint32_t first_internal;
  Fr out;
};

// Poseidon of `values`; constant[i] marks inputs passed as circuit-definition constants.
HashRun run(const std::vector<Fr>& values, const std::vector<bool>& constant) {
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  std::vector<PoseidonInput> in;
  for (size_t i = 0; i < values.size(); ++i) {
    if (constant[i]) {
      in.push_back(PoseidonInput::constant(values[i]));
    } else {
      in.push_back(PoseidonInput(b.private_wire(values[i])));
    }
  }
  const uint32_t first = b.num_wires();
  Lc out = poseidon_gadget(b, in, "h");
  // Tie the output to a wire so the last S-boxes are checked by the audit too.
  Var o = b.private_wire(out.value());
  b.enforce_equal(out, o, "out");
  return {b.take_r1cs(), b.take_witness(), first, out.value()};
}

TEST(PoseidonGadget, KnownAnswer) {
  HashRun r = run({Fr::from_u64(1), Fr::from_u64(2)}, {false, false});
  EXPECT_EQ(r.out.to_decimal(),
            "7853200120776062878684798364095072458815029376092732009249414926327459813530");
  EXPECT_EQ(r.r1cs.first_unsatisfied(r.witness), std::nullopt);
}

TEST(PoseidonGadget, MatchesNativeAndCountsConstraints) {
  TestRng rng(11);
  // Full rounds 8, partial 56/57/56/60; 3 constraints per S-box; the first state word is the
  // constant C[0], so one S-box of the first round is free.
  const size_t expected[5] = {0, (8 * 2 + 56 - 1) * 3, (8 * 3 + 57 - 1) * 3, (8 * 4 + 56 - 1) * 3,
                              (8 * 5 + 60 - 1) * 3};
  for (unsigned n = 1; n <= 4; ++n) {
    for (int trial = 0; trial < 3; ++trial) {
      std::vector<Fr> v;
      for (unsigned i = 0; i < n; ++i) v.push_back(rng.field<Fr>());
      HashRun r = run(v, std::vector<bool>(n, false));
      EXPECT_EQ(r.out, poseidon(v)) << n;
      EXPECT_EQ(r.r1cs.num_constraints(), expected[n] + 1) << n;
      EXPECT_EQ(audit(r.r1cs, r.witness, r.first_internal, r.r1cs.num_wires), "") << n;
    }
  }
  EXPECT_EQ(expected[2], 240u);
  EXPECT_EQ(expected[3], 261u);  // 258 when one input is a constant (T, U)
}

TEST(PoseidonGadget, ConstantInputsCostNothing) {
  TestRng rng(12);
  // T = Poseidon(12): a constant of the circuit, no constraint at all.
  HashRun t = run({Fr::from_u64(12)}, {true});
  EXPECT_EQ(t.out, poseidon(Fr::from_u64(12)));
  EXPECT_EQ(t.r1cs.num_constraints(), 1u);  // only the output tie
  // Poseidon(T, ss, b) with T constant: one more free S-box in the first round.
  std::vector<Fr> v = {t.out, rng.field<Fr>(), rng.field<Fr>()};
  HashRun m = run(v, {true, false, false});
  EXPECT_EQ(m.out, poseidon(v));
  EXPECT_EQ(m.r1cs.num_constraints(), 258u + 1);
  EXPECT_EQ(audit(m.r1cs, m.witness, m.first_internal, m.r1cs.num_wires), "");
}

TEST(PoseidonGadget, WitnessModeGivesTheSameValues) {
  TestRng rng(13);
  const Fr x = rng.field<Fr>(), y = rng.field<Fr>();
  CircuitBuilder w(BuildMode::kWitness);
  Var vx = w.private_wire(x), vy = w.private_wire(y);
  const PoseidonInput in[2] = {vx, vy};
  Lc out = poseidon_gadget(w, in, "h");
  EXPECT_EQ(out.value(), poseidon(x, y));
  EXPECT_TRUE(out.terms().empty());
  HashRun r = run({x, y}, {false, false});
  auto wit = w.take_witness();
  ASSERT_EQ(wit.size() + 1, r.witness.size());  // run() adds the output wire
  for (size_t i = 0; i < wit.size(); ++i) EXPECT_EQ(wit[i], r.witness[i]);
}

}  // namespace
}  // namespace enygma::circuit
