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

// Lanes n..7 read this zero element; their results are not stored.
alignas(64) const uint64_t kZeroFp2[8] = {};

// The n elements at p[0..n) (lanes n..7 zero) as 52-bit limbs.
ENYGMA_IFMA_INLINE Fe8Pair load_fp2(const uint64_t* const p[], unsigned n) {
  const uint64_t* rows[8];
  for (unsigned l = 0; l < 8; ++l) rows[l] = l < n ? p[l] : kZeroFp2;
  return load_pair(rows, 0, rows, 4);
}

// Canonical results (below m) to out's first n elements.
ENYGMA_IFMA_INLINE void store_fp2(uint64_t* out, unsigned n, const Fe8& c0, const Fe8& c1) {
  uint64_t* rows[8];
  for (unsigned l = 0; l < 8; ++l) rows[l] = out + 8 * l;
  store_pair(sub_if_not_below(c0, M52::kP1.v), sub_if_not_below(c1, M52::kP1.v), rows, 0, n);
}

}  // namespace

ENYGMA_IFMA_TARGET void fp2_mul_lanes(uint64_t* out, const uint64_t* const a[],
                                      const uint64_t* const b[], unsigned n) {
  const Fe8Pair x = load_fp2(a, n), y = load_fp2(b, n);
  Fe8 c0, c1;
  fp2_mul_sums<Fp, 1>(x.first, x.second, shl4(y.first), shl4(y.second), c0, c1);
  store_fp2(out, n, c0, c1);
}

ENYGMA_IFMA_TARGET void fp2_square_lanes(uint64_t* out, const uint64_t* const a[], unsigned n) {
  const Fe8Pair x = load_fp2(a, n);
  const Fe8 s = shl4(add(x.first, x.second)), d = sub<Fp, 1>(x.first, x.second);
  const Fe8 t = shl4(add(x.second, x.second));
  store_fp2(out, n, mul<Fp>(s, d), mul<Fp>(x.first, t));
}

}  // namespace enygma::ifma

#endif  // ENYGMA_HAVE_IFMA_KERNEL
