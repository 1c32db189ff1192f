// The Ethereum BN254 precompiles (EIP-196 ECADD 0x06 and ECMUL 0x07, EIP-197 ECPAIRING 0x08),
// as byte-in, byte-out functions: the semantics a Solidity verifier relies on, so that tests
// can check contract inputs and our verifier against the chain's rules.
//
//   add:     input (right-padded with zeros / truncated to 128 bytes) = x1 | y1 | x2 | y2,
//            output the 64-byte sum.
//   mul:     input (padded / truncated to 96 bytes) = x | y | s, output [s](x, y) (s any 256-bit
//            integer).
//   pairing: input = k * 192 bytes (k >= 0), each G1 x | y then G2 x.c1 | x.c0 | y.c1 | y.c0;
//            output 32 bytes, 1 iff the product of the k pairings is 1 (k = 0 gives 1).
// Points use the uncompressed encoding of core/curve/point_encoding.hpp ((0, 0) = infinity).
// Any invalid input (coordinate >= p, point off the curve, G2 point outside the subgroup, a
// pairing input length that is not a multiple of 192) makes the call fail.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace enygma {

struct PrecompileResult {
  bool ok = false;              // false: the call fails (the EVM reverts and consumes the gas)
  std::vector<uint8_t> output;  // empty unless ok
  std::string error;            // why it failed
};

PrecompileResult evm_bn254_add(std::span<const uint8_t> input);
PrecompileResult evm_bn254_mul(std::span<const uint8_t> input);
PrecompileResult evm_bn254_pairing(std::span<const uint8_t> input);

}  // namespace enygma
