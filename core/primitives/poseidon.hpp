// The iden3 / circomlib Poseidon hash over Fr, natively (x^5 S-box, 8 full rounds, partial
// rounds 56/57/56/60 for 1/2/3/4 inputs, width t = n + 1, initial state 0, output state[0]),
// in the optimized form (constants C, S, M, P) of ../shared/vectors/poseidon-constants.json.
// The circuit gadget (core/circuit) uses the same parameter tables.
// (API contract; implemented in poseidon.cpp and the generated poseidon_constants.cpp.)
//
// The optimized form (Grassi et al., "Poseidon", eprint 2019/458, appendix B), as circomlib's
// PoseidonEx and go-iden3-crypto evaluate it, with state s[0..t), s = (0, x1..xn):
//   s += C[0..t)
//   full rounds r = 0..2:   s = s^5; s += C[(r+1)t ..]; s = mix(M, s)
//   full round 3:           s = s^5; s += C[4t ..];     s = mix(P, s)
//   partial rounds r = 0..RP-1, with S_r = S[(2t-1)r ..]:
//       s[0] = s[0]^5 + C[5t + r]
//       s[0]' = sum_i S_r[i] * s[i];  s[k]' = s[k] + s[0] * S_r[t + k - 1]  (k = 1..t-1)
//   full rounds r = 0..2:   s = s^5; s += C[5t + RP + rt ..]; s = mix(M, s)
//   last full round:        s = s^5; s = mix(M, s); output s[0]
// where mix(A, s)[i] = sum_j A[j][i] * s[j] (the row vector s times A; A stored row-major,
// A[j][i] = a[j * t + i], exactly as the JSON lists it).
#pragma once

#include <span>

#include "core/field/fr.hpp"

namespace enygma {

struct PoseidonParams {
  unsigned t;               // state width = inputs + 1
  unsigned rounds_full;     // 8
  unsigned rounds_partial;  // 56, 57, 56, 60
  std::span<const Fr> c;    // round constants, optimized form: t * rounds_full + rounds_partial
  std::span<const Fr> s;    // sparse matrices of the partial rounds: (2t - 1) * rounds_partial
  std::span<const Fr> m;    // t*t MDS matrix, row-major
  std::span<const Fr> p;    // t*t pre-sparse matrix, row-major
};

// n_inputs in 1..4 (anything else aborts: a programming error).
const PoseidonParams& poseidon_params(unsigned n_inputs);

// Poseidon(x1..xn), n in 1..4 (anything else aborts).
Fr poseidon(std::span<const Fr> inputs);

// Fixed-arity forms of the above.
Fr poseidon(const Fr& x1);
Fr poseidon(const Fr& x1, const Fr& x2);
Fr poseidon(const Fr& x1, const Fr& x2, const Fr& x3);

}  // namespace enygma
