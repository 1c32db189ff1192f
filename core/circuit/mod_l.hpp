// x mod l in the circuit, exactly: the remainder of the canonical integer of x divided by l,
// the order of Baby Jubjub's prime subgroup (transfer-relation.md, "x mod l").
#pragma once

#include <string_view>
#include <vector>

#include "core/circuit/builder.hpp"

namespace enygma::circuit {

struct ModLResult {
  Lc remainder;                     // pack_bits(remainder_bits), < l
  std::vector<Var> remainder_bits;  // 251 bits, least significant first
  std::vector<Var> quotient_bits;   // 3 bits
};

// x == q*l + r with q in [0, 7] (3 bits), r < l (251 bits, r <= l - 1 by the bound walk) and
// NO wrap. 8l > p, so q*l + r could also equal x + p: that needs q == 7 and r >= p - 7l (then
// x < 8l - p, about 2^125.6). The walk therefore also enforces q == 7 => r <= p - 7l - 1, which
// makes q*l + r < p, hence equal to the canonical integer of x: q and r are unique.
// Cost about 435 constraints; always satisfiable (the caller compares the remainder).
ModLResult mod_l_exact(CircuitBuilder& b, const Lc& x, std::string_view label);

// The 251 bits of a Baby Jubjub scalar below l, for a value without a wire (its value is
// pack_bits of the result): the bound walk to l - 1, so that every scalar has one
// representation (R and R + m*l give the same point [R]H). A value >= l gives bits that fail
// the walk (a value of 2^251 or more: all ones).
std::vector<Var> alloc_bits_below_l(CircuitBuilder& b, const Fr& value, std::string_view label);

// The same constraints with a chosen witness (q < 8, r < 2^251) instead of the true quotient
// and remainder: for tests that try the wrapped representation and other forgeries.
ModLResult mod_l_exact_with_hint(CircuitBuilder& b, const Lc& x, unsigned q, const U256& r,
                                 std::string_view label);

}  // namespace enygma::circuit
