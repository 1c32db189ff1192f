// The iden3 / circomlib Poseidon hash over Fr, natively (x^5 S-box, 8 full rounds, partial
// rounds 56/57/56/60 for 1/2/3/4 inputs, width t = n + 1, initial state 0, output state[0]),
// in the optimized form (constants C, S, M, P) of ../shared/vectors/poseidon-constants.json.
// The circuit gadget (core/circuit) uses the same parameter tables.
// (API contract; implemented in poseidon.cpp and the generated poseidon_constants.cpp.)
#pragma once

#include <span>

#include "core/field/fr.hpp"

namespace enygma {

struct PoseidonParams {
  unsigned t;               // state width = inputs + 1
  unsigned rounds_full;     // 8
  unsigned rounds_partial;  // 56, 57, 56, 60
  std::span<const Fr> c;    // round constants, optimized form
  std::span<const Fr> s;    // sparse matrices of the partial rounds
  std::span<const Fr> m;    // t*t MDS matrix, row-major
  std::span<const Fr> p;    // t*t pre-sparse matrix, row-major
};

// n_inputs in 1..4.
const PoseidonParams& poseidon_params(unsigned n_inputs);

// Poseidon(x1..xn), n in 1..4.
Fr poseidon(std::span<const Fr> inputs);

}  // namespace enygma
