// Booleans, decompositions, bound walks, zero tests, selection and the exact reduction mod l:
// honest values satisfy, every internal wire is pinned (audit), and out-of-range or forged
// values do not satisfy.
#include <gtest/gtest.h>

#include "core/circuit/bits.hpp"
#include "core/circuit/compare.hpp"
#include "core/circuit/mod_l.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "support/audit.hpp"
#include "support/test_rng.hpp"

namespace enygma::circuit {
namespace {

using test::TestRng;

constexpr U256 kFrModulus = Fr::kModulus;
constexpr U256 kBjjOrder = BjjScalarParams::kModulus;

U256 minus_one(U256 x) {
  sub_borrow(x, x, U256::from_u64(1));
  return x;
}
Fr fr(const U256& x) {
  return Fr::from_u256_reduce(x);
}
unsigned popcount(const U256& x) {
  unsigned n = 0;
  for (unsigned i = 0; i < 256; ++i) n += x.bit(i);
  return n;
}

struct BuiltBits {
  R1cs r1cs;
  std::vector<Fr> witness;
  uint32_t first_internal;
};

// Runs `gadget` in kShapeAndWitness mode after allocating `inputs` as private wires.
template <class F>
BuiltBits build(std::vector<Fr> inputs, F gadget) {
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  std::vector<Var> vars;
  for (const Fr& x : inputs) vars.push_back(b.private_wire(x));
  const uint32_t first = b.num_wires();
  gadget(b, vars);
  return {b.take_r1cs(), b.take_witness(), first};
}

bool satisfied(const BuiltBits& c) {
  return !c.r1cs.first_unsatisfied(c.witness).has_value();
}

TEST(Bits, ToBitsRecomposesAndRejectsOutOfRange) {
  TestRng rng(1);
  for (unsigned n : {1u, 2u, 7u, 64u, 200u, 250u, 252u}) {
    U256 v = rng.u256();
    for (unsigned i = n; i < 256; ++i) v.w[i / 64] &= ~(uint64_t(1) << (i % 64));
    BuiltBits c = build({fr(v)}, [&](CircuitBuilder& b, const std::vector<Var>& in) {
      auto bits = to_bits(b, in[0], n, "x");
      EXPECT_EQ(bits.size(), n);
    });
    EXPECT_EQ(c.r1cs.num_constraints(), n + 1);
    EXPECT_EQ(audit(c.r1cs, c.witness, c.first_internal, c.r1cs.num_wires), "") << n;
    // 2^n does not fit in n bits.
    BuiltBits over =
        build({fr(U256::from_u64(1)) * Fr::from_u64(2).pow(U256::from_u64(n))},
              [&](CircuitBuilder& b, const std::vector<Var>& in) { to_bits(b, in[0], n, "x"); });
    EXPECT_FALSE(satisfied(over)) << n;
  }
}

TEST(Bits, AllocBitsOutOfRangeFailsBooleanityInsteadOfTruncating) {
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  auto bits = alloc_bits(b, Fr::from_u64(300), 8, "v");  // 300 >= 2^8
  EXPECT_EQ(pack_bits(bits).value(), Fr::from_u64(300));
  EXPECT_TRUE(b.first_violation().has_value());
  CircuitBuilder ok(BuildMode::kShapeAndWitness);
  auto bits2 = alloc_bits(ok, Fr::from_u64(255), 8, "v");
  EXPECT_EQ(pack_bits(bits2).value(), Fr::from_u64(255));
  EXPECT_FALSE(ok.first_violation().has_value());
}

TEST(Bits, CanonicalDecompositionIsUniqueAndBelowP) {
  TestRng rng(2);
  std::vector<Fr> values = {Fr::zero(), Fr::one(), -Fr::one(), fr(U256{{0, 0, 0, 1ull << 61}})};
  for (int i = 0; i < 8; ++i) values.push_back(rng.field<Fr>());
  for (const Fr& v : values) {
    BuiltBits c = build({v}, [&](CircuitBuilder& b, const std::vector<Var>& in) {
      auto bits = to_bits_canonical(b, in[0], "x");
      ASSERT_EQ(bits.size(), 254u);
      EXPECT_EQ(pack_bits(bits).value(), v);
    });
    // p - 1 has 100 ones and no trailing ones: 254 + 99 walk constraints + recomposition.
    EXPECT_EQ(c.r1cs.num_constraints(), 254u + popcount(minus_one(kFrModulus)) - 1 + 1);
    EXPECT_EQ(audit(c.r1cs, c.witness, c.first_internal, c.r1cs.num_wires), "");
  }
  // The non-canonical decomposition x + p (possible for x < 2^254 - p) must fail the walk.
  const U256 x = U256::from_u64(12345);
  U256 alias;
  add_carry(alias, x, kFrModulus);
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  auto bits = alloc_bits_at_most(b, alias, minus_one(kFrModulus), "x");
  EXPECT_EQ(pack_bits(bits).value(), fr(x));     // same field element...
  EXPECT_TRUE(b.first_violation().has_value());  // ...but above the bound
}

// Exhaustive over small bounds: the walk accepts exactly the values <= bound, and with the
// conditional second bound exactly those <= tighter when cond = 1.
TEST(Compare, BoundWalksAcceptExactlyTheValuesInRange) {
  for (uint64_t bound = 1; bound < 32; ++bound) {
    const unsigned n = U256::from_u64(bound).bit_length();
    for (uint64_t value = 0; value < (uint64_t(1) << n); ++value) {
      CircuitBuilder b(BuildMode::kShapeAndWitness);
      alloc_bits_at_most(b, U256::from_u64(value), U256::from_u64(bound), "x");
      EXPECT_EQ(!b.first_violation().has_value(), value <= bound) << bound << " " << value;
    }
    for (uint64_t tighter = 0; tighter < bound; ++tighter) {
      for (uint64_t value = 0; value < (uint64_t(1) << n); ++value) {
        for (uint64_t cond = 0; cond < 2; ++cond) {
          CircuitBuilder b(BuildMode::kShapeAndWitness);
          Var c = b.private_wire(Fr::from_u64(cond));
          alloc_bits_at_most_dual(b, U256::from_u64(value), U256::from_u64(bound),
                                  U256::from_u64(tighter), c, "x");
          const bool expect = value <= bound && (cond == 0 || value <= tighter);
          ASSERT_EQ(!b.first_violation().has_value(), expect)
              << bound << " " << tighter << " " << value << " " << cond;
        }
      }
    }
  }
}

TEST(Compare, BoundWalkWiresArePinned) {
  // The bits tied to a value: every bit and run wire is then determined.
  TestRng rng(3);
  U256 tighter;
  sub_borrow(tighter, kBjjOrder, U256{{0, 0, 1, 0}});  // l - 2^128: shares the top bits with l - 1
  for (int i = 0; i < 4; ++i) {
    const U256 v = babyjubjub::mod_l(rng.field<Fr>());
    for (uint64_t cond = 0; cond < 2; ++cond) {
      if (cond == 1 && cmp(v, tighter) > 0) continue;
      BuiltBits c =
          build({Fr::from_u64(cond), fr(v)}, [&](CircuitBuilder& b, const std::vector<Var>& in) {
            auto bits = alloc_bits_at_most_dual(b, v, minus_one(kBjjOrder), tighter, in[0], "x");
            b.enforce_equal(pack_bits(bits), in[1], "tie");
          });
      EXPECT_EQ(audit(c.r1cs, c.witness, c.first_internal, c.r1cs.num_wires), "");
    }
  }
}

TEST(Compare, IsZeroIsEqualSelect) {
  TestRng rng(4);
  for (const Fr& x : {Fr::zero(), Fr::one(), rng.field<Fr>()}) {
    BuiltBits c = build({x}, [&](CircuitBuilder& b, const std::vector<Var>& in) {
      Var e = is_zero(b, in[0], "z");
      EXPECT_EQ(e.value(), x.is_zero() ? Fr::one() : Fr::zero());
    });
    EXPECT_EQ(c.r1cs.num_constraints(), 3u);
    EXPECT_EQ(audit(c.r1cs, c.witness, c.first_internal, c.r1cs.num_wires), "");
  }
  const Fr a = rng.field<Fr>(), other = rng.field<Fr>();
  for (const Fr& y : {a, other}) {
    BuiltBits c = build({a, y}, [&](CircuitBuilder& b, const std::vector<Var>& in) {
      Var e = is_equal(b, in[0], in[1], "eq");
      EXPECT_EQ(e.value(), a == y ? Fr::one() : Fr::zero());
    });
    EXPECT_EQ(audit(c.r1cs, c.witness, c.first_internal, c.r1cs.num_wires), "");
  }
  // A forged e = 1 for a nonzero x cannot satisfy: x * e = 0 fails.
  CircuitBuilder f(BuildMode::kShapeAndWitness);
  Var x = f.private_wire(Fr::from_u64(5));
  Var inv = f.private_wire(Fr::zero());
  Var e = f.private_wire(Fr::one());
  f.enforce(x, inv, Lc::constant(1) - Lc(e), "");
  f.enforce(x, e, Lc(), "");
  EXPECT_TRUE(f.first_violation().has_value());
  for (uint64_t bit = 0; bit < 2; ++bit) {
    const Fr p = rng.field<Fr>(), q = rng.field<Fr>();
    BuiltBits c =
        build({Fr::from_u64(bit), p, q}, [&](CircuitBuilder& b, const std::vector<Var>& in) {
          Var z = select(b, in[0], in[1], in[2], "sel");
          EXPECT_EQ(z.value(), bit ? p : q);
        });
    EXPECT_EQ(c.r1cs.num_constraints(), 1u);
    EXPECT_EQ(audit(c.r1cs, c.witness, c.first_internal, c.r1cs.num_wires), "");
  }
}

// ---- mod_l_exact --------------------------------------------------------------------------

Fr times_l(uint64_t q) {
  return Fr::from_u64(q) * fr(kBjjOrder);
}

TEST(ModL, MatchesNativeReductionOnRandomAndEdgeValues) {
  TestRng rng(5);
  U256 delta;  // 8l - p
  U256 eight_l;
  mul_small_add(eight_l, kBjjOrder, 8, 0);
  sub_borrow(delta, eight_l, kFrModulus);
  std::vector<Fr> xs = {Fr::zero(),
                        Fr::one(),
                        fr(minus_one(kBjjOrder)),
                        fr(kBjjOrder),
                        times_l(7),
                        times_l(7) - Fr::one(),
                        -Fr::one(),
                        fr(minus_one(delta)),
                        fr(delta)};
  for (int i = 0; i < 6; ++i) xs.push_back(rng.field<Fr>());
  size_t cost = 0;
  for (const Fr& x : xs) {
    BuiltBits c = build({x}, [&](CircuitBuilder& b, const std::vector<Var>& in) {
      ModLResult r = mod_l_exact(b, in[0], "m");
      EXPECT_EQ(r.remainder.value(), fr(babyjubjub::mod_l(x)));
      EXPECT_EQ(r.remainder_bits.size(), 251u);
    });
    EXPECT_EQ(audit(c.r1cs, c.witness, c.first_internal, c.r1cs.num_wires), "") << x.to_decimal();
    if (cost == 0) cost = c.r1cs.num_constraints();
    EXPECT_EQ(c.r1cs.num_constraints(), cost);
  }
  // 3 quotient bits, 2 products for q == 7, the walk over 251 bits (l - 1 has 114 ones: 113 run
  // updates), 1 product to start the second run at bit 127, 74 second-run updates (the ones of
  // p - 7l - 1 below bit 127 but its trailing one), and x == q*l + r.
  EXPECT_EQ(cost, 3u + 2u + 251u + 113u + 1u + 74u + 1u);
}

// Build mod_l_exact of x with a chosen (q, r) witness; true if it satisfies.
bool accepts(const Fr& x, unsigned q, const U256& r) {
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  Var vx = b.private_wire(x);
  mod_l_exact_with_hint(b, vx, q, r, "m");
  return !b.first_violation().has_value();
}

TEST(ModL, RejectsTheWrappedRepresentationAndOtherForgeries) {
  U256 seven_l, d;  // d = p - 7l: for x < 8l - p, q = 7 with r = x + d also gives q*l + r == x
  mul_small_add(seven_l, kBjjOrder, 7, 0);
  sub_borrow(d, kFrModulus, seven_l);
  for (uint64_t small : {0ull, 1ull, 2ull, 123456789ull}) {
    const U256 x = U256::from_u64(small);
    U256 wrapped;
    add_carry(wrapped, x, d);
    ASSERT_LT(cmp(wrapped, kBjjOrder), 0);  // a remainder below l: only the wrap bound excludes it
    // The field equation holds for the forgery...
    EXPECT_EQ(times_l(7) + fr(wrapped), fr(x));
    EXPECT_FALSE(accepts(fr(x), 7, wrapped)) << small;
    EXPECT_TRUE(accepts(fr(x), 0, x)) << small;
  }
  // The largest wrapped remainder (x = 8l - p - 1, r = l - 1) is rejected as well.
  EXPECT_FALSE(accepts(times_l(7) + fr(minus_one(kBjjOrder)), 7, minus_one(kBjjOrder)));
  // Honest q = 7 near the top: x in [7l, p).
  EXPECT_TRUE(accepts(times_l(7), 7, U256{}));
  EXPECT_TRUE(accepts(-Fr::one(), 7, minus_one(d)));
  // r + l with q - 1 (same integer, remainder out of range), and plain wrong hints.
  TestRng rng(6);
  const Fr x = rng.field<Fr>();
  const U256 r = babyjubjub::mod_l(x);
  U256 ql;
  sub_borrow(ql, x.to_u256(), r);
  unsigned q = 0;
  for (U256 acc; cmp(acc, ql) < 0; ++q) add_carry(acc, acc, kBjjOrder);
  EXPECT_TRUE(accepts(x, q, r));
  if (q > 0) {
    U256 r_plus_l;
    add_carry(r_plus_l, r, kBjjOrder);
    if (r_plus_l.bit_length() <= 251) {
      EXPECT_FALSE(accepts(x, q - 1, r_plus_l));
    }
  }
  EXPECT_FALSE(accepts(x, (q + 1) % 8, r));
  EXPECT_FALSE(accepts(x, q, minus_one(r.is_zero() ? kBjjOrder : r)));
}

}  // namespace
}  // namespace enygma::circuit
