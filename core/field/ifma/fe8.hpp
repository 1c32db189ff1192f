// The IFMA backend: eight field elements at once with AVX-512 IFMA (VPMADD52LUQ/VPMADD52HUQ),
// the vector kernel behind the batch-affine G1 and G2 additions of the MSM
// (core/msm/batch_affine_ifma.cpp).
//
// Representation: five 52-bit limbs (radix 2^52), limb i of all eight lanes in one zmm register.
// Multiplication is Montgomery with R' = 2^260 (word-by-word reduction, one 52-bit digit per
// step). The scalar field code keeps values in Montgomery form with R = 2^256; a scalar value
// X = v*2^256 repacked into 52-bit limbs is used here as is, and the scalings are tracked by the
// caller: mul(a, b) returns a*b*2^-260, so a product of a 2^260-scaled and a 2^256-scaled value
// is 2^256-scaled again (see batch_affine_ifma.cpp).
//
// Values are "lazily reduced": mul's output is below a*b/2^260 + m, so with inputs below 32m and
// 2m it stays below 2m; reduce_below() brings a value back to [0, m) for the scalar side.
//
// Only compiled into functions carrying ENYGMA_IFMA_TARGET; this path is chosen at run time
// from cpuid (core/field/kernels.hpp, core/field/cpu_features.hpp), so the default build still
// runs on any x86-64.
#pragma once

#include "core/field/cpu_features.hpp"

#if defined(ENYGMA_HAVE_IFMA_KERNEL)

#include <immintrin.h>

#include <cstdint>

#include "core/field/prime_field.hpp"
#include "core/field/u256.hpp"

#define ENYGMA_IFMA_TARGET __attribute__((target("avx512f,avx512ifma")))
#define ENYGMA_IFMA_INLINE __attribute__((target("avx512f,avx512ifma"), always_inline)) inline

namespace enygma::ifma {

constexpr uint64_t kMask52 = (uint64_t(1) << 52) - 1;

// The five radix-2^52 limbs of a 256-bit integer (the top one holds bits 208..255).
constexpr void to_radix52(const U256& x, uint64_t out[5]) {
  out[0] = x.w[0] & kMask52;
  out[1] = ((x.w[0] >> 52) | (x.w[1] << 12)) & kMask52;
  out[2] = ((x.w[1] >> 40) | (x.w[2] << 24)) & kMask52;
  out[3] = ((x.w[2] >> 28) | (x.w[3] << 36)) & kMask52;
  out[4] = x.w[3] >> 16;
}

// Constants of one modulus m (m < 2^254, as for both BN254 primes).
template <class F>
struct Radix52Modulus {
  static constexpr U256 kM = F::kModulus;
  static constexpr U256 times(uint64_t k) {
    U256 r{};
    for (uint64_t i = 0; i < k; ++i) add_carry(r, r, kM);
    return r;
  }
  static constexpr auto limbs_of(const U256& x) {
    struct L {
      uint64_t v[5];
    } l{};
    to_radix52(x, l.v);
    return l;
  }
  static constexpr auto kP1 = limbs_of(times(1));
  static constexpr auto kP2 = limbs_of(times(2));
  static constexpr auto kP3 = limbs_of(times(3));
  // -m^-1 mod 2^52: the low 52 bits of the field's -m^-1 mod 2^64.
  static constexpr uint64_t kInv52 = F::kInv64 & kMask52;
  // 2^260 mod m: one in the 2^260-scaled form.
  static constexpr auto kOne260 = limbs_of(field_detail::shl_mod_slow(U256::from_u64(1), 260, kM));
  static_assert(kM.w[3] < (uint64_t(1) << 62), "needs m < 2^254");
};

// Eight lanes of one field element: l[i] holds limb i of every lane.
struct Fe8 {
  __m512i l[5];
};

ENYGMA_IFMA_INLINE __m512i splat(uint64_t x) {
  return _mm512_set1_epi64((long long)x);
}

// Lane-wise shifts by a constant through GCC/clang vector extensions: GCC 12's
// _mm512_s*li_epi64 and unmasked gathers start from _mm512_undefined_epi32() and draw false
// -Wmaybe-uninitialized warnings at every inlined use. Same instructions.
typedef unsigned long long U64x8 __attribute__((vector_size(64)));
typedef long long I64x8 __attribute__((vector_size(64)));
ENYGMA_IFMA_INLINE __m512i shl(__m512i a, int n) {
  return __m512i(U64x8(a) << n);
}
ENYGMA_IFMA_INLINE __m512i shr(__m512i a, int n) {
  return __m512i(U64x8(a) >> n);
}
ENYGMA_IFMA_INLINE __m512i sar(__m512i a, int n) {
  return __m512i(I64x8(a) >> n);
}

// Carry-propagates limbs that may exceed 52 bits (or be negative: arithmetic shifts), so that
// every limb but the top one is in [0, 2^52). The value must be non-negative.
ENYGMA_IFMA_INLINE void normalize(Fe8& a) {
  const __m512i mask = splat(kMask52);
  for (int i = 0; i < 4; ++i) {
    a.l[i + 1] = _mm512_add_epi64(a.l[i + 1], sar(a.l[i], 52));
    a.l[i] = _mm512_and_si512(a.l[i], mask);
  }
}

// sum_k a[k] * b[k] * 2^-260 mod m for K products reduced once (Montgomery, one 52-bit digit
// per step), below sum_k a[k]*b[k] / 2^260 + m. Limbs of every a[k] and b[k] below 2^52. Each
// accumulator column takes at most 2K + 2 terms below 2^52 per step and lives five steps, so it
// stays far below 2^64 for K <= 4.
template <class F, int K>
ENYGMA_IFMA_INLINE Fe8 mul_sum(const Fe8* a, const Fe8* b) {
  static_assert(K >= 1 && K <= 4);
  using M = Radix52Modulus<F>;
  const __m512i zero = _mm512_setzero_si512();
  const __m512i inv = splat(M::kInv52);
  __m512i p[5];
  for (int i = 0; i < 5; ++i) p[i] = splat(M::kP1.v[i]);
  __m512i t0 = zero, t1 = zero, t2 = zero, t3 = zero, t4 = zero, t5 = zero;
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i) {
#pragma GCC unroll 4
    for (int k = 0; k < K; ++k) {
      const Fe8& x = a[k];
      const __m512i bi = b[k].l[i];
      t0 = _mm512_madd52lo_epu64(t0, x.l[0], bi);
      t1 = _mm512_madd52lo_epu64(t1, x.l[1], bi);
      t2 = _mm512_madd52lo_epu64(t2, x.l[2], bi);
      t3 = _mm512_madd52lo_epu64(t3, x.l[3], bi);
      t4 = _mm512_madd52lo_epu64(t4, x.l[4], bi);
      t1 = _mm512_madd52hi_epu64(t1, x.l[0], bi);
      t2 = _mm512_madd52hi_epu64(t2, x.l[1], bi);
      t3 = _mm512_madd52hi_epu64(t3, x.l[2], bi);
      t4 = _mm512_madd52hi_epu64(t4, x.l[3], bi);
      t5 = _mm512_madd52hi_epu64(t5, x.l[4], bi);
    }
    const __m512i q = _mm512_madd52lo_epu64(zero, t0, inv);  // t0 * (-1/m) mod 2^52
    t0 = _mm512_madd52lo_epu64(t0, q, p[0]);                 // now t0 = 0 mod 2^52
    t1 = _mm512_madd52lo_epu64(t1, q, p[1]);
    t2 = _mm512_madd52lo_epu64(t2, q, p[2]);
    t3 = _mm512_madd52lo_epu64(t3, q, p[3]);
    t4 = _mm512_madd52lo_epu64(t4, q, p[4]);
    t1 = _mm512_madd52hi_epu64(t1, q, p[0]);
    t2 = _mm512_madd52hi_epu64(t2, q, p[1]);
    t3 = _mm512_madd52hi_epu64(t3, q, p[2]);
    t4 = _mm512_madd52hi_epu64(t4, q, p[3]);
    t5 = _mm512_madd52hi_epu64(t5, q, p[4]);
    // Divide by 2^52: drop the (zero) low digit, keep its carry.
    t0 = _mm512_add_epi64(t1, shr(t0, 52));
    t1 = t2;
    t2 = t3;
    t3 = t4;
    t4 = t5;
    t5 = zero;
  }
  Fe8 r{{t0, t1, t2, t3, t4}};
  normalize(r);
  return r;
}

// a * b * 2^-260 mod m, below a*b/2^260 + m. Limbs of a and b below 2^52.
template <class F>
ENYGMA_IFMA_INLINE Fe8 mul(const Fe8& a, const Fe8& b) {
  return mul_sum<F, 1>(&a, &b);
}

// a + b (limb-wise, normalized; no reduction).
ENYGMA_IFMA_INLINE Fe8 add(const Fe8& a, const Fe8& b) {
  Fe8 r;
  for (int i = 0; i < 5; ++i) r.l[i] = _mm512_add_epi64(a.l[i], b.l[i]);
  normalize(r);
  return r;
}

// a - b + k*m for k in {1, 2, 3}: non-negative when b < a + k*m (no reduction).
template <class F, int K>
ENYGMA_IFMA_INLINE Fe8 sub(const Fe8& a, const Fe8& b) {
  using M = Radix52Modulus<F>;
  static_assert(K >= 1 && K <= 3);
  const auto& km = K == 1 ? M::kP1 : K == 2 ? M::kP2 : M::kP3;
  Fe8 r;
  for (int i = 0; i < 5; ++i) {
    r.l[i] = _mm512_add_epi64(_mm512_sub_epi64(a.l[i], b.l[i]), splat(km.v[i]));
  }
  normalize(r);
  return r;
}

// a - c where c is a constant, kept only in the lanes where it does not go negative.
ENYGMA_IFMA_INLINE Fe8 sub_if_not_below(const Fe8& a, const uint64_t c[5]) {
  Fe8 d;
  for (int i = 0; i < 5; ++i) d.l[i] = _mm512_sub_epi64(a.l[i], splat(c[i]));
  normalize(d);
  // The sign of the difference is the sign of its (arithmetically carried) top limb.
  const __mmask8 keep = _mm512_cmplt_epi64_mask(d.l[4], _mm512_setzero_si512());
  Fe8 r;
  for (int i = 0; i < 5; ++i) r.l[i] = _mm512_mask_blend_epi64(keep, d.l[i], a.l[i]);
  return r;
}

// The representative in [0, m) of a value below 4m.
template <class F>
ENYGMA_IFMA_INLINE Fe8 reduce_below_4m(const Fe8& a) {
  using M = Radix52Modulus<F>;
  return sub_if_not_below(sub_if_not_below(a, M::kP2.v), M::kP1.v);
}

// a * 2^4 (limb shift; a below 2^256 so the result fits the 260-bit limbs).
ENYGMA_IFMA_INLINE Fe8 shl4(const Fe8& a) {
  const __m512i mask = splat(kMask52);
  Fe8 r;
  r.l[0] = _mm512_and_si512(shl(a.l[0], 4), mask);
  for (int i = 1; i < 5; ++i) {
    __m512i v = _mm512_or_si512(shl(a.l[i], 4), shr(a.l[i - 1], 48));
    r.l[i] = i < 4 ? _mm512_and_si512(v, mask) : v;
  }
  return r;
}

// Repacks four 64-bit words per lane (w[j] holds word j of every lane) into 52-bit limbs.
ENYGMA_IFMA_INLINE Fe8 from_words(const __m512i w[4]) {
  const __m512i mask = splat(kMask52);
  Fe8 r;
  r.l[0] = _mm512_and_si512(w[0], mask);
  r.l[1] = _mm512_and_si512(_mm512_or_si512(shr(w[0], 52), shl(w[1], 12)), mask);
  r.l[2] = _mm512_and_si512(_mm512_or_si512(shr(w[1], 40), shl(w[2], 24)), mask);
  r.l[3] = _mm512_and_si512(_mm512_or_si512(shr(w[2], 28), shl(w[3], 36)), mask);
  r.l[4] = shr(w[3], 16);
  return r;
}

// The inverse of from_words for values below 2^256 with normalized limbs.
ENYGMA_IFMA_INLINE void to_words(const Fe8& a, __m512i w[4]) {
  w[0] = _mm512_or_si512(a.l[0], shl(a.l[1], 52));
  w[1] = _mm512_or_si512(shr(a.l[1], 12), shl(a.l[2], 40));
  w[2] = _mm512_or_si512(shr(a.l[2], 24), shl(a.l[3], 28));
  w[3] = _mm512_or_si512(shr(a.l[3], 36), shl(a.l[4], 16));
}

// The two coefficients of an Fp2 = Fp[u]/(u^2 + 1) product (a0 + a1 u)(b0 + b1 u), each a sum
// of two products reduced once: c0 = a0 b0 + (K m - a1) b1 and c1 = a0 b1 + a1 b0, unreduced
// (below the sum of the products / 2^260 + m, as mul_sum). Needs a1 <= K m; the callers bound
// the rest (core/field/ifma/fp2_lanes.cpp, core/msm/batch_affine_ifma.cpp).
template <class F, int K>
ENYGMA_IFMA_INLINE void fp2_mul_sums(const Fe8& a0, const Fe8& a1, const Fe8& b0, const Fe8& b1,
                                     Fe8& c0, Fe8& c1) {
  const Fe8 zero{};
  const Fe8 f0[2] = {a0, sub<F, K>(zero, a1)}, g0[2] = {b0, b1};
  const Fe8 f1[2] = {a0, a1}, g1[2] = {b1, b0};
  c0 = mul_sum<F, 2>(f0, g0);
  c1 = mul_sum<F, 2>(f1, g1);
}

// In place: r[j] word k <-> r[k] word j, for eight registers of eight 64-bit words (unpacks,
// then two-source permutes of 128-bit pairs, then 256-bit halves). The maskz forms: GCC 12's
// unmasked unpacks and shuffles start from _mm512_undefined_epi32() and draw false
// -Wuninitialized errors, as the shifts above would.
ENYGMA_IFMA_INLINE void transpose8x8(__m512i r[8]) {
  __m512i u[8], v[8];
  for (int i = 0; i < 8; i += 2) {
    u[i] = _mm512_maskz_unpacklo_epi64(0xFF, r[i], r[i + 1]);      // words 0,2,4,6 of rows i, i+1
    u[i + 1] = _mm512_maskz_unpackhi_epi64(0xFF, r[i], r[i + 1]);  // words 1,3,5,7
  }
  // Rows 0-3 (then 4-7) of words {0,4}, {2,6}, {1,5}, {3,7}.
  const __m512i lo = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
  const __m512i hi = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
  for (int g = 0; g < 8; g += 4) {
    v[g + 0] = _mm512_permutex2var_epi64(u[g + 0], lo, u[g + 2]);  // words 0, 4
    v[g + 1] = _mm512_permutex2var_epi64(u[g + 0], hi, u[g + 2]);  // words 2, 6
    v[g + 2] = _mm512_permutex2var_epi64(u[g + 1], lo, u[g + 3]);  // words 1, 5
    v[g + 3] = _mm512_permutex2var_epi64(u[g + 1], hi, u[g + 3]);  // words 3, 7
  }
  // 256-bit halves: rows 0-3 from v[0..3], rows 4-7 from v[4..7].
  r[0] = _mm512_maskz_shuffle_i64x2(0xFF, v[0], v[4], 0x44);
  r[4] = _mm512_maskz_shuffle_i64x2(0xFF, v[0], v[4], 0xEE);
  r[2] = _mm512_maskz_shuffle_i64x2(0xFF, v[1], v[5], 0x44);
  r[6] = _mm512_maskz_shuffle_i64x2(0xFF, v[1], v[5], 0xEE);
  r[1] = _mm512_maskz_shuffle_i64x2(0xFF, v[2], v[6], 0x44);
  r[5] = _mm512_maskz_shuffle_i64x2(0xFF, v[2], v[6], 0xEE);
  r[3] = _mm512_maskz_shuffle_i64x2(0xFF, v[3], v[7], 0x44);
  r[7] = _mm512_maskz_shuffle_i64x2(0xFF, v[3], v[7], 0xEE);
}

// Row l = the four words at lo[l] + lo_off, then the four at hi[l] + hi_off; on return r[j]
// holds word j of every row. Eight pairs of 256-bit loads and a transpose, in place of gathers
// (slow on the CPUs that have IFMA: measured).
ENYGMA_IFMA_INLINE void load_rows(const uint64_t* const lo[8], int lo_off,
                                  const uint64_t* const hi[8], int hi_off, __m512i r[8]) {
  for (int l = 0; l < 8; ++l) {
    const __m512i a = _mm512_maskz_loadu_epi64(0x0F, lo[l] + lo_off);
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hi[l] + hi_off));
    r[l] = _mm512_maskz_inserti64x4(0xFF, a, b, 1);
  }
  transpose8x8(r);
}

// The inverse: r[j] holds word j of every row; row l goes to the eight words at out[l] + off,
// for the first n rows.
ENYGMA_IFMA_INLINE void store_rows(__m512i r[8], uint64_t* const out[8], int off, unsigned n) {
  transpose8x8(r);
  for (unsigned l = 0; l < n; ++l) _mm512_storeu_si512(out[l] + off, r[l]);
}

// Two values per lane, as 52-bit limbs: the first from the four words at lo[l] + lo_off, the
// second from those at hi[l] + hi_off (load_rows); and back, as eight words at out[l] + off.
struct Fe8Pair {
  Fe8 first, second;
};
ENYGMA_IFMA_INLINE Fe8Pair load_pair(const uint64_t* const lo[8], int lo_off,
                                     const uint64_t* const hi[8], int hi_off) {
  __m512i r[8];
  load_rows(lo, lo_off, hi, hi_off, r);
  return {from_words(r), from_words(r + 4)};
}
ENYGMA_IFMA_INLINE void store_pair(const Fe8& first, const Fe8& second, uint64_t* const out[8],
                                   int off, unsigned n) {
  __m512i r[8];
  to_words(first, r);
  to_words(second, r + 4);
  store_rows(r, out, off, n);
}

}  // namespace enygma::ifma

#endif  // ENYGMA_HAVE_IFMA_KERNEL
