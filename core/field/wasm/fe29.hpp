// Field elements kept as nine 29-bit limbs between operations, for the batch-affine G1 additions
// of the WebAssembly build (core/msm/batch_affine_limbs29.cpp): a chain of multiplications and
// subtractions then pays neither the split into limbs and the join back into words of every
// portable32::mont_mul nor the carry chains of word additions. The counterpart of the IFMA
// backend's Fe8 with one lane, on 64-bit integers.
//
// Multiplication is Montgomery with R' = 2^261 (nine reduction digits of 29 bits), and values
// are lazily reduced, as for the IFMA kernel (core/field/ifma/fe8.hpp): mul(a, b) returns
// a b 2^-261 mod m, below a b / 2^261 + m, so with one input below 64m and the other below 2m
// it stays below 2m (64 * 2 * m^2 / 2^261 < 0.76 m for m < 2^254). The scalar code's values
// (v 2^256) are used as they are and the caller tracks the scalings (a 5-bit shift, shl5, moves a
// value into the 2^261 scale). The squaring (square256) reduces with R = 2^256, so a square of
// a scalar-scaled value stays scalar-scaled, with 45 limb products instead of 81.
//
// Limbs: every limb below 2^29 after each operation ("normalized"), values below 2^261; the
// products of limbs are below 2^58 and a column of nine of them plus a reduction stays far below
// 2^63.
#pragma once

#include <cstdint>

#include "core/field/wasm/limbs29.hpp"

namespace enygma::wasm {

struct Fe29 {
  uint64_t l[9];
};

#define ENYGMA_FE29 inline __attribute__((always_inline))

// Normalizes limbs that may exceed 29 bits or be negative (as two's complement), for a
// non-negative total below 2^261.
ENYGMA_FE29 void normalize(Fe29& a) {
  int64_t c = 0;
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) {
    const int64_t v = int64_t(a.l[i]) + c;
    a.l[i] = uint64_t(v) & kMask29;
    c = v >> 29;
  }
  a.l[8] += uint64_t(c) << 29;
}

// A 256-bit value (four words) as limbs, and back (value below 2^256, normalized).
ENYGMA_FE29 Fe29 from_words(const uint64_t w[4]) {
  Fe29 r;
  split29(r.l, w);
  return r;
}
ENYGMA_FE29 void to_words(const Fe29& a, uint64_t w[4]) {
  const uint64_t* l = a.l;
  w[0] = l[0] | (l[1] << 29) | (l[2] << 58);
  w[1] = (l[2] >> 6) | (l[3] << 23) | (l[4] << 52);
  w[2] = (l[4] >> 12) | (l[5] << 17) | (l[6] << 46);
  w[3] = (l[6] >> 18) | (l[7] << 11) | (l[8] << 40);
}

// Constants of one modulus as limbs: k m for k = 1, 2, 3, 4 and 2^261 mod m (one in the 2^261
// scale).
template <class F>
struct Fe29Modulus {
  static constexpr Fe29 times(uint64_t k) {
    U256 x{};
    for (uint64_t i = 0; i < k; ++i) add_carry(x, x, F::kModulus);
    Fe29 r{};
    for (int i = 0; i < 9; ++i) {
      const int bit = 29 * i, word = bit / 64, off = bit % 64;
      uint64_t v = x.w[word] >> off;
      if (off > 35 && word + 1 < 4) v |= x.w[word + 1] << (64 - off);
      r.l[i] = i < 8 ? v & kMask29 : v;
    }
    return r;
  }
  static constexpr Fe29 kM1 = times(1), kM2 = times(2), kM3 = times(3), kM4 = times(4);
  static constexpr Fe29 kOne261 = [] {
    const U256 x = field_detail::shl_mod_slow(U256::from_u64(1), 261, F::kModulus);
    Fe29 r{};
    for (int i = 0; i < 9; ++i) {
      const int bit = 29 * i, word = bit / 64, off = bit % 64;
      uint64_t v = x.w[word] >> off;
      if (off > 35 && word + 1 < 4) v |= x.w[word + 1] << (64 - off);
      r.l[i] = i < 8 ? v & kMask29 : v;
    }
    return r;
  }();
};

// r = T 2^-261 mod m for T = sum t[k] 2^(29 k) (signed columns, total non-negative), below
// T / 2^261 + m: nine reduction digits of 29 bits (SOS, as redc_columns), no final subtraction.
template <class F>
ENYGMA_FE29 Fe29 redc261(int64_t t[18]) {
  using M = Limbs29Modulus<F>;
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) {
    const uint64_t q = ((uint64_t(t[i]) & kMask29) * M::kMu) & kMask29;
#pragma GCC unroll 9
    for (int j = 0; j < 9; ++j) t[i + j] += int64_t(q * M::kM[j]);
    t[i + 1] += t[i] >> 29;  // exact: the low 29 bits of t[i] are zero now
  }
  Fe29 r;
  int64_t c = 0;
#pragma GCC unroll 9
  for (int k = 0; k < 9; ++k) {
    const int64_t v = t[9 + k] + c;
    r.l[k] = uint64_t(v) & kMask29;
    c = v >> 29;
  }
  r.l[8] += uint64_t(c) << 29;
  return r;
}

// a b 2^-261 mod m, below a b / 2^261 + m.
template <class F>
ENYGMA_FE29 Fe29 mul(const Fe29& a, const Fe29& b) {
  uint64_t t[18] = {};
  mul_columns(t, a.l, b.l);
  int64_t s[18];
#pragma GCC unroll 18
  for (int k = 0; k < 18; ++k) s[k] = int64_t(t[k]);
  return redc261<F>(s);
}

// a + b (no reduction).
ENYGMA_FE29 Fe29 add(const Fe29& a, const Fe29& b) {
  Fe29 r;
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) r.l[i] = a.l[i] + b.l[i];
  normalize(r);
  return r;
}

// a - b + K m for K in 1..4: non-negative when b < a + K m (no reduction).
template <class F, int K>
ENYGMA_FE29 Fe29 sub(const Fe29& a, const Fe29& b) {
  using M = Fe29Modulus<F>;
  static_assert(K >= 1 && K <= 4);
  const Fe29& km = K == 1 ? M::kM1 : K == 2 ? M::kM2 : K == 3 ? M::kM3 : M::kM4;
  Fe29 r;
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) r.l[i] = a.l[i] - b.l[i] + km.l[i];
  normalize(r);
  return r;
}

// a - c if that is not negative, else a (branch-free).
ENYGMA_FE29 Fe29 sub_if_not_below(const Fe29& a, const Fe29& c) {
  Fe29 d;
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) d.l[i] = a.l[i] - c.l[i];
  int64_t carry = 0;
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) {
    const int64_t v = int64_t(d.l[i]) + carry;
    d.l[i] = uint64_t(v) & kMask29;
    carry = v >> 29;
  }
  const uint64_t keep_a = uint64_t(carry >> 63);  // all ones when a - c < 0
  d.l[8] += uint64_t(carry) << 29;
  Fe29 r;
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) r.l[i] = (a.l[i] & keep_a) | (d.l[i] & ~keep_a);
  return r;
}

// The representative in [0, m) of a value below 4m.
template <class F>
ENYGMA_FE29 Fe29 reduce_below_4m(const Fe29& a) {
  using M = Fe29Modulus<F>;
  return sub_if_not_below(sub_if_not_below(a, M::kM2), M::kM1);
}

// a 2^5 (a below 2^256, so the result fits the 261 bits).
ENYGMA_FE29 Fe29 shl5(const Fe29& a) {
  Fe29 r;
  r.l[0] = (a.l[0] << 5) & kMask29;
#pragma GCC unroll 8
  for (int i = 1; i < 9; ++i) r.l[i] = ((a.l[i] << 5) & kMask29) | (a.l[i - 1] >> 24);
  r.l[8] |= (a.l[8] << 5) & ~kMask29;
  return r;
}

// r = T 2^-256 mod m as limbs, below T / 2^256 + m: eight reduction digits of 29 bits and one
// of 24 (as redc_columns), no final subtraction; the result is shifted back onto the limbs.
template <class F>
ENYGMA_FE29 Fe29 redc256(int64_t t[18]) {
  using M = Limbs29Modulus<F>;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    const uint64_t q = ((uint64_t(t[i]) & kMask29) * M::kMu) & kMask29;
#pragma GCC unroll 9
    for (int j = 0; j < 9; ++j) t[i + j] += int64_t(q * M::kM[j]);
    t[i + 1] += t[i] >> 29;
  }
  {
    const uint64_t q = ((uint64_t(t[8]) & kMask24) * M::kMu) & kMask24;
#pragma GCC unroll 9
    for (int j = 0; j < 9; ++j) t[8 + j] += int64_t(q * M::kM[j]);
  }
  uint64_t l[10];
  int64_t c = 0;
#pragma GCC unroll 9
  for (int k = 0; k < 9; ++k) {
    const int64_t v = t[8 + k] + c;
    l[k] = uint64_t(v) & kMask29;
    c = v >> 29;
  }
  l[9] = uint64_t(c + t[17]);
  Fe29 r;
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) r.l[i] = (l[i] >> 24) | ((l[i + 1] << 5) & kMask29);
  r.l[8] |= (l[9] << 5) & ~kMask29;
  return r;
}

// a^2 2^-256 mod m (the scalar form's scale), below a^2 / 2^256 + m: 45 limb products.
template <class F>
ENYGMA_FE29 Fe29 square256(const Fe29& a) {
  uint64_t t[18] = {}, a2[9];
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) a2[i] = a.l[i] << 1;
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) {
    t[2 * i] += a.l[i] * a.l[i];
#pragma GCC unroll 8
    for (int j = i + 1; j < 9; ++j) t[i + j] += a.l[i] * a2[j];
  }
  int64_t s[18];
#pragma GCC unroll 18
  for (int k = 0; k < 18; ++k) s[k] = int64_t(t[k]);
  return redc256<F>(s);
}

#undef ENYGMA_FE29

}  // namespace enygma::wasm
