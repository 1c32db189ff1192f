// Fixed-base scalar multiplication [s]B on Baby Jubjub for the Pedersen generators G and H,
// with window tables computed once from core/primitives/babyjubjub (never typed by hand).
//
// Layout (about 2 constraints per scalar bit, plus the bits themselves):
//  - a Montgomery-form chain over the low bits (at most 250), 2-bit windows: each window is a
//    4-entry table lookup (1 product: b0*b1) and an incomplete Montgomery addition
//    (3 constraints: lambda, x3, y3); the first window starts the chain without an addition;
//  - conversion of the chain result to twisted Edwards (2 constraints);
//  - the remaining top bits (0..4) and the chain's constant offset as one Edwards table lookup
//    and one complete Edwards addition (6 constraints; 3 with no top bits).
// Cost (fixed_base_mul_cost): 502 constraints for 250 bits, 505 for 251, 513 for 254 (about 2
// per bit). Why no exceptional case of the incomplete addition can occur, for any bits, is
// proven in fixed_base.cpp.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "core/circuit/babyjubjub_gadget.hpp"
#include "core/circuit/builder.hpp"

namespace enygma::circuit {

enum class FixedBase : uint8_t { kG, kH };

const BjjPoint& fixed_base_point(FixedBase base);

// [s]B for s = sum of 2^i * bits[i] over the integers (1 <= n <= 254 bits, least significant
// first). The bits must already be constrained boolean by the caller (they usually come from
// a decomposition that needs them anyway).
PointLc fixed_base_mul(CircuitBuilder& b, FixedBase base, std::span<const Var> bits,
                       std::string_view label);

// Constraints fixed_base_mul adds for n bits (for tests and the cost table).
size_t fixed_base_mul_cost(size_t n);

// Up to 4 boolean bits select one of 2^m constant values for each of two coordinates; the
// coordinates come back as linear combinations. Multilinear interpolation (the Moebius
// transform of the table): 0 products for m <= 1, 1 for m = 2 (b0*b1), 3 for m = 3, 8 for
// m = 4 (b0*b1, b2*b3, and three per coordinate).
struct LcPair {
  Lc first, second;
};
LcPair lookup_pair(CircuitBuilder& b, std::span<const Var> bits, std::span<const Fr> first,
                   std::span<const Fr> second, std::string_view label);

}  // namespace enygma::circuit
