// The DvP note hashes in the circuit (../shared/docs/joinsplit-relation.md and
// ownership-relation.md), chains of 2-input Poseidons (240 constraints each), no reduction:
//   ERC-20:   Poseidon(Poseidon(Poseidon(pk, s), a), t)               3 calls
//   ERC-1155: Poseidon(Poseidon(Poseidon(Poseidon(pk, s), t), id), a)  4 calls
//   ERC-721:  Poseidon(Poseidon(pk, s), uid)                           2 calls
// The native twins are dvp::note_erc20 / note_erc1155 / note_erc721.
#pragma once

#include <string_view>

#include "core/circuit/builder.hpp"

namespace enygma::circuit {

Lc note_erc20(CircuitBuilder& b, const Lc& pk, const Lc& salt, const Lc& amount, const Lc& token,
              std::string_view label);
Lc note_erc1155(CircuitBuilder& b, const Lc& pk, const Lc& salt, const Lc& amount, const Lc& token,
                const Lc& token_id, std::string_view label);
Lc note_erc721(CircuitBuilder& b, const Lc& pk, const Lc& salt, const Lc& uid,
               std::string_view label);

}  // namespace enygma::circuit
