// The two join-split circuit families (../shared/docs/joinsplit-relation.md J1..J10, and J11) as
// the registry sees them: one definition (joinsplit_circuit.hpp), two note formats, no k.
//   joinsplit-enygma  POST /join-split-enygma  (ERC-20 notes)    /verifyProof/join-split-enygma
//   joinsplit-1155    POST /join-split-1155    (ERC-1155 notes)  /verifyProof/join-split-1155
// make_request's count is the number of real inputs, 1..10 (0: the default, 2).
#pragma once

#include "core/circuit/circuit_family.hpp"

namespace enygma {

const CircuitFamily& joinsplit_enygma_family();
const CircuitFamily& joinsplit_1155_family();

}  // namespace enygma
