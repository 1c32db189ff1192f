// The portable 64-bit backend: Montgomery multiplication with four 64-bit limbs and 128-bit
// products, for any target with unsigned __int128 (the native fallback when the CPU lacks ADX).
//
// CIOS (Koc, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication algorithms",
// 1996) with the "no-carry" shortcut that gnark-crypto documents for moduli whose top word is
// below 2^63 - 1 (true for both BN254 primes): the running total then never needs a fifth word.
#pragma once

#include <cstdint>

#if !defined(__SIZEOF_INT128__)
#error "portable64::mont_mul needs unsigned __int128; use the portable32 backend on this target"
#endif

namespace enygma::portable64 {

using u128 = unsigned __int128;

// r = a * b * 2^-256 mod m, inputs < m, output < m. inv = -m^-1 mod 2^64. r may alias a or b.
inline __attribute__((always_inline)) void mont_mul(uint64_t r[4], const uint64_t a[4],
                                                    const uint64_t b[4], const uint64_t m[4],
                                                    uint64_t inv) {
  uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
  const uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    const uint64_t bi = b[i];
    u128 c = u128(a0) * bi + t0;
    uint64_t lo = uint64_t(c), hi = uint64_t(c >> 64);
    const uint64_t q = lo * inv;
    u128 d = u128(q) * m[0] + lo;
    uint64_t dc = uint64_t(d >> 64);

    c = u128(a1) * bi + t1 + hi;
    hi = uint64_t(c >> 64);
    d = u128(q) * m[1] + uint64_t(c) + dc;
    t0 = uint64_t(d);
    dc = uint64_t(d >> 64);

    c = u128(a2) * bi + t2 + hi;
    hi = uint64_t(c >> 64);
    d = u128(q) * m[2] + uint64_t(c) + dc;
    t1 = uint64_t(d);
    dc = uint64_t(d >> 64);

    c = u128(a3) * bi + t3 + hi;
    hi = uint64_t(c >> 64);
    d = u128(q) * m[3] + uint64_t(c) + dc;
    t2 = uint64_t(d);
    dc = uint64_t(d >> 64);

    t3 = hi + dc;
  }
  // t < 2m: one conditional subtraction.
  uint64_t s0, s1, s2, s3, br;
  u128 x = u128(t0) - m[0];
  s0 = uint64_t(x);
  br = uint64_t(x >> 64) & 1;
  x = u128(t1) - m[1] - br;
  s1 = uint64_t(x);
  br = uint64_t(x >> 64) & 1;
  x = u128(t2) - m[2] - br;
  s2 = uint64_t(x);
  br = uint64_t(x >> 64) & 1;
  x = u128(t3) - m[3] - br;
  s3 = uint64_t(x);
  br = uint64_t(x >> 64) & 1;
  // br == 1 means t < m: keep t. Branch-free select.
  const uint64_t keep = 0 - br;
  r[0] = (t0 & keep) | (s0 & ~keep);
  r[1] = (t1 & keep) | (s1 & ~keep);
  r[2] = (t2 & keep) | (s2 & ~keep);
  r[3] = (t3 & keep) | (s3 & ~keep);
}

}  // namespace enygma::portable64
