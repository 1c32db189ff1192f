// The re-solver of coordinated forgeries (tests/support/forge.hpp) and the finder of the places
// where a circuit admits them (tests/support/circuit_forgeries.hpp), checked on small circuits
// built here: forcing the honest values gives the honest witness back; forcing an input that
// feeds a mul chain and a Poseidon recomputes them as the witness generator would, bits and
// hints keeping their honest values; a reduction's wrapped representation and a canonical
// decomposition's alias are refused by their walks; and a reduction whose bound is too weak is
// reported (what circuit_forgery_soundness_test checks of every circuit). Small and fast: it
// runs under the sanitizers too.
#include "support/forge.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/circuit/bits.hpp"
#include "core/circuit/builder.hpp"
#include "core/circuit/compare.hpp"
#include "core/circuit/mod_l.hpp"
#include "core/circuit/poseidon_gadget.hpp"
#include "core/ownership/ownership_circuit.hpp"
#include "core/ownership/wallet.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "core/registry/registry.hpp"
#include "support/circuit_forgeries.hpp"

namespace enygma::test {
namespace {

using circuit::BuildMode;
using circuit::CircuitBuilder;
using circuit::Lc;
using circuit::PoseidonInput;
using circuit::Var;

constexpr U256 kForgeL = BjjScalarParams::kModulus;

Fr forge_fr(const U256& x) {
  return *Fr::from_canonical(x);
}

// A small circuit over one private input a: b = a*a, c = b*a (a mul chain), h = Poseidon(a, c),
// then the exact reduction of h and the public remainder. `before_reduction` is set to the first
// wire of the reduction.
struct ForgeSmall {
  R1cs r1cs;
  std::vector<Fr> witness;
  uint32_t a = 0, before_reduction = 0;
};

ForgeSmall forge_small_circuit(const Fr& a_value, const Fr& remainder) {
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  const Var out = b.public_input(remainder);
  ForgeSmall s;
  const Var a = b.private_wire(a_value);
  s.a = a.index;
  const Var sq = b.mul(a, a, "a*a");
  const Var cube = b.mul(sq, a, "a^2*a");
  const PoseidonInput in[2] = {a, cube};
  const Lc h = circuit::poseidon_gadget(b, in, "Poseidon(a, a^3)");
  s.before_reduction = b.num_wires();
  CircuitBuilder::Scope scope(b, "small");
  const circuit::ModLResult m = circuit::mod_l_exact(b, h, "mod l");
  b.enforce_equal(m.remainder, out, "out == h mod l");
  s.r1cs = b.take_r1cs();
  s.witness = b.take_witness();
  return s;
}

Fr forge_remainder_of(const Fr& a) {
  CircuitBuilder b(BuildMode::kWitness);
  const Var av = b.private_wire(a);
  const Var cube = b.mul(b.mul(av, av, ""), av, "");
  const PoseidonInput in[2] = {av, cube};
  return forge_fr(babyjubjub::mod_l(circuit::poseidon_gadget(b, in, "").value()));
}

TEST(Forge, TheHonestValuesGiveTheHonestWitnessBack) {
  const Fr a = Fr::from_u64(12345);
  const ForgeSmall s = forge_small_circuit(a, forge_remainder_of(a));
  ASSERT_EQ(s.r1cs.first_unsatisfied(s.witness), std::nullopt);
  const Forger forger(s.r1cs);
  // Every private wire forced to its honest value, and a few of them.
  for (uint32_t step : {1u, 7u}) {
    std::vector<ForcedWire> forced;
    for (uint32_t w = s.a; w < s.r1cs.num_wires; w += step) forced.push_back({w, s.witness[w]});
    const Forgery f = forger.forge(s.witness, forced);
    EXPECT_EQ(f.witness, s.witness);
    EXPECT_EQ(f.recomputed, 0u);
    EXPECT_EQ(f.first_unsatisfied, std::nullopt);
    EXPECT_EQ(f.label, "");
  }
  // Nothing forced: nothing moves.
  EXPECT_EQ(forger.forge(s.witness, {}).witness, s.witness);
}

TEST(Forge, AChangedInputRecomputesWhatFollowsAndKeepsTheHints) {
  const Fr a = Fr::from_u64(12345), other = Fr::from_u64(777);
  const ForgeSmall s = forge_small_circuit(a, forge_remainder_of(a));
  // What the honest witness generator computes from `other`.
  const ForgeSmall t = forge_small_circuit(other, forge_remainder_of(a));
  const Forger forger(s.r1cs);
  const ForcedWire forced[] = {{s.a, other}};
  const Forgery f = forger.forge(s.witness, forced);
  // The mul chain and the Poseidon are recomputed exactly as the witness generator computes them.
  for (uint32_t w = 0; w < s.before_reduction; ++w) EXPECT_EQ(f.witness[w], t.witness[w]) << w;
  EXPECT_GT(f.recomputed, 100u);  // a*a, a^3 and the S-box wires
  // The reduction's quotient and remainder bits are hints: honest values; the products of the
  // quotient bits and the walk's runs are recomputed from them (unchanged). So the
  // recomposition is the first constraint the forged witness breaks.
  for (uint32_t w = s.before_reduction; w < s.r1cs.num_wires; ++w) {
    EXPECT_EQ(f.witness[w], s.witness[w]) << w;
  }
  ASSERT_TRUE(f.first_unsatisfied.has_value());
  EXPECT_EQ(f.label, "small/mod l/x == q*l + r");
  EXPECT_EQ(f.witness[1], s.witness[1]);  // a public input changes only when forced
}

// One reduction of a chosen x (a private input): its wrapped representations.
struct ForgeReduction {
  R1cs r1cs;
  std::vector<Fr> witness;
};

ForgeReduction forge_reduction_of(const Fr& x) {
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  const Var out = b.public_input(forge_fr(babyjubjub::mod_l(x)));
  const Var xv = b.private_wire(x);
  CircuitBuilder::Scope scope(b, "chosen");
  const circuit::ModLResult m = circuit::mod_l_exact(b, xv, "mod l");
  b.enforce_equal(m.remainder, out, "out == x mod l");
  ForgeReduction r{b.take_r1cs(), b.take_witness()};
  return r;
}

TEST(Forge, FindsAReductionAndItsWrappedRepresentations) {
  U256 seven_l, d, two_l;  // d = p - 7l
  mul_small_add(seven_l, kForgeL, 7, 0);
  sub_borrow(d, Fr::kModulus, seven_l);
  add_carry(two_l, kForgeL, kForgeL);
  // x = 5: q = 0, and q' = 7 with r' = 5 + p - 7l < l (x < 8l - p): only the walk's second bound
  // (q == 7 => r <= p - 7l - 1) refuses it. x = 2l + 5: q' = 1 with r' = l + 5, refused by
  // r <= l - 1. x = 2^251 + 5: no other quotient leaves a remainder below 2^251.
  U256 two_l_5;
  add_carry(two_l_5, two_l, U256::from_u64(5));
  const U256 big = U256{{5, 0, 0, uint64_t(1) << 59}};
  struct Expect {
    U256 x;
    std::vector<unsigned> forged_q;
  };
  for (const Expect& e : {Expect{U256::from_u64(5), {7}}, Expect{two_l_5, {1}}, Expect{big, {}}}) {
    SCOPED_TRACE(forge_fr(e.x).to_decimal());
    const ForgeReduction r = forge_reduction_of(forge_fr(e.x));
    ASSERT_EQ(r.r1cs.first_unsatisfied(r.witness), std::nullopt);
    const CircuitInstances inst = find_instances(r.r1cs);
    ASSERT_EQ(inst.error, "");
    ASSERT_EQ(inst.reductions.size(), 1u);
    const ModLReduction& red = inst.reductions[0];
    EXPECT_EQ(red.scope, "chosen/mod l");
    EXPECT_EQ(red.quotient_bits.size(), 3u);
    EXPECT_EQ(red.remainder_bits.size(), 251u);
    ASSERT_TRUE(red.walk.has_value());
    const BoundWalk& walk = inst.walks[*red.walk];
    EXPECT_EQ(walk.bits, red.remainder_bits);
    EXPECT_EQ(walk.scope, "chosen/mod l/r");
    EXPECT_EQ(walk.bits.size(), 251u);
    U256 l_minus_1, wrap_bound;
    sub_borrow(l_minus_1, kForgeL, U256::from_u64(1));
    sub_borrow(wrap_bound, d, U256::from_u64(1));
    EXPECT_EQ(walk.bound, l_minus_1);
    EXPECT_EQ(walk.tighter, std::optional<U256>(wrap_bound));
    EXPECT_TRUE(inst.p_alias_walks.empty());
    EXPECT_TRUE(inst.l_alias_walks.empty());
    const std::vector<ForgeryCase> cases = wrapped_representations(r.r1cs, inst, 0, r.witness);
    ASSERT_EQ(cases.size(), e.forged_q.size());
    const Forger forger(r.r1cs);
    for (size_t i = 0; i < cases.size(); ++i) {
      EXPECT_NE(cases[i].what.find("q' = " + std::to_string(e.forged_q[i])), std::string::npos)
          << cases[i].what;
      EXPECT_EQ(refused_by_its_walk(forger, inst, cases[i], r.witness), "");
      // The forgery does satisfy x == q'*l + r' and fails the walk only.
      const Forgery f = forger.forge(r.witness, cases[i].forced);
      EXPECT_NE(f.label.find("chosen/mod l/r/bit <= "), std::string::npos) << f.label;
    }
  }
}

TEST(Forge, FindsACanonicalDecompositionAndItsAlias) {
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  const Var x = b.private_wire(Fr::from_u64(12345));
  const std::vector<Var> bits = circuit::to_bits_canonical(b, x, "canonical");
  const R1cs r1cs = b.take_r1cs();
  const std::vector<Fr> w = b.take_witness();
  const CircuitInstances inst = find_instances(r1cs);
  ASSERT_EQ(inst.error, "");
  ASSERT_EQ(inst.walks.size(), 1u);
  EXPECT_EQ(inst.walks[0].scope, "canonical");
  ASSERT_EQ(inst.walks[0].bits.size(), 254u);
  for (size_t i = 0; i < bits.size(); ++i) EXPECT_EQ(inst.walks[0].bits[i], bits[i].index);
  U256 p_minus_1;
  sub_borrow(p_minus_1, Fr::kModulus, U256::from_u64(1));
  EXPECT_EQ(inst.walks[0].bound, p_minus_1);
  EXPECT_EQ(inst.p_alias_walks, std::vector<size_t>{0});
  const std::vector<ForgeryCase> cases = walk_aliases(inst, 0, w, /*modulus_p=*/true);
  ASSERT_EQ(cases.size(), 1u);  // 12345 + p; 12345 + 2p >= 2^254
  EXPECT_EQ(refused_by_its_walk(Forger(r1cs), inst, cases[0], w), "");
}

// What the circuit tests would report of a reduction whose remainder is walked to 2l - 1 only
// (a non-exact reduction): q - 1 with r + l passes the walk and the recomposition, and the
// forgery is refused downstream, or not at all.
TEST(Forge, AReductionWithATooWeakBoundIsReported) {
  const U256 x = U256::from_u64(5);
  U256 two_l_minus_1, x_plus_l;
  add_carry(two_l_minus_1, kForgeL, kForgeL);
  sub_borrow(two_l_minus_1, two_l_minus_1, U256::from_u64(1));
  add_carry(x_plus_l, x, kForgeL);  // q = 1, r = 5
  for (bool downstream : {true, false}) {
    CircuitBuilder b(BuildMode::kShapeAndWitness);
    const Var out = b.public_input(forge_fr(x));
    const Var xv = b.private_wire(forge_fr(x_plus_l));
    {
      CircuitBuilder::Scope s(b, "weak");
      std::vector<Var> q;
      for (int i = 0; i < 3; ++i) q.push_back(b.private_wire(i == 0 ? Fr::one() : Fr::zero()));
      for (const Var& qb : q) circuit::enforce_boolean(b, qb, "q boolean");
      const std::vector<Var> r = circuit::alloc_bits_at_most(b, x, two_l_minus_1, "r");
      b.enforce_equal(circuit::pack_bits(q) * forge_fr(kForgeL) + circuit::pack_bits(r), xv,
                      "x == q*l + r");
      if (downstream) b.enforce_equal(circuit::pack_bits(r), out, "out == r");
    }
    const R1cs r1cs = b.take_r1cs();
    const std::vector<Fr> w = b.take_witness();
    ASSERT_EQ(r1cs.first_unsatisfied(w), std::nullopt);
    const CircuitInstances inst = find_instances(r1cs);
    ASSERT_EQ(inst.error, "");
    ASSERT_EQ(inst.reductions.size(), 1u);
    const std::vector<ForgeryCase> cases = wrapped_representations(r1cs, inst, 0, w);
    // q' = 0 (r' = r + l) and q' = 7 (r' = r - 6l + p, below 2l too): both pass the walk.
    ASSERT_EQ(cases.size(), 2u);
    for (const ForgeryCase& c : cases) {
      const std::string report = refused_by_its_walk(Forger(r1cs), inst, c, w);
      if (downstream) {
        EXPECT_NE(report.find("'weak/out == r', outside its bound walk 'weak/r'"),
                  std::string::npos)
            << report;
      } else {
        EXPECT_NE(report.find("ACCEPTED"), std::string::npos) << report;
      }
      EXPECT_EQ(report.rfind("weak: x = ", 0), 0u) << report;
    }
  }
}

// On a real circuit: the ownership circuit's secret key feeds the Poseidon of PK(sk); forced to
// another value, PK's Poseidon is recomputed and the reduction's hints stay, so the first
// constraint broken is that reduction's recomposition; its honest values change nothing.
TEST(Forge, OnTheOwnershipCircuit) {
  const R1cs& r1cs = circuit_r1cs(*find_circuit("ownership-721", 0));
  const std::vector<Fr> w = ownership_witness(ownership_request_from_seed(3));
  ASSERT_EQ(r1cs.first_unsatisfied(w), std::nullopt);
  const Forger forger(r1cs);
  const uint32_t sk = 1 + r1cs.num_public;  // the first private wire
  const ForcedWire same[] = {{sk, w[sk]}};
  const Forgery honest = forger.forge(w, same);
  EXPECT_EQ(honest.witness, w);
  EXPECT_EQ(honest.first_unsatisfied, std::nullopt);
  const ForcedWire changed[] = {{sk, w[sk] + Fr::one()}};
  const Forgery f = forger.forge(w, changed);
  EXPECT_GT(f.recomputed, 200u);
  EXPECT_EQ(f.label, "O1 pk/PK(sk)/mod l/x == q*l + r");
}

}  // namespace
}  // namespace enygma::test
