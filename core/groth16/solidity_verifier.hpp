// A Solidity Groth16 verifier contract for one verifying key (BN254, the EVM precompiles
// ecAdd 0x06 / ecMul 0x07 from EIP-196 and ecPairing 0x08 from EIP-197).
//
// Calling convention (the reference service's proof JSON, also snarkjs's soliditycalldata):
//   function verifyProof(uint256[2] calldata pA, uint256[2][2] calldata pB,
//                        uint256[2] calldata pC, uint256[N] calldata pubSignals)
//       external view returns (bool)
//   pA = pi_a = [x, y], pB = pi_b = [[x.im, x.re], [y.im, y.re]] (imaginary part first, the
//   EIP-197 order), pC = pi_c = [x, y], pubSignals = public_signal in the statement's order,
//   N = vk.num_public. It returns false (never reverts) for a public input >= r, a coordinate
//   >= q, a point the precompiles refuse (off the curve, B outside G2), or a failed pairing
//   check e(-A, B) e(alpha, beta) e(vk_x, gamma) e(C, delta) == 1.
// The contract text is this project's own template (solidity_verifier.cpp).
#pragma once

#include <string>
#include <string_view>

#include "core/groth16/keys.hpp"

namespace enygma {

struct SolidityVerifierOptions {
  std::string contract_name = "Groth16Verifier";  // must be a Solidity identifier
  std::string circuit_name;                       // for the comments, may be empty
  std::string license = "UNLICENSED";             // SPDX expression of the generated file
};

// An SPDX license expression the file's first line can carry: license ids and LicenseRef-...
// ([A-Za-z0-9.-]+, an id with a final '+' for "or later") combined with AND, OR, WITH (an
// exception id after it) and balanced parentheses, separated by spaces.
bool is_spdx_expression(std::string_view text);

// A name the generated contract can have: [A-Za-z_$][A-Za-z0-9_$]*, at most 64 characters,
// neither a Solidity keyword, reserved word, unit or elementary type name nor a name the
// contract itself declares (it would not compile, or compile with a shadowing warning).
bool is_usable_contract_name(std::string_view name);

std::string solidity_verifier_source(const VerifyingKey& vk,
                                     const SolidityVerifierOptions& options = {});

}  // namespace enygma
