// Booleans and binary decompositions.
//
// Two kinds of decomposition:
//  - to_bits / alloc_bits with n <= 252 bits: 2^n < p, so the recomposition cannot wrap and the
//    bits of a value are unique. Cost n (+1 to tie the bits to an existing combination).
//  - canonical 254-bit decompositions (value < p enforced with compare.hpp's bound walk), for
//    values that may be any field element. Cost about 353.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "core/circuit/builder.hpp"

namespace enygma::circuit {

// x * (1 - x) = 0.
void enforce_boolean(CircuitBuilder& b, const Lc& x, std::string_view label);

// sum over i of 2^i * bits[i] (bits least significant first).
Lc pack_bits(std::span<const Var> bits);

// n boolean wires (n <= 252) whose recomposition is `value`, for a value that has no wire of its
// own (a private input used only through its bits). The witness holds the low n-1 bits of
// `value` and, as the top "bit", (value - low) / 2^(n-1): boolean exactly when value < 2^n, so a
// value out of range gives a witness that fails booleanity instead of a silently truncated one.
std::vector<Var> alloc_bits(CircuitBuilder& b, const Fr& value, unsigned n, std::string_view label);

// The n bits (n <= 252) of x: alloc_bits + pack_bits(bits) == x. Satisfiable iff x < 2^n.
std::vector<Var> to_bits(CircuitBuilder& b, const Lc& x, unsigned n, std::string_view label);

// The 254 canonical bits of a field element (its integer in [0, p)): unique for every value.
// alloc_bits_canonical is for a value without a wire (its value is pack_bits of the result).
std::vector<Var> alloc_bits_canonical(CircuitBuilder& b, const Fr& value, std::string_view label);
std::vector<Var> to_bits_canonical(CircuitBuilder& b, const Lc& x, std::string_view label);

}  // namespace enygma::circuit
