// circom's .wtns witness file (iden3 "wtns" format, version 2), as written by circom's witness
// calculators and read by snarkjs (wtns check, groth16 prove) and rapidsnark.
//
// Sections (container: core/r1cs/iden3_binfile.hpp):
//   1 header: n8 (u32, 32) | prime r (32 bytes LE) | nWitness (u32)
//   2 values: nWitness x 32 bytes LE, standard form; value 0 is the constant 1
// A witness is secret: both directions use wiping buffers.
#pragma once

#include <cstdint>
#include <span>

#include "core/field/fr.hpp"
#include "core/util/result.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma {

SecureVector<uint8_t> write_wtns_file(std::span<const Fr> witness);

// Strict reader (rule "wtns"): BN254 scalar field, canonical values, exact lengths. Versions 1
// and 2 share this layout. Does not check witness[0] == 1 (R1cs::first_unsatisfied does).
Result<SecureVector<Fr>> read_wtns_file(std::span<const uint8_t> bytes);

}  // namespace enygma
