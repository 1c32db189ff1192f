// The DvP spend public key in the circuit: PK(sk) = Poseidon(sk, sk) mod l
// (../shared/docs/joinsplit-relation.md, J2; ownership-relation.md, O1), with the EXACT
// reduction of mod_l.hpp: quotient in [0, 7], remainder below l, and q*l + r < p, so that the
// remainder is the one value PK(sk). (The reference bounds only the remainder; with its free
// quotient every r < l passes, and whoever knows a note's opening spends it with any key.)
#pragma once

#include <string_view>

#include "core/circuit/builder.hpp"

namespace enygma::circuit {

// PK(sk) as the combination of the remainder's 251 bits. Cost: Poseidon-2 (240) + the
// reduction (445).
Lc spend_public_key(CircuitBuilder& b, const Lc& sk, std::string_view label);

}  // namespace enygma::circuit
