// Montgomery multiplication of two independent Fp elements at once in f64x2 lanes, for
// WebAssembly with relaxed SIMD: five 51-bit limbs held as exact doubles, every 102-bit limb
// product split exactly into two 51-bit halves by two fused multiply-adds (f64x2.relaxed_madd).
// A product then costs three floating-point operations and two integer additions per lane pair,
// against one 64-bit integer multiplication per 29-bit limb pair in core/field/wasm/limbs29.hpp
// (25 limb products instead of 81).
//
// The split (C = 1.5 * 2^103, |p| < 2^102 for the exact product p = x y):
//   h = fma(x, y, C)               = C + H 2^51, H = round(p / 2^51) (h stays in [2^103, 2^104),
//                                    where doubles are multiples of 2^51)
//   l = fma(x, y, (C + 3 2^51) - h) = p - H 2^51 + 1.5 2^52, exact: p - H 2^51 is in
//                                    [-2^50, 2^50], so l is in [2^52, 2^53) (multiples of 1)
// and the bit patterns of h and l, read as integers, are H and p - H 2^51 plus constants
// (bits(C), bits(1.5 2^52)). Columns accumulate those bit patterns as 64-bit integers and start
// at minus the sum of the constants they will receive, so they hold exact signed sums.
//
// relaxed_madd is fused on every CPU with FMA (all x86-64 since 2013, every ARMv8); where the
// engine falls back to a separate multiply and add the split is wrong. Callers check that once
// (fused_fma_works()) before they use these lanes.
//
// Written once over a two-lane vector type: WebAssembly SIMD under -mrelaxed-simd, and a plain
// C++ model with std::fma elsewhere, on which the native tests check the arithmetic.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/field/fp.hpp"

#if defined(__wasm_relaxed_simd__)
#include <wasm_simd128.h>
#endif

namespace enygma::f64_lanes {

#if defined(__wasm_relaxed_simd__)
using V = v128_t;
// LLVM 14 spells relaxed_madd with the prototype's opcode; scripts/wasm_relaxed_simd.py renames
// it to the standard one (a * b + c) after the link.
inline V fma(V a, V b, V c) {
  return __builtin_wasm_fma_f64x2(a, b, c);
}
inline V fsplat(double x) {
  return wasm_f64x2_splat(x);
}
inline V isplat(uint64_t x) {
  return wasm_i64x2_splat(int64_t(x));
}
inline V fsub(V a, V b) {
  return wasm_f64x2_sub(a, b);
}
inline V fadd(V a, V b) {
  return wasm_f64x2_add(a, b);
}
inline V flt(V a, V b) {
  return wasm_f64x2_lt(a, b);
}
inline V iadd(V a, V b) {
  return wasm_i64x2_add(a, b);
}
inline V vand(V a, V b) {
  return wasm_v128_and(a, b);
}
inline V vor(V a, V b) {
  return wasm_v128_or(a, b);
}
inline V ishr51(V a) {
  return wasm_i64x2_shr(a, 51);
}
inline V ishl51(V a) {
  return wasm_i64x2_shl(a, 51);
}
inline V make_u64(uint64_t x0, uint64_t x1) {
  return wasm_i64x2_make(int64_t(x0), int64_t(x1));
}
inline uint64_t lane_u64(V a, int l) {
  return uint64_t(l ? wasm_i64x2_extract_lane(a, 1) : wasm_i64x2_extract_lane(a, 0));
}
#else
// The model: two 64-bit words per vector, doubles by their bit patterns.
struct V {
  uint64_t w[2];
};
namespace model {
inline double f(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
inline uint64_t b(double d) {
  uint64_t x;
  std::memcpy(&x, &d, 8);
  return x;
}
template <class Op>
inline V map(V x, V y, Op op) {
  return V{{op(x.w[0], y.w[0]), op(x.w[1], y.w[1])}};
}
}  // namespace model
inline V fma(V a, V x, V c) {
  using namespace model;
  return V{
      {b(std::fma(f(a.w[0]), f(x.w[0]), f(c.w[0]))), b(std::fma(f(a.w[1]), f(x.w[1]), f(c.w[1])))}};
}
inline V fsplat(double x) {
  return V{{model::b(x), model::b(x)}};
}
inline V isplat(uint64_t x) {
  return V{{x, x}};
}
inline V fsub(V a, V c) {
  return model::map(a, c,
                    [](uint64_t x, uint64_t y) { return model::b(model::f(x) - model::f(y)); });
}
inline V fadd(V a, V c) {
  return model::map(a, c,
                    [](uint64_t x, uint64_t y) { return model::b(model::f(x) + model::f(y)); });
}
inline V flt(V a, V c) {
  return model::map(a, c, [](uint64_t x, uint64_t y) {
    return model::f(x) < model::f(y) ? ~uint64_t(0) : uint64_t(0);
  });
}
inline V iadd(V a, V c) {
  return model::map(a, c, [](uint64_t x, uint64_t y) { return x + y; });
}
inline V vand(V a, V c) {
  return model::map(a, c, [](uint64_t x, uint64_t y) { return x & y; });
}
inline V vor(V a, V c) {
  return model::map(a, c, [](uint64_t x, uint64_t y) { return x | y; });
}
inline V ishr51(V a) {
  return V{{uint64_t(int64_t(a.w[0]) >> 51), uint64_t(int64_t(a.w[1]) >> 51)}};
}
inline V ishl51(V a) {
  return V{{a.w[0] << 51, a.w[1] << 51}};
}
inline V make_u64(uint64_t x0, uint64_t x1) {
  return V{{x0, x1}};
}
inline uint64_t lane_u64(V a, int l) {
  return a.w[l];
}
#endif

inline constexpr uint64_t kMask51 = (uint64_t(1) << 51) - 1;
inline constexpr double kSplit = 0x1.8p103;               // C = 1.5 2^103
inline constexpr double kSplitLo = 0x1.8p103 + 0x1.8p52;  // C + 3 2^51
inline constexpr double kLoBias = 0x1.8p52;               // 1.5 2^52
inline constexpr double kTwo52 = 0x1p52;
inline constexpr double kTwo51 = 0x1p51;
inline constexpr uint64_t kSplitBits = 0x4668000000000000;   // bits(C)
inline constexpr uint64_t kLoBiasBits = 0x4338000000000000;  // bits(1.5 2^52)
inline constexpr uint64_t kTwo52Bits = 0x4330000000000000;   // bits(2^52)

// Two field elements, limb i of both in l[i]: exact non-negative integers below 2^51 as doubles.
struct Fe2 {
  V l[5];
};

// Limb i (51 bits) of a 256-bit value given as four little-endian words.
constexpr uint64_t limb51(const uint64_t w[4], int i) {
  const int bit = 51 * i, word = bit / 64, off = bit % 64;
  uint64_t v = w[word] >> off;
  if (off > 13 && word + 1 < 4) v |= w[word + 1] << (64 - off);
  return v & kMask51;
}

// An integer below 2^52 in each lane as the double of the same value.
inline V int_to_double(V x) {
  return fsub(vor(x, isplat(kTwo52Bits)), fsplat(kTwo52));
}
// The inverse, for exact doubles in [0, 2^52).
inline V double_to_int(V x) {
  const V b = fadd(x, fsplat(kTwo52));
  return V(vand(b, isplat((uint64_t(1) << 52) - 1)));
}

// Two values below 2^255, as four words each.
inline Fe2 load(const uint64_t a0[4], const uint64_t a1[4]) {
  Fe2 r;
  for (int i = 0; i < 5; ++i) r.l[i] = int_to_double(make_u64(limb51(a0, i), limb51(a1, i)));
  return r;
}
inline void store(uint64_t a0[4], uint64_t a1[4], const Fe2& x) {
  for (int l = 0; l < 2; ++l) {
    uint64_t L[5];
    for (int i = 0; i < 5; ++i) L[i] = lane_u64(double_to_int(x.l[i]), l);
    uint64_t* o = l ? a1 : a0;
    o[0] = L[0] | (L[1] << 51);
    o[1] = (L[1] >> 13) | (L[2] << 38);
    o[2] = (L[2] >> 26) | (L[3] << 25);
    o[3] = (L[3] >> 39) | (L[4] << 12);
  }
}

namespace detail {

// The constants each column starts with: minus the bit-pattern offsets of the terms it will
// receive (two low halves for every limb pair i + j = k, of the product and of the reduction,
// and two high halves for every i + j + 1 = k).
constexpr uint64_t column_start(int k) {
  uint64_t lows = 0, highs = 0;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      if (i + j == k) lows += 2;
      if (i + j + 1 == k) highs += 2;
    }
  return 0 - (lows * kLoBiasBits + highs * kSplitBits);
}

// t[k] += the low half of x y, t[k + 1] += its high half (bit patterns).
inline __attribute__((always_inline)) void mul_add(V t[10], int k, V x, V y, V split, V split_lo) {
  const V h = fma(x, y, split);
  const V l = fma(x, y, fsub(split_lo, h));
  t[k] = iadd(t[k], l);
  t[k + 1] = iadd(t[k + 1], h);
}

}  // namespace detail

// r = a b 2^-255 mod m in both lanes, r < a b / 2^255 + m: below 2m when a < 2m and b < m (or
// the other way round). Limbs of a and b below 2^51 (any value below 2^255). r may alias a or b.
inline __attribute__((always_inline)) void mul(Fe2& r, const Fe2& a, const Fe2& b) {
  using detail::mul_add;
  const V split = fsplat(kSplit), split_lo = fsplat(kSplitLo), mask = isplat(kMask51);
  V t[10];
#pragma GCC unroll 10
  for (int k = 0; k < 10; ++k) t[k] = isplat(detail::column_start(k));
#pragma GCC unroll 10
  for (int i = 0; i < 5; ++i)
#pragma GCC unroll 10
    for (int j = 0; j < 5; ++j) mul_add(t, i + j, a.l[j], b.l[i], split, split_lo);
  // Montgomery reduction, 51 bits at a time: q = (t[i] mod 2^51) (-m^-1) mod 2^51, the low half
  // of a product (in [-2^50, 2^50], made non-negative so that the result stays non-negative),
  // then t += q m 2^(51 i) makes t[i] divisible by 2^51 and its carry moves up.
  const V mu = fsplat(double(Fp::kInv64 & kMask51));
  const V zero = fsplat(0.0), two51 = fsplat(kTwo51);
#pragma GCC unroll 10
  for (int i = 0; i < 5; ++i) {
    const V x = int_to_double(vand(t[i], mask));
    const V h = fma(x, mu, split);
    V q = fsub(fma(x, mu, fsub(split_lo, h)), fsplat(kLoBias));
    q = fadd(q, vand(flt(q, zero), two51));
#pragma GCC unroll 10
    for (int j = 0; j < 5; ++j)
      mul_add(t, i + j, q, fsplat(double(limb51(Fp::kModulus.w, j))), split, split_lo);
    t[i + 1] = iadd(t[i + 1], ishr51(t[i]));
  }
  // (a b + q m) / 2^255 = sum t[5 + k] 2^(51 k), below 2^255: normalize into five limbs.
#pragma GCC unroll 10
  for (int k = 5; k < 9; ++k) {
    t[k + 1] = iadd(t[k + 1], ishr51(t[k]));
    r.l[k - 5] = int_to_double(vand(t[k], mask));
  }
  r.l[4] = int_to_double(t[9]);
}

// Whether fma() above is fused here (a separate multiply and add rounds x y first: the split
// above would then be wrong). (2^52 + 1)(2^52 + 3) - its rounding is 3 exactly when fused.
// The inputs are read from volatile memory: the compiler may fold the builtin on constants either
// way (LLVM 14 folds it unfused), and the engine's answer is the one that counts.
inline bool fused_fma_works() {
  static volatile double inputs[3] = {0x1p52 + 1, 0x1p52 + 3, 0x1p104 + 0x1p54};
  const V x = fsplat(inputs[0]), y = fsplat(inputs[1]);
  const V p = fsplat(inputs[2]);  // (2^52 + 1)(2^52 + 3) rounded to a double
  const V d = fma(x, y, fsub(fsplat(0.0), p));
  double d0, d1;
  const uint64_t b0 = lane_u64(d, 0), b1 = lane_u64(d, 1);
  std::memcpy(&d0, &b0, 8);
  std::memcpy(&d1, &b1, 8);
  return d0 == 3.0 && d1 == 3.0;
}

}  // namespace enygma::f64_lanes
