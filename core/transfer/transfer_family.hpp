// The transfer circuit family (../shared/docs/transfer-relation.md, R1..R15; R16) as the registry
// sees it: POST /generateProofTransfer-{k}, k = 2..16 (the server's default 2..6).
#pragma once

#include "core/circuit/circuit_family.hpp"

namespace enygma {

const CircuitFamily& transfer_family();

}  // namespace enygma
