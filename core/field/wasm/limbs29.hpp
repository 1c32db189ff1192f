// The shared pieces of the WebAssembly backend: 256-bit values as nine 29-bit limbs in 64-bit
// words (the representation of core/field/portable32/mont_mul.hpp), products as 17 columns of
// 64-bit accumulators, and a separated Montgomery reduction of such columns ("SOS": Koc, Acar,
// Kaliski, "Analyzing and comparing Montgomery multiplication algorithms", 1996), so that a
// caller can combine several products before one reduction (lazy reduction).
//
// Plain C++ on 64-bit integers (no 128-bit product), tuned for WebAssembly's i64 operations and
// compiled natively too, where tests compare it with the 64-bit backends.
#pragma once

#include <cstdint>

#include "core/field/portable32/mont_mul.hpp"

namespace enygma::wasm {

using portable32::detail::kMask24;
using portable32::detail::kMask29;
using portable32::detail::split29;

// The modulus as limbs, and -m^-1 mod 2^29 (whose low 24 bits are -m^-1 mod 2^24).
template <class F>
struct Limbs29Modulus {
  static constexpr uint64_t limb(int i) {
    const int bit = 29 * i, word = bit / 64, off = bit % 64;
    uint64_t v = F::kModulus.w[word] >> off;
    if (off > 35 && word + 1 < 4) v |= F::kModulus.w[word + 1] << (64 - off);
    return v & kMask29;
  }
  static constexpr uint64_t kM[9] = {limb(0), limb(1), limb(2), limb(3), limb(4),
                                     limb(5), limb(6), limb(7), limb(8)};
  static constexpr uint64_t kMu = F::kInv32 & kMask29;
  static_assert(F::kModulus.w[3] < (uint64_t(1) << 62), "needs m < 2^254");
};

// Products as columns: t[k] += sum over i + j = k of x[i] y[j] (k < 17); t[17] (weight
// 2^(29 17)) is free for constants such as m^2 written in 18 limbs.

// t += x y for limbs below 2^30 (products below 2^60; a column takes at most nine of them).
inline __attribute__((always_inline)) void mul_columns(uint64_t t[18], const uint64_t x[9],
                                                       const uint64_t y[9]) {
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) {
#pragma GCC unroll 9
    for (int j = 0; j < 9; ++j) t[i + j] += x[i] * y[j];
  }
}

// r = T 2^-256 mod m for the value T = sum t[k] 2^(29 k), given as signed columns whose total is
// in [0, 2 m^2) and each below 2^62.3 in magnitude; r < m. The columns are consumed.
//
// Eight reduction digits of 29 bits and a last one of 24 (8 * 29 + 24 = 256), as in
// portable32::mont_mul: each makes its column divisible by its digit size and carries it on.
// The quotient Q is the unique one below 2^256, so the result is the same as any other
// Montgomery reduction's: (T + Q m) / 2^256 < 2 m^2 / 2^256 + m < 2m, and one conditional
// subtraction brings it below m. Column bounds: each gains at most nine q m_j < 2^58 and a carry
// below 2^34, so it stays below 2^63 in magnitude.
template <class F>
inline __attribute__((always_inline)) void redc_columns(uint64_t r[4], int64_t t[18]) {
  using M = Limbs29Modulus<F>;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    const uint64_t q = ((uint64_t(t[i]) & kMask29) * M::kMu) & kMask29;
#pragma GCC unroll 9
    for (int j = 0; j < 9; ++j) t[i + j] += int64_t(q * M::kM[j]);
    t[i + 1] += t[i] >> 29;  // exact: the low 29 bits of t[i] are zero now
  }
  {
    const uint64_t q = ((uint64_t(t[8]) & kMask24) * M::kMu) & kMask24;
#pragma GCC unroll 9
    for (int j = 0; j < 9; ++j) t[8 + j] += int64_t(q * M::kM[j]);
  }
  // The value is now sum t[8 + k] 2^(29 (8 + k)) with the low 24 bits of t[8] zero: normalize
  // t[8..16] to 29-bit limbs (the rest, with t[17], on top) and shift right by 24 into words.
  uint64_t l[9];
  int64_t c = 0;
#pragma GCC unroll 9
  for (int k = 0; k < 9; ++k) {
    const int64_t v = t[8 + k] + c;
    l[k] = uint64_t(v) & kMask29;
    c = v >> 29;
  }
  const uint64_t uc = uint64_t(c + t[17]);  // the total is non-negative: so is its top
  const uint64_t w0 = (l[0] >> 24) | (l[1] << 5) | (l[2] << 34) | (l[3] << 63);
  const uint64_t w1 = (l[3] >> 1) | (l[4] << 28) | (l[5] << 57);
  const uint64_t w2 = (l[5] >> 7) | (l[6] << 22) | (l[7] << 51);
  const uint64_t w3 = (l[7] >> 13) | (l[8] << 16) | (uc << 45);
  const uint64_t* m = F::kModulus.w;
  const uint64_t s0 = w0 - m[0];
  uint64_t br = w0 < m[0];
  const uint64_t d1 = w1 - m[1];
  const uint64_t s1 = d1 - br;
  br = (w1 < m[1]) | (d1 < br);
  const uint64_t d2 = w2 - m[2];
  const uint64_t s2 = d2 - br;
  br = (w2 < m[2]) | (d2 < br);
  const uint64_t d3 = w3 - m[3];
  const uint64_t s3 = d3 - br;
  br = (w3 < m[3]) | (d3 < br);
  const uint64_t keep = 0 - br;  // a borrow: w < m already
  r[0] = (w0 & keep) | (s0 & ~keep);
  r[1] = (w1 & keep) | (s1 & ~keep);
  r[2] = (w2 & keep) | (s2 & ~keep);
  r[3] = (w3 & keep) | (s3 & ~keep);
}

}  // namespace enygma::wasm
