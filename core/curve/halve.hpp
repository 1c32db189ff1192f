// x / 2 in Fp and Fp2 without a multiplication (Miller-loop doubling step, Fp2 square roots).
// Halving commutes with the Montgomery form ((a/2)R = (aR)/2 mod p), so it works on the stored
// limbs directly: add p when the representative is odd, then shift right by one bit. The sum
// stays below 2p < 2^255, so it fits in four words.
#pragma once

#include <cstdint>

#include "core/curve/fp2.hpp"

namespace enygma {

inline Fp halve(const Fp& a) {
  const uint64_t mask = 0 - (a.limbs[0] & 1);
  uint64_t t[4];
  uint64_t carry = 0;
  for (int i = 0; i < 4; ++i) {
    uint64_t add = Fp::kModulus.w[i] & mask;
    uint64_t s = a.limbs[i] + carry;
    carry = s < carry;
    uint64_t u = s + add;
    carry |= u < s;
    t[i] = u;
  }
  Fp r;
  for (int i = 0; i < 3; ++i) r.limbs[i] = (t[i] >> 1) | (t[i + 1] << 63);
  r.limbs[3] = t[3] >> 1;  // carry is 0: a + p < 2^255
  return r;
}

inline Fp2 halve(const Fp2& a) {
  return {halve(a.c0), halve(a.c1)};
}

}  // namespace enygma
