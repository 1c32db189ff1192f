// circom's .r1cs file (iden3 "r1cs" format, version 1), so that snarkjs (r1cs info, wtns check,
// groth16 setup) and other circom tooling can read our circuits.
//
// Sections (container: core/r1cs/iden3_binfile.hpp):
//   1 header:      n8 (u32, 32) | prime r (32 bytes LE) | nWires (u32) | nOutputs (u32) |
//                  nPubInputs (u32) | nPrvInputs (u32) | nLabels (u64) | nConstraints (u32)
//   2 constraints: per constraint the linear combinations A, B, C, each
//                  nTerms (u32) | nTerms x (wire (u32) | coefficient (32 bytes LE, standard form))
//   3 wire map:    nWires x label id (u64)
// circom's wire order is ours: wire 0 = 1, then outputs, then public inputs, then the rest. We
// have no outputs: nOutputs = 0 and nPubInputs = num_public.
//
// The writer puts every linear combination in canonical form (terms sorted by wire, repeated
// wires merged, zero coefficients dropped): the iden3 readers keep one coefficient per wire,
// and snarkjs's setup copies the A and B terms into the .zkey in file order, which
// zkey_import.hpp compares against canonical_terms() of our matrices.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/r1cs/r1cs.hpp"
#include "core/util/result.hpp"

namespace enygma {

struct R1csFileOptions {
  // Informational for circom tools (snarkjs r1cs info prints it): how many private wires are
  // inputs rather than intermediate values.
  uint32_t num_private_inputs = 0;
  // Write section 3 (wire i -> label i). snarkjs needs it only for symbol-aware commands.
  bool wire_map = true;
};

// Terms sorted by wire, one per wire (coefficients of repeated wires summed), none zero.
std::vector<R1csTerm> canonical_terms(std::span<const R1csTerm> terms);

std::vector<uint8_t> write_r1cs_file(const R1cs& r1cs, const R1csFileOptions& options = {});

struct R1csFile {
  R1cs r1cs;  // num_public = nOutputs + nPubInputs
  uint32_t num_outputs = 0;
  uint32_t num_public_inputs = 0;
  uint32_t num_private_inputs = 0;
  uint64_t num_labels = 0;
  std::vector<uint64_t> wire_labels;  // empty when the file has no section 3
};

// Strict reader (errors with rule "r1cs" name the section or constraint): the BN254 scalar
// field, 32-byte elements, canonical coefficients, wires below nWires, exact section lengths.
// Files with custom gates (sections 4 and 5, PLONK only) are refused.
Result<R1csFile> read_r1cs_file(std::span<const uint8_t> bytes);

}  // namespace enygma
