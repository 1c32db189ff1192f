// See core/field/ifma/fp2_lanes.hpp.
//
// Layout: lane l holds element l. One Fp2 is eight words, one zmm register; an 8x8 transpose
// of 64-bit words turns the eight operands into eight registers of one word each (word j of c0
// in register j, of c1 in register 4 + j), which from_words repacks into 52-bit limbs.
//
// Scaling and bounds (m < 2^254, so 2^260 > 84m; Fe8 products as in fe8.hpp: sum a*b/2^260 + m).
// Inputs are x*R mod m for R = 2^256, below m. A lane product is a*b*2^-260, so one factor of
// each product is multiplied by 16 first (shl4) and the result is x*y*R again.
// - Product: c0 = a0 b0 + (m - a1) b1 and c1 = a0 b1 + a1 b0, each a sum of two products
//   reduced once (mul_sum), with b0, b1 times 16 below 16m: each sum is below 2 * 16 m^2, so
//   the result is below 32m^2/2^260 + m < 1.38m, and one conditional subtraction of m makes it
//   canonical.
// - Square: c0 = (a0 + a1)(a0 - a1 + m) with the first factor times 16 (below 32m), below
//   64m^2/2^260 + m < 1.76m; c1 = a0 (2 a1) with the second factor times 16 (below 32m), below
//   1.38m. One conditional subtraction each.
#include "core/field/ifma/fp2_lanes.hpp"

#if defined(ENYGMA_HAVE_IFMA_KERNEL)

#include "core/field/fp.hpp"
#include "core/field/ifma/fe8.hpp"

namespace enygma::ifma {

namespace {

using M52 = Radix52Modulus<Fp>;

struct Fp2x8 {
  Fe8 c0, c1;
};

// The n operands (lanes n..7 zero) as 52-bit limbs.
ENYGMA_IFMA_INLINE Fp2x8 load_fp2x8(const uint64_t* const p[], unsigned n) {
  __m512i r[8];
  for (unsigned l = 0; l < 8; ++l) {
    r[l] = l < n ? _mm512_loadu_si512(p[l]) : _mm512_setzero_si512();
  }
  transpose8x8(r);
  return {from_words(r), from_words(r + 4)};
}

// Canonical results (below m) to the first n outputs.
ENYGMA_IFMA_INLINE void store_fp2x8(uint64_t* p, unsigned n, const Fp2x8& x) {
  __m512i r[8];
  to_words(x.c0, r);
  to_words(x.c1, r + 4);
  transpose8x8(r);
  for (unsigned l = 0; l < n; ++l) _mm512_storeu_si512(p + 8 * l, r[l]);
}

}  // namespace

ENYGMA_IFMA_TARGET void fp2_mul_lanes(uint64_t* out, const uint64_t* const a[],
                                      const uint64_t* const b[], unsigned n) {
  const Fp2x8 x = load_fp2x8(a, n), y = load_fp2x8(b, n);
  const Fe8 zero{};
  const Fe8 y0 = shl4(y.c0), y1 = shl4(y.c1);
  const Fe8 f0[2] = {x.c0, sub<Fp, 1>(zero, x.c1)}, g0[2] = {y0, y1};
  const Fe8 f1[2] = {x.c0, x.c1}, g1[2] = {y1, y0};
  const Fp2x8 r = {sub_if_not_below(mul_sum<Fp, 2>(f0, g0), M52::kP1.v),
                   sub_if_not_below(mul_sum<Fp, 2>(f1, g1), M52::kP1.v)};
  store_fp2x8(out, n, r);
}

ENYGMA_IFMA_TARGET void fp2_square_lanes(uint64_t* out, const uint64_t* const a[], unsigned n) {
  const Fp2x8 x = load_fp2x8(a, n);
  const Fe8 s = shl4(add(x.c0, x.c1)), d = sub<Fp, 1>(x.c0, x.c1);
  const Fe8 t = shl4(add(x.c1, x.c1));
  const Fp2x8 r = {sub_if_not_below(mul<Fp>(s, d), M52::kP1.v),
                   sub_if_not_below(mul<Fp>(x.c0, t), M52::kP1.v)};
  store_fp2x8(out, n, r);
}

}  // namespace enygma::ifma

#endif  // ENYGMA_HAVE_IFMA_KERNEL
