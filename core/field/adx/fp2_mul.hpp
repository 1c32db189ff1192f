// Fp2 = Fp[u] / (u^2 + 1) multiplication with lazy reduction on the ADX kernel: the three
// Karatsuba products as 512-bit integers (mul_wide), one Montgomery reduction (redc) per
// coefficient, two instead of three.
//
// Lazy reduction (Aranha, Karabina, Longa, Gebotys, Lopez, Eurocrypt 2011, section 3): with
// t0 = a0 b0, t1 = a1 b1 and t2 = (a0 + a1)(b0 + b1) as 512-bit integers (the sums unreduced,
// below 2m < 2^255),
//   c0 = redc(t0 - t1), plus m 2^256 when negative: in [0, m 2^256),
//   c1 = redc(t2 - t0 - t1) = redc(a0 b1 + a1 b0): in [0, 2m^2) within [0, m 2^256),
// and redc of anything below m 2^256 returns a value below m (adx::redc).
#pragma once

#include <x86intrin.h>

#include <cstdint>

#include "core/field/adx/mont_mul.hpp"

namespace enygma::adx {

// (r0 + r1 u) = (a0 + a1 u)(b0 + b1 u) in Montgomery form (R = 2^256) over F's modulus, inputs
// below m. Out of line: it is large, and every Fp2 product of the pairing calls it.
template <class F>
__attribute__((noinline)) void fp2_mul(uint64_t r0[4], uint64_t r1[4], const uint64_t a0[4],
                                       const uint64_t a1[4], const uint64_t b0[4],
                                       const uint64_t b1[4]) {
  constexpr const uint64_t* m = F::kModulus.w;
  uint64_t sa[4], sb[4];
  unsigned long long x;
  unsigned char c = 0;
  for (int i = 0; i < 4; ++i) {
    c = _addcarry_u64(c, a0[i], a1[i], &x);
    sa[i] = x;
  }
  c = 0;
  for (int i = 0; i < 4; ++i) {
    c = _addcarry_u64(c, b0[i], b1[i], &x);
    sb[i] = x;
  }
  uint64_t t0[8], t1[8], t2[8];
  mul_wide(t0, a0, b0);
  mul_wide(t1, a1, b1);
  mul_wide(t2, sa, sb);
  // t2 - t0 - t1 and t0 - t1, one borrow chain at a time: interleaved, the chains need more
  // carry flags than x86 has and compile to setb/add sequences.
  unsigned char br = 0;
  for (int i = 0; i < 8; ++i) {
    br = _subborrow_u64(br, t2[i], t0[i], &x);
    t2[i] = x;
  }
  br = 0;
  for (int i = 0; i < 8; ++i) {
    br = _subborrow_u64(br, t2[i], t1[i], &x);
    t2[i] = x;
  }
  unsigned char br0 = 0;
  for (int i = 0; i < 8; ++i) {
    br0 = _subborrow_u64(br0, t0[i], t1[i], &x);
    t0[i] = x;
  }
  const uint64_t mask = 0 - uint64_t(br0);
  c = 0;
  for (int i = 0; i < 4; ++i) {
    c = _addcarry_u64(c, t0[4 + i], m[i] & mask, &x);
    t0[4 + i] = x;
  }
  redc(r0, t0, m, F::kInv64);
  redc(r1, t2, m, F::kInv64);
}

// (r0 + r1 u) = (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u, inputs below m: two Montgomery
// products of unreduced operands, a0 + a1 and a0 + (m - a1) and 2 a1 each below 2m. mont_mul
// takes them: for a, b < 2m the product is below 4m^2 < m 2^256 (4m < 2^256), so its result
// (ab + qm) / 2^256 is below 2m before the final subtraction and below m after it.
template <class F>
__attribute__((noinline)) void fp2_square(uint64_t r0[4], uint64_t r1[4], const uint64_t a0[4],
                                          const uint64_t a1[4]) {
  constexpr const uint64_t* m = F::kModulus.w;
  uint64_t s[4], d[4], t[4];
  unsigned long long x;
  unsigned char c = 0, br = 0;
  for (int i = 0; i < 4; ++i) {
    c = _addcarry_u64(c, a0[i], a1[i], &x);
    s[i] = x;
  }
  for (int i = 0; i < 4; ++i) {
    br = _subborrow_u64(br, m[i], a1[i], &x);
    d[i] = x;
  }
  c = 0;
  for (int i = 0; i < 4; ++i) {
    c = _addcarry_u64(c, d[i], a0[i], &x);
    d[i] = x;
  }
  c = 0;
  for (int i = 0; i < 4; ++i) {
    c = _addcarry_u64(c, a1[i], a1[i], &x);
    t[i] = x;
  }
  uint64_t u0[4], u1[4];
  mont_mul(u1, a0, t, m, F::kInv64);
  mont_mul(u0, s, d, m, F::kInv64);
  for (int i = 0; i < 4; ++i) {
    r0[i] = u0[i];
    r1[i] = u1[i];
  }
}

}  // namespace enygma::adx
