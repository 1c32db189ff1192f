// Pairwise distinctness among the enabled entries of a list, in the circuit: for every pair
// i < j with enabled[i] == enabled[j] == 1, values[i] != values[j]. (The join-split's J9: no
// nullifier twice among the inputs that carry an amount; dummy slots all publish the same
// Poseidon(0, 0) and are exempt.)
//
// Per pair, with d = values[i] - values[j] and m = enabled[i] * enabled[j] (a product wire):
//   d * inv = m        m == 1 needs an inverse of d, which exists only when d != 0;
//   inv * (1 - m) = 0  pins inv to 0 when the pair is exempt (d may be 0 there, and
//                      d * inv = 0 alone would leave inv free).
// So inv is m / d, a function of the other wires: no free witness value. 3 constraints per
// pair: n(n-1)/2 * 3 (135 for 10 entries).
#pragma once

#include <span>
#include <string_view>

#include "core/circuit/builder.hpp"

namespace enygma::circuit {

// enabled: booleans (the caller constrains them). values.size() == enabled.size().
void enforce_distinct_where_enabled(CircuitBuilder& b, std::span<const Lc> values,
                                    std::span<const Lc> enabled, std::string_view label);

// value != 0 where enabled == 1 (a boolean the caller constrains), the pair rule above against
// a constant: value * inv = enabled, inv * (1 - enabled) = 0. 2 constraints, inv pinned.
void enforce_nonzero_where_enabled(CircuitBuilder& b, const Lc& value, const Lc& enabled,
                                   std::string_view label);

}  // namespace enygma::circuit
