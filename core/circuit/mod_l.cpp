#include "core/circuit/mod_l.hpp"

#include <sodium.h>

#include "core/circuit/bits.hpp"
#include "core/circuit/compare.hpp"
#include "core/primitives/babyjubjub.hpp"

namespace enygma::circuit {

namespace {

constexpr U256 kL = BjjScalarParams::kModulus;

// l - 1 and p - 7l - 1, the bounds of the remainder walk.
struct Bounds {
  U256 l_minus_1, wrap_bound;
};

constexpr Bounds make_bounds() {
  Bounds b;
  sub_borrow(b.l_minus_1, kL, U256::from_u64(1));
  U256 seven_l;
  mul_small_add(seven_l, kL, 7, 0);
  sub_borrow(b.wrap_bound, Fr::kModulus, seven_l);
  sub_borrow(b.wrap_bound, b.wrap_bound, U256::from_u64(1));
  return b;
}
constexpr Bounds kBounds = make_bounds();

}  // namespace

std::vector<Var> alloc_bits_below_l(CircuitBuilder& b, const Fr& value, std::string_view label) {
  U256 x = value.to_u256();
  // The walk sees only the low 251 bits: a value of 2^251 or more would pass as another, smaller
  // one. Its bits are made all ones instead (above l - 1: the walk fails), without a branch on
  // the value (a secret: the balance's blinding).
  const uint64_t above = 0 - uint64_t((x.w[3] >> 59) != 0);
  x.w[0] |= above;
  x.w[1] |= above;
  x.w[2] |= above;
  x.w[3] |= above & ((uint64_t(1) << 59) - 1);
  std::vector<Var> bits = alloc_bits_at_most(b, x, kBounds.l_minus_1, label);
  sodium_memzero(&x, sizeof x);
  return bits;
}

ModLResult mod_l_exact(CircuitBuilder& b, const Lc& x, std::string_view label) {
  // Witness: the canonical integer of x divided by l (q <= 7 since p < 8l).
  U256 xi = x.value().to_u256();
  U256 r = babyjubjub::mod_l(x.value());
  U256 ql;
  sub_borrow(ql, xi, r);
  unsigned q = 0;
  for (U256 acc; cmp(acc, ql) < 0; ++q) add_carry(acc, acc, kL);
  ModLResult out = mod_l_exact_with_hint(b, x, q, r, label);
  sodium_memzero(&xi, sizeof xi);  // x may derive from secrets (keys, shared secrets)
  sodium_memzero(&r, sizeof r);
  sodium_memzero(&ql, sizeof ql);
  return out;
}

ModLResult mod_l_exact_with_hint(CircuitBuilder& b, const Lc& x, unsigned q, const U256& r,
                                 std::string_view label) {
  CircuitBuilder::Scope scope(b, label);
  ModLResult out;
  for (unsigned i = 0; i < 3; ++i) {
    out.quotient_bits.push_back(b.private_wire((q >> i) & 1 ? Fr::one() : Fr::zero()));
  }
  for (const Var& qb : out.quotient_bits) enforce_boolean(b, qb, "q boolean");
  // q == 7 <=> q0 * q1 * q2 == 1.
  Var q01 = b.mul(out.quotient_bits[0], out.quotient_bits[1], "q0 * q1");
  Var q_is_7 = b.mul(q01, out.quotient_bits[2], "q == 7");
  out.remainder_bits =
      alloc_bits_at_most_dual(b, r, kBounds.l_minus_1, kBounds.wrap_bound, q_is_7, "r");
  out.remainder = pack_bits(out.remainder_bits);
  const Fr l_fr = *Fr::from_canonical(kL);
  Lc ql_plus_r = pack_bits(out.quotient_bits) * l_fr + out.remainder;
  b.enforce_equal(ql_plus_r, x, "x == q*l + r");
  return out;
}

}  // namespace enygma::circuit
