// Comparisons, zero tests and selection.
#pragma once

#include <string_view>
#include <vector>

#include "core/circuit/builder.hpp"
#include "core/field/u256.hpp"

namespace enygma::circuit {

// Allocates the n = bit_length(bound) bits of `value` (least significant first) and enforces
// that they are boolean and that their integer is <= bound.
//
// The walk from the most significant bit (bellman's enforce_in_field idea): run = the AND of
// the bits at the positions where bound has a 1, so far; run == 1 means the prefix equals
// bound's. Where bound has a 0, (1 - run - b) * b = 0 is booleanity when run == 0 and b == 0
// when run == 1 (exceeding the bound is impossible), in ONE constraint. Where bound has a 1,
// booleanity and the run update. Cost: n + popcount(bound) - 1, less the run updates that no
// later 0 position needs. The witness takes the low n bits of value: a value above the bound
// gives bits that fail the walk (callers tie the bits to the value they decompose).
std::vector<Var> alloc_bits_at_most(CircuitBuilder& b, const U256& value, const U256& bound,
                                    std::string_view label);

// The same walk with a second, conditional bound: bits <= bound always, and bits <= tighter
// when `cond` (a boolean) is 1, where tighter < bound. Above the first position m where the
// bounds differ (bound has 1, tighter 0 there) one run serves both; from m on a second run
// run2 = cond * run tracks the tighter prefix. run * run2 == 0 from m on, so positions where
// both bounds have a 0 still cost one constraint, (1 - run - run2 - b) * b = 0. Extra cost over
// alloc_bits_at_most: one product at m plus one per 1 of `tighter` below m.
std::vector<Var> alloc_bits_at_most_dual(CircuitBuilder& b, const U256& value, const U256& bound,
                                         const U256& tighter, const Lc& cond,
                                         std::string_view label);

// e = (x == 0) as a boolean wire: x * inv = 1 - e, x * e = 0, inv * e = 0 (the third pins the
// hint inv to 0 when x == 0, so no witness value is free).
Var is_zero(CircuitBuilder& b, const Lc& x, std::string_view label);
Var is_equal(CircuitBuilder& b, const Lc& x, const Lc& y, std::string_view label);

// bit ? if_one : if_zero, for a boolean bit: one constraint bit * (if_one - if_zero) = z - if_zero.
Var select(CircuitBuilder& b, const Lc& bit, const Lc& if_one, const Lc& if_zero,
           std::string_view label);

}  // namespace enygma::circuit
