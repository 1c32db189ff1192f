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
#include "core/field/portable64/add_sub.hpp"

namespace enygma::adx {

// (r0 + r1 u) = (a0 + a1 u)(b0 + b1 u) in Montgomery form (R = 2^256) over F's modulus, inputs
// below m. Out of line: it is large, and every Fp2 product of the pairing calls it.
template <class F>
__attribute__((noinline)) void fp2_mul(uint64_t r0[4], uint64_t r1[4], const uint64_t a0[4],
                                       const uint64_t a1[4], const uint64_t b0[4],
                                       const uint64_t b1[4]) {
  constexpr const uint64_t* m = F::kModulus.w;
  uint64_t sa[4], sb[4];
  portable64::add_words_x86(sa, a0, a1);  // below 2m
  portable64::add_words_x86(sb, b0, b1);
  uint64_t t0[8], t1[8], t2[8];
  mul_wide(t0, a0, b0);
  mul_wide(t1, a1, b1);
  mul_wide(t2, sa, sb);
  // t2 - t0 - t1 and t0 - t1, one borrow chain at a time: interleaved, the chains need more
  // carry flags than x86 has and compile to setb/add sequences.
  unsigned long long x;
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
  const uint64_t m_if_negative[4] = {m[0] & mask, m[1] & mask, m[2] & mask, m[3] & mask};
  portable64::add_words_x86(t0 + 4, t0 + 4, m_if_negative);
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
  unsigned char br = 0;
  for (int i = 0; i < 4; ++i) {
    br = _subborrow_u64(br, m[i], a1[i], &x);
    d[i] = x;
  }
  portable64::add_words_x86(d, d, a0);  // a0 + (m - a1)
  portable64::add_words_x86(s, a0, a1);
  portable64::add_words_x86(t, a1, a1);
  // Every input is read before r1 is written (s, d, t hold what r0 needs), so r0 and r1 may
  // alias a0 and a1.
  mont_mul(r1, a0, t, m, F::kInv64);
  mont_mul(r0, s, d, m, F::kInv64);
}

}  // namespace enygma::adx
