// A Poseidon Merkle path in the circuit, with the convention of the DvP relations
// (../shared/docs/joinsplit-relation.md, "Root"): c_0 = leaf; at level m, bit m of the leaf
// index (least significant first, bit 0 at the leaf level) selects the order of the two
// children: c_{m+1} = Poseidon(c_m, path[m]) when the bit is 0, Poseidon(path[m], c_m) when it
// is 1 (the sibling on the left). No leaf hashing, no reduction. The native twin is
// dvp::merkle_root (core/dvp/relation.hpp).
#pragma once

#include <span>
#include <string_view>

#include "core/circuit/builder.hpp"

namespace enygma::circuit {

// The root of `leaf` under `path` (leaf level first) at the index whose bits (booleans, least
// significant first; the caller constrains them) are index_bits; the depth is path.size() ==
// index_bits.size(). Per level: one selection constraint (the left child; the right one is
// c + path - left, linear) and a 2-input Poseidon (240): 241 constraints.
Lc merkle_root(CircuitBuilder& b, const Lc& leaf, std::span<const Var> index_bits,
               std::span<const Var> path, std::string_view label);

// enable * (root - expected) == 0, one constraint: root == expected wherever enable != 0, and
// nothing required where enable == 0 (a dummy join-split input, J5: enable is the amount).
void enforce_root_if_nonzero(CircuitBuilder& b, const Lc& enable, const Lc& root,
                             const Lc& expected, std::string_view label);

}  // namespace enygma::circuit
