// The DvP gadgets other than the Merkle path (circuit_merkle_test.cpp) against their native
// twins and their edges: PK(sk) with the exact reduction (every alias of the remainder
// refused: the reference's free quotient), the three note hashes, amounts below 10^36 as an
// exact integer bound, pairwise distinctness where enabled, and the public-input binding.
// Every gadget's wires are pinned (support/audit.hpp).
//
// ENYGMA_SWEEP=full: 2,000 random amounts around each edge and 200 spend keys (default 100
// and 8).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "core/circuit/amount.hpp"
#include "core/circuit/distinct.hpp"
#include "core/circuit/dvp_note.hpp"
#include "core/circuit/mod_l.hpp"
#include "core/circuit/poseidon_gadget.hpp"
#include "core/circuit/public_binding.hpp"
#include "core/circuit/spend_key.hpp"
#include "core/dvp/relation.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "core/primitives/poseidon.hpp"
#include "support/audit.hpp"
#include "support/sweep.hpp"
#include "support/test_rng.hpp"

namespace enygma::circuit {
namespace {

using test::TestRng;

// Ties a gadget's output combination to a public input, so that the audit sees every wire
// that feeds it and the output is checked.
struct BuiltGadget {
  R1cs r1cs;
  std::vector<Fr> witness;
  bool satisfied() const { return !r1cs.first_unsatisfied(witness).has_value(); }
  std::string audit_all() const { return audit(r1cs, witness, 1, r1cs.num_wires); }
};

template <class Define>
BuiltGadget build(Define&& define) {
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  define(b);
  return {b.take_r1cs(), b.take_witness()};
}

// ---- PK(sk) = Poseidon(sk, sk) mod l ----------------------------------------------------------

BuiltGadget spend_key_run(const Fr& sk, const Fr& claimed_pk) {
  return build([&](CircuitBuilder& b) {
    const Var pk = b.public_input(claimed_pk);
    const Var sk_wire = b.private_wire(sk);
    b.enforce_equal(spend_public_key(b, sk_wire, "PK"), pk, "pk");
  });
}

TEST(SpendKeyGadget, MatchesNativeAndPinsEveryWire) {
  TestRng rng(1);
  std::vector<Fr> keys = {Fr::zero(), Fr::one(), -Fr::one()};
  const int n = test::full_sweep() ? 200 : 8;
  for (int i = 0; i < n; ++i) keys.push_back(rng.field<Fr>());
  for (const Fr& sk : keys) {
    const Fr pk = dvp::spend_public_key(sk);
    EXPECT_LT(cmp(pk.to_u256(), babyjubjub::subgroup_order()), 0);
    const BuiltGadget r = spend_key_run(sk, pk);
    EXPECT_TRUE(r.satisfied()) << sk.to_decimal();
    EXPECT_EQ(r.audit_all(), "") << sk.to_decimal();
    EXPECT_FALSE(spend_key_run(sk, pk + Fr::one()).satisfied());
  }
  EXPECT_EQ(spend_key_run(Fr::one(), dvp::spend_public_key(Fr::one())).r1cs.num_constraints(),
            240u + 445 + 1);
}

// The reference's PK checks q*l + r == Poseidon(sk, sk) and r < l with q free, so every r < l
// passes with q = (x - r) / l in F_p. The exact reduction takes only the true remainder: every
// other (q in [0, 7], r < 2^251) with q*l + r == x in F_p, i.e. the wrapped representatives,
// fails, and so does any r below l with the true quotient.
TEST(SpendKeyGadget, TheReductionAcceptsOnlyTheTrueRemainder) {
  TestRng rng(2);
  const Fr l = *Fr::from_canonical(babyjubjub::subgroup_order());
  for (int trial = 0; trial < 4; ++trial) {
    const Fr sk = rng.field<Fr>();
    const Fr x = poseidon(sk, sk);
    const U256 r_true = babyjubjub::mod_l(x);
    unsigned q_true = 0;
    for (Fr y = x; y.to_u256() != r_true; y -= l) ++q_true;
    auto passes = [&](unsigned q, const U256& r) {
      return build([&](CircuitBuilder& b) {
               const Var sk_wire = b.private_wire(sk);
               const PoseidonInput in[2] = {sk_wire, sk_wire};
               mod_l_exact_with_hint(b, poseidon_gadget(b, in, "P"), q, r, "m");
             })
          .satisfied();
    };
    EXPECT_TRUE(passes(q_true, r_true));
    Fr y = x;
    for (unsigned q = 0; q < 8; ++q, y -= l) {
      const U256 r = y.to_u256();
      if (q == q_true || r.bit_length() > 251) continue;  // the witness holds 251 bits of r
      EXPECT_FALSE(passes(q, r)) << "wrapped representative with q = " << q;
    }
    const U256 other = babyjubjub::mod_l(rng.field<Fr>());
    if (other != r_true) {
      EXPECT_FALSE(passes(q_true, other));
    }
  }
}

// ---- note hashes --------------------------------------------------------------------------

TEST(NoteGadgets, MatchTheNativeNotesOfTheThreeFormats) {
  TestRng rng(3);
  for (int trial = 0; trial < 3; ++trial) {
    Fr v[5];
    for (Fr& x : v) x = rng.field<Fr>();
    const Fr expected[3] = {dvp::note_erc20(v[0], v[1], v[2], v[3]),
                            dvp::note_erc1155(v[0], v[1], v[2], v[3], v[4]),
                            dvp::note_erc721(v[0], v[1], v[2])};
    const size_t calls[3] = {3, 4, 2};
    for (int format = 0; format < 3; ++format) {
      const BuiltGadget r = build([&](CircuitBuilder& b) {
        const Var out = b.public_input(expected[format]);
        Var w[5];
        for (int i = 0; i < 5; ++i) w[i] = b.private_wire(v[i]);
        Lc note;
        if (format == 0) note = note_erc20(b, w[0], w[1], w[2], w[3], "n");
        if (format == 1) note = note_erc1155(b, w[0], w[1], w[2], w[3], w[4], "n");
        if (format == 2) note = note_erc721(b, w[0], w[1], w[2], "n");
        b.enforce_equal(note, out, "out");
      });
      EXPECT_TRUE(r.satisfied()) << format;
      EXPECT_EQ(r.r1cs.num_constraints(), 240 * calls[format] + 1) << format;
      // The unused inputs (ERC-20 has no id, ERC-721 neither amount nor token) appear in no
      // constraint; all the others are pinned.
      const uint32_t used = format == 0 ? 4 : format == 1 ? 5 : 3;
      EXPECT_EQ(audit(r.r1cs, r.witness, 1, 2 + used), "") << format;
      EXPECT_EQ(audit(r.r1cs, r.witness, 7, r.r1cs.num_wires), "") << format;
    }
  }
  // The orders differ: ERC-1155 hashes the token before the amount.
  const Fr a = Fr::from_u64(10), t = Fr::from_u64(20);
  EXPECT_NE(dvp::note_erc20(Fr::one(), Fr::one(), a, t),
            dvp::note_erc20(Fr::one(), Fr::one(), t, a));
  EXPECT_EQ(dvp::note_erc1155(Fr::one(), Fr::one(), a, t, Fr::one()),
            poseidon(poseidon(poseidon(poseidon(Fr::one(), Fr::one()), t), Fr::one()), a));
}

// ---- amounts below 10^36 ------------------------------------------------------------------

BuiltGadget amount_run(const Fr& value) {
  return build([&](CircuitBuilder& b) { alloc_amount(b, value, "a"); });
}

TEST(AmountGadget, TheBoundIsExactlyTenToThe36) {
  const U256 bound = dvp::amount_bound();
  auto fr = [](const U256& x) { return *Fr::from_canonical(x); };
  const Fr a36 = fr(bound);
  EXPECT_EQ(a36.to_decimal(), "1000000000000000000000000000000000000");
  EXPECT_TRUE(amount_run(Fr::zero()).satisfied());
  EXPECT_TRUE(amount_run(Fr::one()).satisfied());
  EXPECT_TRUE(amount_run(a36 - Fr::one()).satisfied());
  EXPECT_FALSE(amount_run(a36).satisfied());
  EXPECT_FALSE(amount_run(a36 + Fr::one()).satisfied());
  const Fr two_120 = fr(U256{{0, uint64_t(1) << 56, 0, 0}});
  EXPECT_FALSE(amount_run(two_120 - Fr::one()).satisfied());
  // From 2^120 on the bits hold only the low 120: the recomposition fails, even when those
  // low bits alone would pass the bound.
  EXPECT_FALSE(amount_run(two_120).satisfied());
  EXPECT_FALSE(amount_run(two_120 + Fr::from_u64(5)).satisfied());
  EXPECT_FALSE(amount_run(-Fr::one()).satisfied());
  EXPECT_EQ(amount_run(Fr::one()).r1cs.num_constraints(), 163u);

  // Random values on both sides of the bound, and of 2^120.
  TestRng rng(4);
  const int n = test::full_sweep() ? 2000 : 100;
  for (int i = 0; i < n; ++i) {
    const Fr d = Fr::from_u64(rng.next() >> (rng.next() % 64));
    const Fr below = a36 - Fr::one() - d, above = a36 + d;
    EXPECT_TRUE(amount_run(below).satisfied()) << below.to_decimal();
    EXPECT_FALSE(amount_run(above).satisfied()) << above.to_decimal();
    const Fr random = fr(U256{{rng.next(), rng.next() >> (rng.next() % 64), 0, 0}});
    EXPECT_EQ(amount_run(random).satisfied(), cmp(random.to_u256(), bound) < 0);
  }
}

TEST(AmountGadget, NoFreeWire) {
  for (const char* v : {"0", "1", "999999999999999999999999999999999999", "123456789"}) {
    const BuiltGadget r = amount_run(*Fr::from_decimal(v));
    ASSERT_TRUE(r.satisfied());
    EXPECT_EQ(r.audit_all(), "") << v;
  }
}

// ---- pairwise distinctness --------------------------------------------------------------------

BuiltGadget distinct_run(const std::vector<Fr>& values, const std::vector<bool>& enabled) {
  return build([&](CircuitBuilder& b) {
    std::vector<Lc> v, e;
    for (const Fr& x : values) v.push_back(Lc(b.public_input(x)));
    for (bool on : enabled) {
      // A boolean wire, pinned as the circuits pin theirs (there: 1 - is_zero(amount)).
      const Var w = b.private_wire(on ? Fr::one() : Fr::zero());
      b.enforce_equal(w, Lc::constant(on ? 1 : 0), "enabled");
      e.push_back(Lc(w));
    }
    enforce_distinct_where_enabled(b, v, e, "distinct");
  });
}

TEST(DistinctGadget, EqualValuesAreRefusedOnlyBetweenEnabledEntries) {
  const Fr z = poseidon(Fr::zero(), Fr::zero());
  const Fr a = Fr::from_u64(11), b = Fr::from_u64(12);
  EXPECT_TRUE(distinct_run({a, b, z, z}, {true, true, false, false}).satisfied());
  EXPECT_FALSE(distinct_run({a, a, z, z}, {true, true, false, false}).satisfied());
  EXPECT_TRUE(distinct_run({a, a, z, z}, {true, false, false, false}).satisfied());
  EXPECT_FALSE(distinct_run({a, b, z, z}, {true, true, true, true}).satisfied());
  EXPECT_FALSE(distinct_run({z, b, a, z}, {true, true, false, true}).satisfied());
  EXPECT_TRUE(distinct_run({z, b, a, z}, {true, true, false, false}).satisfied());
  // Ten entries: 45 pairs of 3 constraints (+ the 10 pins of this test).
  std::vector<Fr> ten;
  for (uint64_t i = 0; i < 10; ++i) ten.push_back(Fr::from_u64(100 + i));
  EXPECT_EQ(distinct_run(ten, std::vector<bool>(10, true)).r1cs.num_constraints(), 135u + 10);
}

TEST(DistinctGadget, NoFreeWireAlsoWhereExemptPairsAreEqual) {
  const Fr z = poseidon(Fr::zero(), Fr::zero());
  // Exempt equal pairs (d = 0, m = 0): inv is pinned to 0 by inv * (1 - m) = 0. The values of
  // disabled entries (public wires 2, 3, 5) are free here by design: the gadget asks nothing
  // of them, and the circuits pin them elsewhere (J3). The enabled values (wires 1 and 4) and
  // every private wire (the flags, the products m, the inverses) are pinned.
  const BuiltGadget r =
      distinct_run({Fr::from_u64(5), z, z, Fr::from_u64(6), z}, {true, false, false, true, false});
  ASSERT_TRUE(r.satisfied());
  EXPECT_EQ(audit(r.r1cs, r.witness, 1, 2), "");
  EXPECT_EQ(audit(r.r1cs, r.witness, 4, 5), "");
  EXPECT_EQ(audit(r.r1cs, r.witness, 6, r.r1cs.num_wires), "");
}

// ---- binding of a public input ----------------------------------------------------------------

TEST(PublicBinding, OneConstraintPinsItsWireAndTheInput) {
  const BuiltGadget r = build([&](CircuitBuilder& b) {
    const Var x = b.public_input(Fr::from_u64(1234));
    bind_public_input(b, x, "x^2");
  });
  EXPECT_EQ(r.r1cs.num_constraints(), 1u);
  EXPECT_TRUE(r.satisfied());
  // The input appears in A and B (so its verifying-key point is not the identity).
  EXPECT_EQ(r.r1cs.a.row(0).size(), 1u);
  EXPECT_EQ(r.r1cs.b.row(0).size(), 1u);
  EXPECT_EQ(r.r1cs.a.row(0)[0].wire, 1u);
  // Changing the input alone (or the square alone) breaks the constraint.
  EXPECT_EQ(r.audit_all(), "");
}

}  // namespace
}  // namespace enygma::circuit
