// The GLV endomorphism of BN254 (Gallant, Lambert, Vanstone, "Faster point multiplication on
// elliptic curves with efficient endomorphisms", CRYPTO 2001) for the MSM.
//
// Both curves have j = 0, so (x, y) -> (beta x, y) with beta a cube root of unity in Fp is an
// endomorphism; on the order-r subgroups it is multiplication by lambda, a cube root of unity
// mod r: phi(P) = [lambda] P. G1 (cofactor 1) takes beta_1; on the twist, G2's points take the
// other cube root (beta_1^2). A scalar k < r is split as k = k1 + k2 lambda (mod r) with
// |k1|, |k2| < 2^128 by Babai rounding against the short basis v1 = (a1, b1), v2 = (a2, b2) of
// the lattice {(u, v): u + v lambda = 0 mod r}, computed by the extended Euclidean algorithm on
// (r, lambda) (the derivation of the paper, section 4; the constants are checked in msm_test):
//   c1 ~ k b2 / r, c2 ~ k |b1| / r (floors of products with round(2^256 b2 / r) and
//   round(2^256 |b1| / r))
//   k1 = k - c1 a1 - c2 a2,  k2 = c1 |b1| - c2 b2.
// An MSM of m full scalars becomes one of 2m half-size scalars: the same number of bucket
// additions, but half the windows, so half the bucket reductions (and a wider window pays).
#pragma once

#include <cstdint>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/field/fp.hpp"
#include "core/field/fr.hpp"
#include "core/field/u256.hpp"

namespace enygma::msm_detail {

// lambda: phi(P) = [lambda] P on G1 and G2.
inline constexpr Fr kGlvLambda =
    Fr::constant("4407920970296243842393367215006156084916469457145843978461");
// beta with phi(x, y) = (beta x, y) on G1, and on G2 (where beta multiplies both coefficients
// of x).
inline constexpr Fp kGlvBetaG1 =
    Fp::constant("2203960485148121921418603742825762020974279258880205651966");
inline constexpr Fp kGlvBetaG2 =
    Fp::constant("21888242871839275220042445260109153167277707414472061641714758635765020556616");

// The short lattice basis and the rounding constants round(2^256 b2 / r), round(2^256 |b1| / r).
inline constexpr uint64_t kGlvA1 = 9931322734385697763ull;  // a1 = b2 = 2x + 1 (x: BN parameter)
inline constexpr U256 kGlvB1Abs = u256_const("147946756881789319000765030803803410728");  // -b1
inline constexpr U256 kGlvA2 = u256_const("147946756881789319010696353538189108491");
inline constexpr U256 kGlvG1 = u256_const("52538187511802934231");
inline constexpr U256 kGlvG2 = u256_const("782660544089080853078787955015628534158");

// k = (-1)^neg1 k1 + (-1)^neg2 k2 lambda (mod r), k1 and k2 the magnitudes (below 2^128).
struct GlvSplit {
  U256 k1, k2;
  bool neg1 = false, neg2 = false;
};

namespace glv_detail {

// 64x64 -> 128 bits: with unsigned __int128 natively; from 32-bit halves where that type is a
// library call (WebAssembly, ENYGMA_LIMB32).
inline void mul64(uint64_t a, uint64_t b, uint64_t& lo, uint64_t& hi) {
#if defined(__SIZEOF_INT128__) && !defined(ENYGMA_LIMB32)
  const unsigned __int128 p = (unsigned __int128)a * b;
  lo = uint64_t(p);
  hi = uint64_t(p >> 64);
#else
  const uint64_t a0 = uint32_t(a), a1 = a >> 32, b0 = uint32_t(b), b1 = b >> 32;
  const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const uint64_t mid = (p00 >> 32) + uint32_t(p01) + uint32_t(p10);
  lo = (mid << 32) | uint32_t(p00);
  hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

// out[0 .. NA + NB) = a * b (schoolbook on 64-bit words; fixed sizes so that it unrolls).
template <int NA, int NB>
inline void mul_words(const uint64_t* a, const uint64_t* b, uint64_t* out) {
  for (int i = 0; i < NA + NB; ++i) out[i] = 0;
  for (int i = 0; i < NA; ++i) {
    uint64_t carry = 0;
    for (int j = 0; j < NB; ++j) {
      uint64_t lo, hi;
      mul64(a[i], b[j], lo, hi);
      uint64_t s = out[i + j] + lo;
      hi += s < lo;
      s += carry;
      hi += s < carry;
      out[i + j] = s;
      carry = hi;
    }
    out[i + NB] = carry;
  }
}

// x -= y over N words (two's complement, modulo 2^(64 N)).
template <int N>
inline void sub_words(uint64_t* x, const uint64_t* y) {
  uint64_t borrow = 0;
  for (int i = 0; i < N; ++i) {
    const uint64_t d = x[i] - y[i];
    const uint64_t b1 = x[i] < y[i];
    x[i] = d - borrow;
    borrow = b1 | (d < borrow);
  }
}

// A 192-bit two's complement value (|x| < 2^191) -> magnitude and sign.
inline void to_signed(const uint64_t x[3], U256& magnitude, bool& negative) {
  negative = (x[2] >> 63) != 0;
  uint64_t m[3] = {0, 0, 0};
  if (negative) {
    sub_words<3>(m, x);
  } else {
    for (int i = 0; i < 3; ++i) m[i] = x[i];
  }
  magnitude = U256{{m[0], m[1], m[2], 0}};
}

}  // namespace glv_detail

// k canonical (below r). With c1, c2 the floors of k g1 / 2^256 and k g2 / 2^256 (c1 < 2^64,
// c2 < 2^128), k1 = k - c1 a1 - c2 a2 and k2 = c1 |b1| - c2 b2 lie within 1.25 (|v1| + |v2|)
// of zero, below 2^128: they are computed modulo 2^192.
inline GlvSplit glv_split(const U256& k) {
  using namespace glv_detail;
  const uint64_t g1[2] = {kGlvG1.w[0], kGlvG1.w[1]};
  const uint64_t g2[3] = {kGlvG2.w[0], kGlvG2.w[1], kGlvG2.w[2]};
  const uint64_t a1[1] = {kGlvA1};
  const uint64_t a2[2] = {kGlvA2.w[0], kGlvA2.w[1]};
  const uint64_t b1[2] = {kGlvB1Abs.w[0], kGlvB1Abs.w[1]};
  uint64_t p1[6], p2[7];
  mul_words<4, 2>(k.w, g1, p1);
  mul_words<4, 3>(k.w, g2, p2);
  const uint64_t c1[1] = {p1[4]};  // p1[5] = 0: k g1 < 2^320
  const uint64_t c2[2] = {p2[4], p2[5]};
  uint64_t k1[3] = {k.w[0], k.w[1], k.w[2]}, t[4], k2[3];
  mul_words<1, 1>(c1, a1, t);
  t[2] = 0;
  sub_words<3>(k1, t);
  mul_words<2, 2>(c2, a2, t);
  sub_words<3>(k1, t);
  mul_words<1, 2>(c1, b1, k2);
  mul_words<2, 1>(c2, a1, t);
  sub_words<3>(k2, t);
  GlvSplit out;
  to_signed(k1, out.k1, out.neg1);
  to_signed(k2, out.k2, out.neg2);
  return out;
}

// phi's x coordinate for each group's points.
inline Fp glv_endo_x(const Fp& x) {
  return x * kGlvBetaG1;
}
inline Fp2 glv_endo_x(const Fp2& x) {
  return Fp2{x.c0 * kGlvBetaG2, x.c1 * kGlvBetaG2};
}

}  // namespace enygma::msm_detail
