// Montgomery multiplication (R = 2^255) of two independent elements of Fp or Fr at once in f64x2
// lanes, for WebAssembly with relaxed SIMD: five 51-bit limbs (64-bit integers between
// operations, exact doubles inside a product), every 102-bit limb product split exactly into two
// 51-bit halves by two fused multiply-adds (f64x2.relaxed_madd). A product then costs three
// floating-point operations and two integer additions per lane pair, against one 64-bit integer
// multiplication per 29-bit limb pair in core/field/wasm/limbs29.hpp (25 limb products instead
// of 81). Also the additions, subtractions and reductions around them, and Fp2 products with
// one reduction per coefficient.
//
// The split (C = 1.5 * 2^103, |p| < 2^102 for the exact product p = x y):
//   h = fma(x, y, C)               = C + H 2^51, H = round(p / 2^51) (h stays in [2^103, 2^104),
//                                    where doubles are multiples of 2^51)
//   l = fma(x, y, (C + 3 2^51) - h) = p - H 2^51 + 1.5 2^52, exact: p - H 2^51 is in
//                                    [-2^50, 2^50], so l is in [2^52, 2^53) (multiples of 1)
// and the bit patterns of h and l, read as integers, are H and p - H 2^51 plus constants
// (bits(C), bits(1.5 2^52)). Columns accumulate those bit patterns as 64-bit integers and start
// at minus the sum of the constants they will receive, so they hold exact sums.
//
// relaxed_madd is fused wherever the CPU has a fused multiply-add (x86-64 with FMA3, ARMv8);
// where the engine falls back to a separate multiply and add the split is wrong. Callers check
// that once (fused_fma_works()) before they use these lanes.
//
// Written once over a two-lane vector type: WebAssembly SIMD under -mrelaxed-simd, and a plain
// C++ model with std::fma elsewhere, on which the native tests check the arithmetic.
#pragma once

#include <cmath>
#include <cstddef>
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
inline V isub(V a, V b) {
  return wasm_i64x2_sub(a, b);
}
inline V select(V mask, V if_set, V if_clear) {
  return wasm_v128_bitselect(if_set, if_clear, mask);
}
inline V ushr(V a, int n) {
  return wasm_u64x2_shr(a, n);
}
inline V shl(V a, int n) {
  return wasm_i64x2_shl(a, n);
}
inline V make_u64(uint64_t x0, uint64_t x1) {
  return wasm_i64x2_make(int64_t(x0), int64_t(x1));
}
// w[j] = (a0[j], a1[j]) for j < 4, and back.
inline void load_words(V w[4], const uint64_t* a0, const uint64_t* a1) {
  const V p0 = wasm_v128_load(a0), p1 = wasm_v128_load(a0 + 2);
  const V q0 = wasm_v128_load(a1), q1 = wasm_v128_load(a1 + 2);
  w[0] = wasm_i64x2_shuffle(p0, q0, 0, 2);
  w[1] = wasm_i64x2_shuffle(p0, q0, 1, 3);
  w[2] = wasm_i64x2_shuffle(p1, q1, 0, 2);
  w[3] = wasm_i64x2_shuffle(p1, q1, 1, 3);
}
inline void store_words(uint64_t* a0, uint64_t* a1, const V w[4]) {
  wasm_v128_store(a0, wasm_i64x2_shuffle(w[0], w[1], 0, 2));
  wasm_v128_store(a0 + 2, wasm_i64x2_shuffle(w[2], w[3], 0, 2));
  wasm_v128_store(a1, wasm_i64x2_shuffle(w[0], w[1], 1, 3));
  wasm_v128_store(a1 + 2, wasm_i64x2_shuffle(w[2], w[3], 1, 3));
}
inline uint64_t lane_u64(V a, int l) {
  return uint64_t(l ? wasm_i64x2_extract_lane(a, 1) : wasm_i64x2_extract_lane(a, 0));
}
inline V load_pair(const uint64_t p[2]) {
  return wasm_v128_load(p);
}
inline void store_pair(uint64_t p[2], V a) {
  wasm_v128_store(p, a);
}
// (a[0], b[0]) and (a[1], b[1]).
inline V lanes0(V a, V b) {
  return wasm_i64x2_shuffle(a, b, 0, 2);
}
inline V lanes1(V a, V b) {
  return wasm_i64x2_shuffle(a, b, 1, 3);
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
inline V isub(V a, V c) {
  return model::map(a, c, [](uint64_t x, uint64_t y) { return x - y; });
}
inline V select(V mask, V if_set, V if_clear) {
  return V{{(if_set.w[0] & mask.w[0]) | (if_clear.w[0] & ~mask.w[0]),
            (if_set.w[1] & mask.w[1]) | (if_clear.w[1] & ~mask.w[1])}};
}
inline V ushr(V a, int n) {
  return V{{a.w[0] >> n, a.w[1] >> n}};
}
inline V shl(V a, int n) {
  return V{{a.w[0] << n, a.w[1] << n}};
}
inline V make_u64(uint64_t x0, uint64_t x1) {
  return V{{x0, x1}};
}
inline void load_words(V w[4], const uint64_t* a0, const uint64_t* a1) {
  for (int j = 0; j < 4; ++j) w[j] = V{{a0[j], a1[j]}};
}
inline void store_words(uint64_t* a0, uint64_t* a1, const V w[4]) {
  for (int j = 0; j < 4; ++j) {
    a0[j] = w[j].w[0];
    a1[j] = w[j].w[1];
  }
}
inline uint64_t lane_u64(V a, int l) {
  return a.w[l];
}
inline V load_pair(const uint64_t p[2]) {
  return V{{p[0], p[1]}};
}
inline void store_pair(uint64_t p[2], V a) {
  p[0] = a.w[0];
  p[1] = a.w[1];
}
inline V lanes0(V a, V b) {
  return V{{a.w[0], b.w[0]}};
}
inline V lanes1(V a, V b) {
  return V{{a.w[1], b.w[1]}};
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

// Two field elements, limb i of both in l[i]: 64-bit integers, normalized below 2^51 (the top
// limb too: values below 2^255) wherever a function takes or returns an Fe2.
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

// The constants of the arithmetic below, each in both lanes, are read from memory: V8 (x86-64)
// builds a v128.const that is not all zeros or ones from a 64-bit immediate in three
// instructions (mov, movq, punpcklqdq) at each use, where a load is one (measured in a lane
// product: 27 such constants, ~80 of its ~790 instructions). The tables are not const, so that
// the compiler keeps the loads instead of folding them back into v128.const; nothing writes them.
namespace detail {

// (std::bit_cast is missing from Emscripten 3.1.6's library.)
constexpr uint64_t bits_of(double d) {
  return __builtin_bit_cast(uint64_t, d);
}

template <size_t N>
struct Splats {
  alignas(16) uint64_t v[N][2];
};
template <size_t N, class Gen>
constexpr Splats<N> splats(Gen gen) {
  Splats<N> s{};
  for (size_t i = 0; i < N; ++i) s.v[i][0] = s.v[i][1] = gen(i);
  return s;
}
template <size_t N>
inline V get(const Splats<N>& table, size_t i) {
  return load_pair(table.v[i]);
}

enum Scalar : size_t {
  kTwo52BitsI,
  kTwo52I,
  kSplitI,
  kSplitLoI,
  kMask51I,
  kLoBiasI,
  kTwo51I,
  kOneI
};
inline Splats<8> kScalars = splats<8>([](size_t i) {
  constexpr uint64_t v[8] = {kTwo52Bits, bits_of(kTwo52), kSplitBits,      bits_of(kSplitLo),
                             kMask51,    kLoBiasBits,     bits_of(kTwo51), 1};
  return v[i];
});
inline V scalar(Scalar i) {
  return get(kScalars, i);
}

}  // namespace detail

// An integer below 2^52 in each lane as the double of the same value.
inline V int_to_double(V x) {
  return fsub(vor(x, detail::scalar(detail::kTwo52BitsI)), detail::scalar(detail::kTwo52I));
}

inline V splat_limb(const U256& v, int i) {
  return isplat(limb51(v.w, i));
}

// Two values below 2^255, as four words each.
inline Fe2 load(const uint64_t a0[4], const uint64_t a1[4]) {
  V w[4];
  load_words(w, a0, a1);
  const V mask = detail::scalar(detail::kMask51I);
  Fe2 r;
  r.l[0] = vand(w[0], mask);
  r.l[1] = vand(vor(ushr(w[0], 51), shl(w[1], 13)), mask);
  r.l[2] = vand(vor(ushr(w[1], 38), shl(w[2], 26)), mask);
  r.l[3] = vand(vor(ushr(w[2], 25), shl(w[3], 39)), mask);
  r.l[4] = ushr(w[3], 12);
  return r;
}
// An Fe2 as it is in registers, in kFe2Words words of memory (limb i of lane l at word 2i + l):
// for values kept in the lanes' form between passes.
inline constexpr size_t kFe2Words = 10;
inline Fe2 load_fe2(const uint64_t* p) {
  Fe2 r;
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i) r.l[i] = load_pair(p + 2 * i);
  return r;
}
inline void store_fe2(uint64_t* p, const Fe2& x) {
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i) store_pair(p + 2 * i, x.l[i]);
}

inline void store(uint64_t a0[4], uint64_t a1[4], const Fe2& x) {
  V w[4];
  w[0] = vor(x.l[0], shl(x.l[1], 51));
  w[1] = vor(ushr(x.l[1], 13), shl(x.l[2], 38));
  w[2] = vor(ushr(x.l[2], 26), shl(x.l[3], 25));
  w[3] = vor(ushr(x.l[3], 39), shl(x.l[4], 12));
  store_words(a0, a1, w);
}

// Non-negative limbs below 2^63 carried into 51-bit limbs (logical shifts: WebAssembly's
// arithmetic 64-bit lane shift is several instructions on x86-64); the top limb keeps the rest.
inline __attribute__((always_inline)) void carry(V t[5]) {
  const V mask = detail::scalar(detail::kMask51I);
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    t[i + 1] = iadd(t[i + 1], ushr(t[i], 51));
    t[i] = vand(t[i], mask);
  }
}

namespace detail {

// 2^255 - m, whose addition carries out of 2^255 exactly when the value is at least m.
template <class F>
constexpr U256 kComplement = [] {
  U256 two255{{0, 0, 0, uint64_t(1) << 63}}, r;
  sub_borrow(r, two255, F::kModulus);
  return r;
}();

// Limbs K_i with sum K_i 2^(51 i) = v (v = m or 2m), each K_i (i < 4) raised by 2^51 and the
// next one lowered by 1, so that K_i - b_i is never negative for limbs b_i below 2^51 (the limbs
// 1..4 of m and 2m are nonzero).
constexpr uint64_t sub_offset(const U256& v, int i) {
  return limb51(v.w, i) + (i < 4 ? (uint64_t(1) << 51) : 0) - (i > 0 ? 1 : 0);
}
template <class F>
constexpr U256 kTwiceModulus = [] {
  U256 r;
  add_carry(r, F::kModulus, F::kModulus);
  return r;
}();
// The fields these lanes serve (Fp, Fr): below 2^254, limbs 1..4 of m and 2m nonzero.
template <class F>
constexpr bool kSupported = F::kModulus.w[3] < (uint64_t(1) << 62) &&
                            limb51(F::kModulus.w, 1) != 0 && limb51(F::kModulus.w, 2) != 0 &&
                            limb51(F::kModulus.w, 3) != 0 && limb51(F::kModulus.w, 4) != 0 &&
                            limb51(kTwiceModulus<F>.w, 1) != 0 &&
                            limb51(kTwiceModulus<F>.w, 2) != 0 &&
                            limb51(kTwiceModulus<F>.w, 3) != 0 &&
                            limb51(kTwiceModulus<F>.w, 4) != 0;
static_assert(kSupported<Fp>);

// F's constants in memory (see Splats).
template <class F>
inline Splats<5> kComplementLimbs = splats<5>([](size_t i) {
  return limb51(kComplement<F>.w, int(i));
});
template <class F>
inline Splats<5> kSubOffsets = splats<5>([](size_t i) { return sub_offset(F::kModulus, int(i)); });
template <class F>
inline Splats<5> kTwiceSubOffsets = splats<5>([](size_t i) {
  return sub_offset(kTwiceModulus<F>, int(i));
});
template <class F>
inline Splats<5> kModulusLimbs = splats<5>([](size_t i) { return limb51(F::kModulus.w, int(i)); });
// The limbs of m and the Montgomery factor -m^-1 mod 2^51 as doubles (bit patterns).
template <class F>
inline Splats<6> kModulusDoubles = splats<6>([](size_t i) {
  return bits_of(double(i < 5 ? limb51(F::kModulus.w, int(i)) : F::kInv64 & kMask51));
});

}  // namespace detail

// Elements of the field F (Fp by default, or Fr) in the lanes; m is F's modulus.

// a - m where that is not negative, else a: below m for a below 2m (any a below 2^255).
template <class F = Fp>
inline __attribute__((always_inline)) Fe2 reduce(const Fe2& a) {
  static_assert(detail::kSupported<F>);
  Fe2 t;
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i) t.l[i] = iadd(a.l[i], detail::get(detail::kComplementLimbs<F>, i));
  carry(t.l);
  const V at_least_m = isub(isplat(0), ushr(t.l[4], 51));  // all ones when a >= m
  t.l[4] = vand(t.l[4], detail::scalar(detail::kMask51I));
  Fe2 r;
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i) r.l[i] = select(at_least_m, t.l[i], a.l[i]);
  return r;
}

// a + b (below 2^255: a + b < 2m for a, b < m) and a - b + m (in (0, 2m) for a, b < m), not
// reduced; add() and sub() reduce them below m.
inline __attribute__((always_inline)) Fe2 add_lazy(const Fe2& a, const Fe2& b) {
  Fe2 r;
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i) r.l[i] = iadd(a.l[i], b.l[i]);
  carry(r.l);
  return r;
}
template <class F = Fp>
inline __attribute__((always_inline)) Fe2 sub_lazy(const Fe2& a, const Fe2& b) {
  Fe2 r;
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i)
    r.l[i] = iadd(isub(a.l[i], b.l[i]), detail::get(detail::kSubOffsets<F>, i));
  carry(r.l);
  return r;
}
// 2m - a, for a up to 2m.
template <class F = Fp>
inline __attribute__((always_inline)) Fe2 neg_lazy(const Fe2& a) {
  Fe2 r;
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i) r.l[i] = isub(detail::get(detail::kTwiceSubOffsets<F>, i), a.l[i]);
  carry(r.l);
  return r;
}
template <class F = Fp>
inline __attribute__((always_inline)) Fe2 add(const Fe2& a, const Fe2& b) {
  return reduce<F>(add_lazy(a, b));
}
template <class F = Fp>
inline __attribute__((always_inline)) Fe2 sub(const Fe2& a, const Fe2& b) {
  return reduce<F>(sub_lazy<F>(a, b));
}

namespace detail {

// The constants the columns of a sum of P products start with: minus the bit-pattern offsets
// of the terms they will receive (P + 1 low halves for every limb pair i + j = k, of the
// products and of the reduction, and P + 1 high halves for every i + j + 1 = k), plus 2^55
// (columns 0..8) less the 2^4 that column k - 1's 2^55 adds to this one when it carries: the
// columns never go negative (their low halves sum to more than -15 2^50), so they carry with
// logical shifts, and the offsets cancel in the result.
template <int P>
constexpr uint64_t column_start(int k) {
  uint64_t lows = 0, highs = 0;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      if (i + j == k) lows += P + 1;
      if (i + j + 1 == k) highs += P + 1;
    }
  const uint64_t offset = (k < 9 ? uint64_t(1) << 55 : 0) - (k > 0 ? 16 : 0);
  return offset - (lows * kLoBiasBits + highs * kSplitBits);
}
template <int P>
inline Splats<10> kColumnStarts = splats<10>([](size_t k) { return column_start<P>(int(k)); });

// u[n] = (T_n + q m) / 2^255 for n < N, T_n = a[P n] b[P n] + ... + a[P n + P - 1] b[P n + P - 1]
// (kSquare: P = 1 and T_n = a[n]^2, each product of limbs i < j made once and its halves added
// twice, as the columns would receive them from (i, j) and (j, i)), carried into limbs (below
// T_n / 2^255 + m, which must stay below 2^255).
//
// Montgomery reduction 51 bits at a time: q_c = (column c mod 2^51) (-m^-1) mod 2^51, the low
// half of a product (in [-2^50, 2^50], made non-negative so that the result stays
// non-negative); adding q_c m 2^(51 c) makes column c divisible by 2^51 and its carry moves up.
// The products and the reduction go one column at a time (product scanning): column c receives
// the low halves of the products a_i b_j and q_i m_j with i + j = c and the high halves of those
// with i + j = c - 1; q_c (c < 5) is made once every term but q_c m_0's low half is in, and the
// column then carries into the next one. Only the column being summed and the next one are live
// besides the operands' limbs and the q's; summed row by row instead (all ten columns live), V8
// kept most columns on the stack and the products ran slower. The bounds of a column's inner
// loops depend on c, and LLVM keeps several of them as loops over the operands' limbs and the
// q's in the function's stack frame (linear memory): V8 loads them there as they are needed.
// Every loop unrolled (c a template argument) measured slower in both engines (docs/
// performance.md, "The f64-lane kernels").
//
// N independent sets go through each column together, their operations interleaved: one
// product's reduction is a chain of dependent steps (five q's) longer than the processor's
// reorder window can look past, so a second, independent chain beside it runs in its gaps.
template <class F, int N, int P, bool kSquare = false>
inline __attribute__((always_inline)) void mul_columns(Fe2* u, const Fe2* a, const Fe2* b) {
  static_assert(!kSquare || P == 1);
  const V split = scalar(kSplitI), split_lo = scalar(kSplitLoI), mask = scalar(kMask51I);
  const V mu = get(kModulusDoubles<F>, 5);
  const V zero = fsplat(0.0), two51 = scalar(kTwo51I);
  V x[N * P][5], y[kSquare ? 1 : N * P][5], q[N][5], cur[N], next[N];
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i)
#pragma GCC unroll 4
    for (int k = 0; k < N * P; ++k) {
      x[k][i] = int_to_double(a[k].l[i]);
      if constexpr (!kSquare) y[k][i] = int_to_double(b[k].l[i]);
    }
  // Adds x y's low half to cur and its high half to next (doubled: twice the product).
  const auto add = [&](int n, V xv, V yv, bool twice) {
    const V h = fma(xv, yv, split);
    const V l = fma(xv, yv, fsub(split_lo, h));
    cur[n] = iadd(cur[n], twice ? shl(l, 1) : l);
    next[n] = iadd(next[n], twice ? shl(h, 1) : h);
  };
#pragma GCC unroll 2
  for (int n = 0; n < N; ++n) cur[n] = get(kColumnStarts<P>, 0);
#pragma GCC unroll 10
  for (int c = 0; c < 10; ++c) {
    if (c < 9) {
#pragma GCC unroll 2
      for (int n = 0; n < N; ++n) next[n] = get(kColumnStarts<P>, c + 1);
    }
    const int lo = c > 4 ? c - 4 : 0, hi = c < 4 ? c : 4;
#pragma GCC unroll 5
    for (int i = lo; i <= hi; ++i) {
      if constexpr (kSquare) {
        if (i > c - i) continue;
#pragma GCC unroll 2
        for (int n = 0; n < N; ++n) add(n, x[n][i], x[n][c - i], i < c - i);
      } else {
#pragma GCC unroll 2
        for (int n = 0; n < N; ++n)
#pragma GCC unroll 2
          for (int p = 0; p < P; ++p) add(n, x[P * n + p][c - i], y[P * n + p][i], false);
      }
    }
    // q_i m_{c - i} for i < c.
#pragma GCC unroll 5
    for (int i = lo; i <= (c - 1 < 4 ? c - 1 : 4); ++i)
#pragma GCC unroll 2
      for (int n = 0; n < N; ++n) add(n, q[n][i], get(kModulusDoubles<F>, c - i), false);
    if (c < 5) {
#pragma GCC unroll 2
      for (int n = 0; n < N; ++n) {
        const V low = int_to_double(vand(cur[n], mask));
        const V h = fma(low, mu, split);
        q[n][c] = fsub(fma(low, mu, fsub(split_lo, h)), scalar(kLoBiasI));
        q[n][c] = fadd(q[n][c], vand(flt(q[n][c], zero), two51));
        add(n, q[n][c], get(kModulusDoubles<F>, 0), false);
        next[n] = iadd(next[n], ushr(cur[n], 51));
      }
    } else {
#pragma GCC unroll 2
      for (int n = 0; n < N; ++n) u[n].l[c - 5] = cur[n];
    }
#pragma GCC unroll 2
    for (int n = 0; n < N; ++n) cur[n] = next[n];
  }
#pragma GCC unroll 2
  for (int n = 0; n < N; ++n) carry(u[n].l);
}
// (a + (a odd ? m : 0)) / 2 = a 2^-1 mod m, for a below 2^255 (any multiple of m up to 2.52m):
// below 1.76m for a below 2.52m.
template <class F = Fp>
inline __attribute__((always_inline)) Fe2 halve(const Fe2& a) {
  const V odd = isub(isplat(0), vand(a.l[0], scalar(kOneI)));
  Fe2 t;
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i) t.l[i] = iadd(a.l[i], vand(get(kModulusLimbs<F>, i), odd));
  carry(t.l);
  Fe2 r;
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i)
    r.l[i] = vor(ushr(t.l[i], 1), shl(vand(t.l[i + 1], scalar(kOneI)), 50));
  r.l[4] = ushr(t.l[4], 1);
  return r;
}

// A coefficient's reduced columns (mul_columns of a total below 4m^2: below 2.52m) below m: as
// R = 2^255 by two conditional subtractions, or as R = 2^256 (kR256: the scalar Montgomery
// form) halved below 1.76m, then one.
template <bool kR256>
inline __attribute__((always_inline)) Fe2 finish_coefficient(const Fe2& u) {
  if constexpr (kR256) {
    return reduce(halve(u));
  } else {
    return reduce(reduce(u));
  }
}

}  // namespace detail

// r[n] = a[n] b[n] as mul below for n < N (1 or 2), independent products made together
// (interleaved, see detail::mul_columns). Outputs may alias inputs.
template <class F, bool kR256, int N>
inline __attribute__((always_inline)) void mul_many(Fe2* r, const Fe2* a, const Fe2* b) {
  static_assert(N == 1 || N == 2);
  Fe2 u[N];
  detail::mul_columns<F, N, 1>(u, a, b);
#pragma GCC unroll 2
  for (int n = 0; n < N; ++n) r[n] = reduce<F>(kR256 ? detail::halve<F>(u[n]) : u[n]);
}
// r = a b 2^-255 mod m in both lanes (kR256: a b 2^-256, the product of the scalar Montgomery
// form), below m when a b < 2 m^2 (a < 2m and b < m, or the other way round): before its final
// conditional subtraction the result is below a b / 2^255 + m < 1.76m (halved: below 1.38m).
// r may alias a or b.
template <class F = Fp, bool kR256 = false>
inline __attribute__((always_inline)) void mul(Fe2& r, const Fe2& a, const Fe2& b) {
  mul_many<F, kR256, 1>(&r, &a, &b);
}
template <class F = Fp>
inline __attribute__((always_inline)) void mul_r256(Fe2& r, const Fe2& a, const Fe2& b) {
  mul<F, true>(r, a, b);
}
// r[n] = a[n]^2 2^-255 mod m for n < N (1 or 2), below m for a[n] below m: as mul_many, with
// 15 limb products per square instead of 25.
template <class F, int N>
inline __attribute__((always_inline)) void square_many(Fe2* r, const Fe2* a) {
  static_assert(N == 1 || N == 2);
  Fe2 u[N];
  detail::mul_columns<F, N, 1, true>(u, a, a);
#pragma GCC unroll 2
  for (int n = 0; n < N; ++n) r[n] = reduce<F>(u[n]);
}
// r0 = a0^2 and r1 = a1^2: square_many of two.
template <class F = Fp>
inline __attribute__((always_inline)) void square2(Fe2& r0, const Fe2& a0, Fe2& r1, const Fe2& a1) {
  const Fe2 a[2] = {a0, a1};
  Fe2 r[2];
  square_many<F, 2>(r, a);
  r0 = r[0];
  r1 = r[1];
}
// r0 = a0 b0 and r1 = a1 b1: mul_many of two.
template <class F = Fp, bool kR256 = false>
inline __attribute__((always_inline)) void mul2(Fe2& r0, const Fe2& a0, const Fe2& b0, Fe2& r1,
                                                const Fe2& a1, const Fe2& b1) {
  const Fe2 a[2] = {a0, a1}, b[2] = {b0, b1};
  Fe2 r[2];
  mul_many<F, kR256, 2>(r, a, b);
  r0 = r[0];
  r1 = r[1];
}

// (r0 + r1 u) = (a0 + a1 u)(b0 + b1 u) 2^-255 (2^-256 with kR256) in Fp2 = Fp[u]/(u^2 + 1), both
// lanes, with one reduction per coefficient (lazy reduction): r0 = a0 b0 + (2m - a1) b1,
// r1 = a0 b1 + a1 b0. Components of a below 2m, of b below m: each sum is below 4m^2, and
// results are below m. r0, r1 may alias the operands. The two coefficients' columns are
// interleaved, as mul2's two products.
template <bool kR256 = false>
inline __attribute__((always_inline)) void fp2_mul(Fe2& r0, Fe2& r1, const Fe2& a0, const Fe2& a1,
                                                   const Fe2& b0, const Fe2& b1) {
  const Fe2 x[4] = {a0, neg_lazy<Fp>(a1), a0, a1}, y[4] = {b0, b1, b1, b0};
  Fe2 u[2];
  detail::mul_columns<Fp, 2, 2>(u, x, y);
  r0 = detail::finish_coefficient<kR256>(u[0]);
  r1 = detail::finish_coefficient<kR256>(u[1]);
}

// (r0 + r1 u) = (a0 + a1 u)^2 2^-256, components of a below m: r0 = (a0 + a1)(a0 - a1 + m) and
// r1 = a0 (2 a1), each one product below 4m^2. r0, r1 may alias a0, a1.
inline __attribute__((always_inline)) void fp2_square_r256(Fe2& r0, Fe2& r1, const Fe2& a0,
                                                           const Fe2& a1) {
  const Fe2 x[2] = {add_lazy(a0, a1), a0}, y[2] = {sub_lazy(a0, a1), add_lazy(a1, a1)};
  Fe2 u[2];
  detail::mul_columns<Fp, 2, 1>(u, x, y);
  r0 = detail::finish_coefficient<true>(u[0]);
  r1 = detail::finish_coefficient<true>(u[1]);
}

// N(d) = d0^2 + d1^2 (2^-255) below m, components of d below m: one reduction.
inline __attribute__((always_inline)) Fe2 fp2_norm(const Fe2& d0, const Fe2& d1) {
  const Fe2 x[2] = {d0, d1};
  Fe2 u;
  detail::mul_columns<Fp, 1, 2>(&u, x, x);
  return detail::finish_coefficient<false>(u);
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
