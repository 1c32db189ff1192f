// The withdraw circuit family (../shared/docs/withdraw-relation.md: R1, R2w, R3..R8, R9w,
// R12..R14, R15w, W1..W5; R16) as the registry sees it: POST /generateProofWithdraw-{k}, k = 2..16
// (the server's default 2..6), public_signal of 8k + 12 values.
#pragma once

#include "core/circuit/circuit_family.hpp"

namespace enygma {

const CircuitFamily& withdraw_family();

}  // namespace enygma
