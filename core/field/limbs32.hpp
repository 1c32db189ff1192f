// Montgomery multiplication with eight 32-bit limbs and 64-bit products: the WebAssembly
// backend (wasm32 has a native i64.mul but no 128-bit product; __int128 there is a slow
// library call). It computes exactly the same function as limbs64::mont_mul (R = 2^256 for
// both), so elements have the same bytes in memory on both targets and keys need no
// conversion. Also compiled natively, where tests compare it with the 64-bit backend.
#pragma once

#include <cstdint>

namespace enygma::limbs32 {

// r = a * b * 2^-256 mod m, inputs < m, output < m. inv = -m^-1 mod 2^32. r may alias a or b.
// Limbs are passed as the 64-bit words of the common layout and split here.
inline __attribute__((always_inline)) void mont_mul(uint64_t r[4], const uint64_t a[4],
                                                    const uint64_t b[4], const uint64_t m[4],
                                                    uint32_t inv) {
  uint32_t A[8], B[8], M[8], t[9];
  for (int i = 0; i < 4; ++i) {
    A[2 * i] = uint32_t(a[i]);
    A[2 * i + 1] = uint32_t(a[i] >> 32);
    B[2 * i] = uint32_t(b[i]);
    B[2 * i + 1] = uint32_t(b[i] >> 32);
    M[2 * i] = uint32_t(m[i]);
    M[2 * i + 1] = uint32_t(m[i] >> 32);
  }
  for (int j = 0; j < 9; ++j) t[j] = 0;
  // CIOS with the same no-carry shortcut as limbs64 (top word of m below 2^31 - 1).
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    const uint64_t bi = B[i];
    uint64_t c = uint64_t(A[0]) * bi + t[0];
    uint32_t hi = uint32_t(c >> 32);
    const uint32_t q = uint32_t(c) * inv;
    uint64_t d = uint64_t(q) * M[0] + uint32_t(c);
    uint32_t dc = uint32_t(d >> 32);
#pragma GCC unroll 7
    for (int j = 1; j < 8; ++j) {
      c = uint64_t(A[j]) * bi + t[j] + hi;
      hi = uint32_t(c >> 32);
      d = uint64_t(q) * M[j] + uint32_t(c) + dc;
      t[j - 1] = uint32_t(d);
      dc = uint32_t(d >> 32);
    }
    t[7] = hi + dc;
  }
  uint32_t s[8];
  uint32_t br = 0;
  for (int j = 0; j < 8; ++j) {
    uint64_t x = uint64_t(t[j]) - M[j] - br;
    s[j] = uint32_t(x);
    br = uint32_t(x >> 63);
  }
  const uint32_t keep = 0u - br;
  for (int i = 0; i < 4; ++i) {
    uint32_t lo = (t[2 * i] & keep) | (s[2 * i] & ~keep);
    uint32_t hi = (t[2 * i + 1] & keep) | (s[2 * i + 1] & ~keep);
    r[i] = uint64_t(lo) | (uint64_t(hi) << 32);
  }
}

}  // namespace enygma::limbs32
