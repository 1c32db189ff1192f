// The formulas of the DvP relations, natively: ../shared/docs/joinsplit-relation.md
// ("Numbers") and ownership-relation.md, which shares PK, the nullifier and Root with it.
// Used by the request parsers (the public signals the server computes), the validators, the
// wallets and the rule breakers; the circuits compute the same values with gadgets
// (core/circuit/merkle.hpp, spend_key.hpp, dvp_note.hpp).
#pragma once

#include <array>
#include <span>

#include "core/field/fr.hpp"
#include "core/field/u256.hpp"

namespace enygma::dvp {

inline constexpr unsigned kMerkleDepth = 8;  // 256 leaves
using MerklePath = std::array<Fr, kMerkleDepth>;

// A = 10^36, the amount bound of J1 (the reference's rangeCircuit): amounts are < A.
const U256& amount_bound();
// Whether the canonical integer of x is below 10^36.
bool below_amount_bound(const Fr& x);

// PK(sk) = Poseidon(sk, sk) mod l (J2 / O1).
Fr spend_public_key(const Fr& sk);
// Poseidon(sk, idx), no reduction (J3 / O2).
Fr nullifier(const Fr& sk, const Fr& idx);
// Z = Poseidon(0, 0), the nullifier of a dummy join-split slot.
const Fr& dummy_nullifier();

// The three note formats (J4, J6, J7; O3, O5, O6):
//   ERC-20:   Poseidon(Poseidon(Poseidon(pk, s), a), t)
//   ERC-1155: Poseidon(Poseidon(Poseidon(Poseidon(pk, s), t), id), a)
//   ERC-721:  Poseidon(Poseidon(pk, s), uid)
Fr note_erc20(const Fr& pk, const Fr& salt, const Fr& amount, const Fr& token);
Fr note_erc1155(const Fr& pk, const Fr& salt, const Fr& amount, const Fr& token,
                const Fr& token_id);
Fr note_erc721(const Fr& pk, const Fr& salt, const Fr& uid);

// Root(leaf, idx, path): c_0 = leaf; c_{m+1} = Poseidon(c_m, path[m]) when bit m of idx is 0
// (bit 0 = least significant, the leaf level), Poseidon(path[m], c_m) when it is 1. Bits of idx
// above the depth are not read (J3 / O2 bound idx below 2^8 separately).
Fr merkle_root(const Fr& leaf, const Fr& idx, std::span<const Fr, kMerkleDepth> path);

// Whether idx < 2^kMerkleDepth.
bool index_in_range(const Fr& idx);

}  // namespace enygma::dvp
