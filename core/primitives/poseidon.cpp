// Poseidon in the optimized form; the round structure is documented in poseidon.hpp.
#include "core/primitives/poseidon.hpp"

#include <sodium.h>

#include <cstdlib>

namespace enygma {
namespace {

constexpr unsigned kMaxWidth = 5;

inline Fr pow5(const Fr& x) {
  Fr x2 = x.square();
  return x2.square() * x;
}

// s = s * A (row vector times the t*t row-major matrix A).
inline void mix(Fr* s, std::span<const Fr> a, unsigned t) {
  Fr out[kMaxWidth];
  for (unsigned i = 0; i < t; ++i) {
    Fr acc = a[i] * s[0];
    for (unsigned j = 1; j < t; ++j) acc += a[j * t + i] * s[j];
    out[i] = acc;
  }
  for (unsigned i = 0; i < t; ++i) s[i] = out[i];
}

inline void full_round(Fr* s, const Fr* round_constants, std::span<const Fr> matrix, unsigned t) {
  for (unsigned i = 0; i < t; ++i) s[i] = pow5(s[i]) + round_constants[i];
  mix(s, matrix, t);
}

}  // namespace

Fr poseidon(std::span<const Fr> inputs) {
  const unsigned n = unsigned(inputs.size());
  if (n < 1 || n > kMaxWidth - 1) std::abort();
  const PoseidonParams& pp = poseidon_params(n);
  const unsigned t = pp.t, half = pp.rounds_full / 2, rp = pp.rounds_partial;
  const Fr* c = pp.c.data();

  Fr s[kMaxWidth];
  s[0] = Fr::zero();
  for (unsigned i = 0; i < n; ++i) s[i + 1] = inputs[i];
  for (unsigned i = 0; i < t; ++i) s[i] += c[i];

  for (unsigned r = 0; r + 1 < half; ++r) full_round(s, c + (r + 1) * t, pp.m, t);
  full_round(s, c + half * t, pp.p, t);

  const Fr* cp = c + (half + 1) * t;
  for (unsigned r = 0; r < rp; ++r) {
    const Fr* sr = pp.s.data() + (2 * t - 1) * r;
    s[0] = pow5(s[0]) + cp[r];
    Fr s0 = sr[0] * s[0];
    for (unsigned i = 1; i < t; ++i) s0 += sr[i] * s[i];
    for (unsigned i = 1; i < t; ++i) s[i] += s[0] * sr[t + i - 1];
    s[0] = s0;
  }

  const Fr* cf = cp + rp;
  for (unsigned r = 0; r + 1 < half; ++r) full_round(s, cf + r * t, pp.m, t);
  // Last round: only column 0 of the final mix is the output.
  Fr out = Fr::zero();
  for (unsigned j = 0; j < t; ++j) out += pp.m[j * t] * pow5(s[j]);
  sodium_memzero(s, sizeof(s));  // the state holds secret-derived values (keys, balances)
  return out;
}

Fr poseidon(const Fr& x1) {
  return poseidon(std::span<const Fr>(&x1, 1));
}

Fr poseidon(const Fr& x1, const Fr& x2) {
  const Fr in[2] = {x1, x2};
  return poseidon(std::span<const Fr>(in, 2));
}

Fr poseidon(const Fr& x1, const Fr& x2, const Fr& x3) {
  const Fr in[3] = {x1, x2, x3};
  return poseidon(std::span<const Fr>(in, 3));
}

}  // namespace enygma
