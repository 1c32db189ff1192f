// The portable 32-bit backend: Montgomery multiplication for targets without a 128-bit product,
// used by the WebAssembly build (wasm32 has a native 64-bit i64.mul but no 64x64->128 product;
// __int128 there is a slow library call). It computes exactly the same function as
// portable64::mont_mul (R = 2^256 for both), so elements have the same bytes in memory on both
// targets and keys need no conversion. Also compiled natively, where tests compare it with the
// 64-bit backends.
//
// Representation: nine 29-bit limbs held in 64-bit words ("unsaturated" limbs). A product of
// two limbs has 58 bits, so the accumulators can absorb the 18 products each one receives
// without any carry propagation inside the loop; carries are resolved once at the end. This
// trades a few more multiplications (162 instead of 128 with 32-bit limbs) for far fewer adds,
// compares and shifts, which is what V8 rewards. This is the
// unsaturated-limb CIOS that G. Mitscha-Baude used for WebAssembly in ZPrize 2022 (his
// "montgomery" notes; also K. W. Jie, "Optimizing Montgomery multiplication in WebAssembly").
//
// R = 2^256, not 2^261: eight reduction steps divide by 2^29 each (232 bits) and the last one
// by 2^24 (the top limb of a, bits 232..255, also has 24 bits).
#pragma once

#include <cstdint>

namespace enygma::portable32 {

namespace detail {

constexpr uint64_t kMask29 = (uint64_t(1) << 29) - 1;
constexpr uint64_t kMask24 = (uint64_t(1) << 24) - 1;

// The 256-bit value w (four little-endian 64-bit words) as nine 29-bit limbs.
inline __attribute__((always_inline)) void split29(uint64_t out[9], const uint64_t w[4]) {
  out[0] = w[0] & kMask29;
  out[1] = (w[0] >> 29) & kMask29;
  out[2] = ((w[0] >> 58) | (w[1] << 6)) & kMask29;
  out[3] = (w[1] >> 23) & kMask29;
  out[4] = ((w[1] >> 52) | (w[2] << 12)) & kMask29;
  out[5] = (w[2] >> 17) & kMask29;
  out[6] = ((w[2] >> 46) | (w[3] << 18)) & kMask29;
  out[7] = (w[3] >> 11) & kMask29;
  out[8] = w[3] >> 40;
}

}  // namespace detail

// r = a * b * 2^-256 mod m, inputs < m < 2^254, output < m. inv = -m^-1 mod 2^32 (only its
// low 29 bits are used). r may alias a or b.
inline __attribute__((always_inline)) void mont_mul(uint64_t r[4], const uint64_t a[4],
                                                    const uint64_t b[4], const uint64_t m[4],
                                                    uint32_t inv) {
  using detail::kMask24;
  using detail::kMask29;
  const uint64_t mu = inv & kMask29;  // -m^-1 mod 2^29 (and mod 2^24)
  uint64_t A[9], B[9], M[9];
  detail::split29(A, a);
  detail::split29(B, b);
  detail::split29(M, m);

  // t = (a mod 2^(29 i)) * b + q * m, divided by 2^(29 i), with unresolved carries: each t[j]
  // gains at most two products (< 2^58) per step, at most 18 in all, plus one carry (< 2^35):
  // below 2^63, no overflow.
  uint64_t t[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    const uint64_t ai = A[i];
    uint64_t t0 = t[0] + ai * B[0];
    const uint64_t q = (t0 * mu) & kMask29;  // t0 + q * m[0] = 0 mod 2^29
    t0 += q * M[0];
    const uint64_t carry = t0 >> 29;
#pragma GCC unroll 8
    for (int j = 1; j < 9; ++j) t[j - 1] = t[j] + ai * B[j] + q * M[j];
    t[0] += carry;
    t[8] = 0;
  }
  // The top limb of a (24 bits): add it, then reduce by 2^24 so that the total shift is 256.
  {
    const uint64_t ai = A[8];
#pragma GCC unroll 9
    for (int j = 0; j < 9; ++j) t[j] += ai * B[j];
    const uint64_t q = ((t[0] & kMask24) * mu) & kMask24;
#pragma GCC unroll 9
    for (int j = 0; j < 9; ++j) t[j] += q * M[j];
  }
  // Resolve the carries: t = sum t[j] 2^(29 j) + c 2^261 exactly; its low 24 bits are zero and
  // t / 2^24 = (a b + Q m) / 2^256 < 2m (Q < 2^256).
  uint64_t c = 0;
#pragma GCC unroll 9
  for (int j = 0; j < 9; ++j) {
    const uint64_t v = t[j] + c;
    t[j] = v & kMask29;
    c = v >> 29;
  }
  const uint64_t w0 = (t[0] >> 24) | (t[1] << 5) | (t[2] << 34) | (t[3] << 63);
  const uint64_t w1 = (t[3] >> 1) | (t[4] << 28) | (t[5] << 57);
  const uint64_t w2 = (t[5] >> 7) | (t[6] << 22) | (t[7] << 51);
  const uint64_t w3 = (t[7] >> 13) | (t[8] << 16) | (c << 45);
  // One conditional subtraction of m (branch-free).
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

}  // namespace enygma::portable32
