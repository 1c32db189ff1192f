// GT, the order-r subgroup of Fp12^* where pairings take their values: membership test and a
// fixed byte encoding (for storing e(alpha, beta) in a verifying key).
//
// Encoding (384 bytes): the twelve Fp coefficients, each 32 bytes big-endian, canonical
// (< p), from the highest to the lowest:
//   c1.c2.c1 | c1.c2.c0 | c1.c1.c1 | c1.c1.c0 | c1.c0.c1 | c1.c0.c0 |
//   c0.c2.c1 | c0.c2.c0 | c0.c1.c1 | c0.c1.c0 | c0.c0.c1 | c0.c0.c0
// for x = c0 + c1 w, c_i = c_i.c0 + c_i.c1 v + c_i.c2 v^2, c_i.c_j = (.c0) + (.c1) u: the
// whole element read as one big-endian number in the basis w^5 ... w^0, imaginary parts first.
// This is also gnark-crypto's bn254 GT byte layout (same tower).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/pairing/fp12.hpp"

namespace enygma {

inline constexpr size_t kGtBytes = 384;

void fp12_to_bytes(const Fp12& x, uint8_t out[kGtBytes]);
// Rejects a coefficient >= p. Does not test membership in GT.
std::optional<Fp12> fp12_from_bytes(const uint8_t in[kGtBytes]);
// fp12_from_bytes, then rejects an element outside GT (cost: about half a pairing).
std::optional<Fp12> gt_from_bytes(const uint8_t in[kGtBytes]);

// x is in GT: x^(p^4 - p^2 + 1) == 1 (cyclotomic subgroup, checked with Frobenius maps), then
// x^r == 1 (Fp12^* is cyclic, so its elements of order dividing r are exactly GT).
bool is_in_gt(const Fp12& x);

}  // namespace enygma
