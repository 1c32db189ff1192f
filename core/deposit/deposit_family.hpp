// The deposit circuit family (../shared/docs/deposit-relation.md: R1..R8, R9d, R11..R14, R15d,
// D1; R16) as the registry sees it: POST /generateProofDeposit-{k}, k = 2..16 (the server's default
// 2..6), public_signal of 8k + 3 values.
#pragma once

#include "core/circuit/circuit_family.hpp"

namespace enygma {

const CircuitFamily& deposit_family();

}  // namespace enygma
