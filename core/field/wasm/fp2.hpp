// Fp2 = Fp[u] / (u^2 + 1) multiplication and squaring for the WebAssembly backend, with lazy
// reduction (Aranha, Karabina, Longa, Gebotys, Lopez, Eurocrypt 2011, section 3): the limb
// products of both coefficients are summed as columns (core/field/wasm/limbs29.hpp) and each
// coefficient is reduced once. Same results as Karatsuba on portable32::mont_mul. Out of line:
// each is large, and the pairing and the G2 additions call them everywhere.
#pragma once

#include <cstdint>

#include "core/field/wasm/limbs29.hpp"

namespace enygma::wasm {

// m^2 as columns of 29 bits, added to a0 b0 - a1 b1 so that the total is non-negative.
template <class F>
struct SquaredModulus29 {
  static constexpr auto columns() {
    struct C {
      uint64_t v[18];
    } c{};
    // schoolbook m * m into 18 limbs of 29 bits, carries resolved (all compile time)
    uint64_t t[18] = {};
    for (int i = 0; i < 9; ++i) {
      for (int j = 0; j < 9; ++j) t[i + j] += Limbs29Modulus<F>::kM[i] * Limbs29Modulus<F>::kM[j];
    }
    uint64_t carry = 0;
    for (int k = 0; k < 18; ++k) {
      const uint64_t v = t[k] + carry;
      c.v[k] = v & kMask29;
      carry = v >> 29;
    }
    return c;
  }
  static constexpr auto kColumns = columns();
};

// (r0 + r1 u) = (a0 + a1 u)(b0 + b1 u), inputs below m; r0, r1 may alias the inputs.
// Karatsuba on columns: with P0 = a0 b0, P1 = a1 b1, P2 = (a0 + a1)(b0 + b1) formed limb by limb
// (the sums' limbs unnormalized, below 2^30), P2 - P0 - P1 = a0 b1 + a1 b0 holds column by
// column and is non-negative there; c0 = P0 - P1 + m^2 is non-negative as a whole (columns may
// not be: they are signed). Both are below 2 m^2, as redc_columns needs. Column bounds: P2's
// reach 9 * 2^60 < 2^64 (unsigned; the difference is exact modulo 2^64 and below 2^62.2).
template <class F>
__attribute__((noinline)) void fp2_mul(uint64_t r0[4], uint64_t r1[4], const uint64_t a0[4],
                                       const uint64_t a1[4], const uint64_t b0[4],
                                       const uint64_t b1[4]) {
  uint64_t x0[9], x1[9], y0[9], y1[9], sx[9], sy[9];
  split29(x0, a0);
  split29(x1, a1);
  split29(y0, b0);
  split29(y1, b1);
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) {
    sx[i] = x0[i] + x1[i];
    sy[i] = y0[i] + y1[i];
  }
  uint64_t p0[18] = {}, p1[18] = {}, p2[18] = {};
  mul_columns(p0, x0, y0);
  mul_columns(p1, x1, y1);
  mul_columns(p2, sx, sy);
  int64_t c0[18], c1[18];
  constexpr const auto& mm = SquaredModulus29<F>::kColumns;
#pragma GCC unroll 18
  for (int k = 0; k < 18; ++k) {
    c1[k] = int64_t(p2[k] - p0[k] - p1[k]);
    c0[k] = int64_t(p0[k] + mm.v[k]) - int64_t(p1[k]);
  }
  redc_columns<F>(r0, c0);
  redc_columns<F>(r1, c1);
}

// (r0 + r1 u) = (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u, inputs below m. The difference
// is formed limb by limb (signed limbs); c0 + m^2 is non-negative and below 2 m^2, and
// 2 a0 a1 < 2 m^2.
template <class F>
__attribute__((noinline)) void fp2_square(uint64_t r0[4], uint64_t r1[4], const uint64_t a0[4],
                                          const uint64_t a1[4]) {
  uint64_t x0[9], x1[9], s[9], x1d[9];
  int64_t d[9];
  split29(x0, a0);
  split29(x1, a1);
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) {
    s[i] = x0[i] + x1[i];
    d[i] = int64_t(x0[i]) - int64_t(x1[i]);
    x1d[i] = x1[i] << 1;
  }
  int64_t c0[18] = {}, c1[18];
  uint64_t p1[18] = {};
#pragma GCC unroll 9
  for (int i = 0; i < 9; ++i) {
#pragma GCC unroll 9
    for (int j = 0; j < 9; ++j) c0[i + j] += int64_t(s[i]) * d[j];
  }
  mul_columns(p1, x0, x1d);
  constexpr const auto& mm = SquaredModulus29<F>::kColumns;
#pragma GCC unroll 18
  for (int k = 0; k < 18; ++k) {
    c0[k] += int64_t(mm.v[k]);
    c1[k] = int64_t(p1[k]);
  }
  redc_columns<F>(r0, c0);
  redc_columns<F>(r1, c1);
}

}  // namespace enygma::wasm
