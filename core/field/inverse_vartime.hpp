// Variable-time modular inversion for PUBLIC field elements (verifier, batch-affine point
// additions, to_affine of public points). Its running time depends on the input: never use it
// on secrets (witness values, toxic waste, blinding factors); use PrimeField::inverse() there.
//
// Algorithm: Bernstein-Yang "safegcd" (D. J. Bernstein, B.-Y. Yang, "Fast constant-time gcd
// computation and modular inversion", TCHES 2019) in the variable-time form described by
// P. Wuille ("The safegcd implementation in libsecp256k1 explained", 2021): divsteps are run in
// batches of 62 on the low 64 bits of f and g only, skipping runs of zero bits of g with a
// count-trailing-zeros and cancelling up to 6 low bits of g per step; each batch yields a 2x2
// matrix (scaled by 2^62) that is then applied to the full-size f, g (exact division by 2^62)
// and to d, e (mod m, made divisible by adding a multiple of m found with m^-1 mod 2^62).
// Numbers are signed, in five 62-bit limbs (the top limb carries the sign).
//
// Invariants mod m: d*x = f and e*x = g, starting from f = m, g = x, d = 0, e = 1. The loop ends
// when g = 0; then f = +-1 = gcd(m, x) and x^-1 = +-d.
//
// Under ENYGMA_LIMB32 (the WebAssembly build, where 128-bit products are library calls) this is
// Fermat's PrimeField::inverse(), so both builds compute the same function.
#pragma once

#include <cstdint>

#include "core/field/prime_field.hpp"

namespace enygma {

#if defined(ENYGMA_LIMB32) || !defined(__SIZEOF_INT128__)

template <class F>
F inverse_vartime(const F& a) {
  return a.inverse();
}

#else

namespace safegcd_detail {

using i128 = __int128;
constexpr int64_t kMask62 = (int64_t(1) << 62) - 1;

// A signed integer sum(v[i] * 2^(62 i)); v[0..3] in [0, 2^62), v[4] signed.
struct Signed62 {
  int64_t v[5];
};

constexpr Signed62 from_u256(const U256& x) {
  return Signed62{{int64_t(x.w[0]) & kMask62, int64_t(x.w[0] >> 62 | x.w[1] << 2) & kMask62,
                   int64_t(x.w[1] >> 60 | x.w[2] << 4) & kMask62,
                   int64_t(x.w[2] >> 58 | x.w[3] << 6) & kMask62, int64_t(x.w[3] >> 56)}};
}
// x must be in [0, 2^256) with normalized limbs.
inline U256 to_u256(const Signed62& x) {
  uint64_t v[5];
  for (int i = 0; i < 5; ++i) v[i] = uint64_t(x.v[i]);
  return U256{
      {v[0] | v[1] << 62, v[1] >> 2 | v[2] << 60, v[2] >> 4 | v[3] << 58, v[3] >> 6 | v[4] << 56}};
}

// The transition matrix of 62 divsteps, times 2^62: [f', g'] * 2^62 = [[u, v], [q, r]] * [f, g].
struct Matrix {
  int64_t u, v, q, r;
};

// Per-field constants, all derived from the modulus at compile time.
template <class F>
struct Constants {
  static constexpr Signed62 kModulus = from_u256(F::kModulus);
  // m^-1 mod 2^62 by Newton iteration (each step doubles the number of correct low bits).
  static constexpr int64_t kModInv62 = [] {
    const uint64_t m0 = F::kModulus.w[0];
    uint64_t x = 1;
    for (int i = 0; i < 6; ++i) x *= 2 - m0 * x;
    return int64_t(x) & kMask62;
  }();
  static_assert(((uint64_t(kModInv62) * F::kModulus.w[0]) & uint64_t(kMask62)) == 1);
  // Inverting the Montgomery representation x = a R gives a^-1 R^-1; one Montgomery product with
  // R^3 turns it into a^-1 R, the representation of a^-1.
  static constexpr F kR3 =
      F::from_montgomery(field_detail::shl_mod_slow(U256::from_u64(1), 768, F::kModulus));
};

// 62 divsteps on the low bits of f (odd) and g, variable time. eta = -delta of Bernstein-Yang.
// Returns the new eta; the matrix goes to t.
inline int64_t divsteps_62_var(int64_t eta, uint64_t f, uint64_t g, Matrix& t) {
  // Invariant after s = 62 - i steps: f_now * 2^s = u f + v g, g_now * 2^s = q f + r g.
  int64_t u = 1, v = 0, q = 0, r = 1;
  int i = 62;
  for (;;) {
    // Halve g over its run of trailing zeros (divsteps with g even); the sentinel bit stops
    // at i steps.
    const int zeros = __builtin_ctzll(g | (~uint64_t(0) << i));
    g >>= zeros;
    u <<= zeros;
    v <<= zeros;
    eta -= zeros;
    i -= zeros;
    if (i == 0) break;
    // g is odd. delta > 0: swap, so that the step below subtracts the old f from the old g.
    if (eta < 0) {
      eta = -eta;
      const uint64_t old_f = f;
      f = g;
      g = 0 - old_f;
      const int64_t old_u = u, old_v = v;
      u = q;
      v = r;
      q = -old_u;
      r = -old_v;
    }
    // The next eta + 1 steps cannot swap: do up to 6 of them at once by adding w f to g, with
    // w = -g / f mod 2^limit, so the low `limit` bits of g become zero. f * (2 - f f) is
    // f^-1 mod 64 (f is its own inverse mod 8; one Newton step).
    const int limit = int(eta + 1 < i ? (eta + 1 < 6 ? eta + 1 : 6) : (i < 6 ? i : 6));
    const uint64_t f_inv = f * (2 - f * f);
    const uint64_t w = (0 - g * f_inv) & ((uint64_t(1) << limit) - 1);
    g += w * f;
    q += int64_t(w) * u;
    r += int64_t(w) * v;
  }
  t = Matrix{u, v, q, r};
  return eta;
}

// [f, g] = [[u, v], [q, r]] * [f, g] / 2^62 (exact).
inline void update_fg(Signed62& f, Signed62& g, const Matrix& t) {
  i128 cf = i128(t.u) * f.v[0] + i128(t.v) * g.v[0];
  i128 cg = i128(t.q) * f.v[0] + i128(t.r) * g.v[0];
  cf >>= 62;  // the low 62 bits are zero by construction of the matrix
  cg >>= 62;
  for (int i = 1; i < 5; ++i) {
    cf += i128(t.u) * f.v[i] + i128(t.v) * g.v[i];
    cg += i128(t.q) * f.v[i] + i128(t.r) * g.v[i];
    f.v[i - 1] = int64_t(cf) & kMask62;
    g.v[i - 1] = int64_t(cg) & kMask62;
    cf >>= 62;
    cg >>= 62;
  }
  f.v[4] = int64_t(cf);
  g.v[4] = int64_t(cg);
}

// [d, e] = [[u, v], [q, r]] * [d, e] / 2^62 mod m, for d, e in (-2m, m); results in (-2m, m).
// Adding m to the negative inputs brings them to (-m, m), then subtracting k m with
// k in [0, 2^62) makes the low 62 bits zero; |u| + |v| <= 2^62 bounds the result.
template <class F>
inline void update_de(Signed62& d, Signed62& e, const Matrix& t) {
  constexpr const Signed62& m = Constants<F>::kModulus;
  constexpr int64_t m_inv = Constants<F>::kModInv62;
  const int64_t d_neg = d.v[4] >> 63, e_neg = e.v[4] >> 63;  // all ones when negative
  int64_t md = (t.u & d_neg) + (t.v & e_neg);
  int64_t me = (t.q & d_neg) + (t.r & e_neg);
  i128 cd = i128(t.u) * d.v[0] + i128(t.v) * e.v[0];
  i128 ce = i128(t.q) * d.v[0] + i128(t.r) * e.v[0];
  // Unsigned: only the low 62 bits matter and signed overflow would be undefined.
  md -= int64_t((uint64_t(m_inv) * uint64_t(cd) + uint64_t(md)) & kMask62);
  me -= int64_t((uint64_t(m_inv) * uint64_t(ce) + uint64_t(me)) & kMask62);
  cd += i128(m.v[0]) * md;
  ce += i128(m.v[0]) * me;
  cd >>= 62;
  ce >>= 62;
  for (int i = 1; i < 5; ++i) {
    cd += i128(t.u) * d.v[i] + i128(t.v) * e.v[i] + i128(m.v[i]) * md;
    ce += i128(t.q) * d.v[i] + i128(t.r) * e.v[i] + i128(m.v[i]) * me;
    d.v[i - 1] = int64_t(cd) & kMask62;
    e.v[i - 1] = int64_t(ce) & kMask62;
    cd >>= 62;
    ce >>= 62;
  }
  d.v[4] = int64_t(cd);
  e.v[4] = int64_t(ce);
}

// x = x * sign + (m if the result is negative), limbs normalized; sign is +1 or -1.
template <class F>
inline void negate_if_and_add_m_if_negative(Signed62& x, int64_t sign) {
  constexpr const Signed62& m = Constants<F>::kModulus;
  int64_t carry = 0;
  for (int i = 0; i < 5; ++i) {
    carry += x.v[i] * sign;
    x.v[i] = i < 4 ? carry & kMask62 : carry;
    carry >>= 62;
  }
  const int64_t neg = x.v[4] >> 63;
  carry = 0;
  for (int i = 0; i < 5; ++i) {
    carry += x.v[i] + (m.v[i] & neg);
    x.v[i] = i < 4 ? carry & kMask62 : carry;
    carry >>= 62;
  }
}

inline bool is_zero(const Signed62& x) {
  return (x.v[0] | x.v[1] | x.v[2] | x.v[3] | x.v[4]) == 0;
}

}  // namespace safegcd_detail

// a^-1 for a != 0, 0 for a == 0 (like F::inverse()). Variable time: public inputs only.
template <class F>
F inverse_vartime(const F& a) {
  using namespace safegcd_detail;
  if (a.is_zero()) return F::zero();
  Signed62 f = Constants<F>::kModulus;
  Signed62 g = from_u256(a.montgomery());  // x = a R, the integer inverted
  Signed62 d{{0, 0, 0, 0, 0}}, e{{1, 0, 0, 0, 0}};
  int64_t eta = -1;
  do {
    Matrix t;
    eta = divsteps_62_var(eta, uint64_t(f.v[0]), uint64_t(g.v[0]), t);
    update_de<F>(d, e, t);
    update_fg(f, g, t);
  } while (!is_zero(g));
  // f = +-1 and d in (-2m, m): x^-1 = f d, brought to [0, m) in two signed corrections.
  const int64_t f_sign = f.v[4] < 0 ? -1 : 1;
  negate_if_and_add_m_if_negative<F>(d, 1);       // (-2m, m) -> (-m, m)
  negate_if_and_add_m_if_negative<F>(d, f_sign);  // f d in (-m, m) -> [0, m)
  F x_inv = F::from_montgomery(to_u256(d));       // a^-1 R^-1 as an integer below m
  return x_inv * Constants<F>::kR3;
}

#endif

}  // namespace enygma
