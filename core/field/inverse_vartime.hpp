// Variable-time modular inversion for PUBLIC field elements (verifier, batch-affine point
// additions, to_affine of public points). Its running time depends on the input: never use it
// on secrets (witness values, toxic waste, blinding factors); use PrimeField::inverse() there.
//
// Algorithm: Bernstein-Yang "safegcd" (D. J. Bernstein, B.-Y. Yang, "Fast constant-time gcd
// computation and modular inversion", TCHES 2019) in the variable-time form described by
// P. Wuille ("The safegcd implementation in libsecp256k1 explained", 2021): divsteps are run in
// batches of B on the low B bits of f and g only, skipping runs of zero bits of g with a
// count-trailing-zeros and cancelling up to 6 low bits of g per step; each batch yields a 2x2
// matrix (scaled by 2^B) that is then applied to the full-size f, g (exact division by 2^B)
// and to d, e (mod m, made divisible by adding a multiple of m found with m^-1 mod 2^B).
// Numbers are signed, in limbs of B bits (the top limb carries the sign).
//
// Two limb configurations of the same algorithm (kernels::kSafegcdLimbBits chooses): B = 62
// with 128-bit products (native), B = 30 with 64-bit products (WebAssembly, where 128-bit
// products are library calls; libsecp256k1's 32-bit variant has the same shape).
//
// Invariants mod m: d*x = f and e*x = g, starting from f = m, g = x, d = 0, e = 1. The loop ends
// when g = 0; then f = +-1 = gcd(m, x) and x^-1 = +-d.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/field/prime_field.hpp"

namespace enygma {

namespace safegcd_detail {

// Limb configurations: kLimbs limbs of kBits bits; batches of kBits divsteps on Word; products
// accumulated in Wide.
#if defined(__SIZEOF_INT128__)
struct Limbs62 {
  static constexpr int kBits = 62, kLimbs = 5;
  using Word = uint64_t;
  using Wide = __int128;
};
#endif
struct Limbs30 {
  static constexpr int kBits = 30, kLimbs = 9;
  using Word = uint32_t;
  using Wide = int64_t;
};

// A signed integer sum(v[i] * 2^(B i)); v[0..N-2] in [0, 2^B), v[N-1] signed.
template <class L>
struct Signed {
  int64_t v[L::kLimbs];
};

template <class L>
inline constexpr int64_t kMask = (int64_t(1) << L::kBits) - 1;

template <class L>
constexpr Signed<L> from_u256_limbs(const U256& x) {
  Signed<L> out{};
  for (int i = 0; i < L::kLimbs; ++i) {
    const int bit = L::kBits * i, word = bit / 64, off = bit % 64;
    uint64_t v = word < 4 ? x.w[word] >> off : 0;
    if (off != 0 && word + 1 < 4) v |= x.w[word + 1] << (64 - off);
    out.v[i] = i + 1 < L::kLimbs ? int64_t(v) & kMask<L> : int64_t(v);
  }
  return out;
}
// x must be in [0, 2^256) with normalized limbs.
template <class L>
inline U256 to_u256_limbs(const Signed<L>& x) {
  U256 out{};
  for (int i = 0; i < L::kLimbs; ++i) {
    const int bit = L::kBits * i, word = bit / 64, off = bit % 64;
    const uint64_t v = uint64_t(x.v[i]);
    out.w[word] |= v << off;
    if (off != 0 && word + 1 < 4) out.w[word + 1] |= v >> (64 - off);
  }
  return out;
}

// The transition matrix of B divsteps, times 2^B: [f', g'] * 2^B = [[u, v], [q, r]] * [f, g].
struct Matrix {
  int64_t u, v, q, r;
};

// Per-field constants, all derived from the modulus at compile time.
template <class F, class L>
struct Constants {
  static constexpr Signed<L> kModulus = from_u256_limbs<L>(F::kModulus);
  // m^-1 mod 2^B by Newton iteration (each step doubles the number of correct low bits).
  static constexpr int64_t kModInv = [] {
    const uint64_t m0 = F::kModulus.w[0];
    uint64_t x = 1;
    for (int i = 0; i < 6; ++i) x *= 2 - m0 * x;
    return int64_t(x) & kMask<L>;
  }();
  static_assert(((uint64_t(kModInv) * F::kModulus.w[0]) & uint64_t(kMask<L>)) == 1);
  // Inverting the Montgomery representation x = a R gives a^-1 R^-1; one Montgomery product with
  // R^3 turns it into a^-1 R, the representation of a^-1.
  static constexpr F kR3 =
      F::from_montgomery(field_detail::shl_mod_slow(U256::from_u64(1), 768, F::kModulus));
};

inline int count_trailing_zeros(uint64_t x) {
  return __builtin_ctzll(x);
}
inline int count_trailing_zeros(uint32_t x) {
  return __builtin_ctz(x);
}

// B divsteps on the low bits of f (odd) and g, variable time. eta = -delta of Bernstein-Yang.
// Returns the new eta; the matrix goes to t.
template <class L>
inline int64_t divsteps_var(int64_t eta, typename L::Word f, typename L::Word g, Matrix& t) {
  using Word = typename L::Word;
  // Invariant after s = B - i steps: f_now * 2^s = u f + v g, g_now * 2^s = q f + r g.
  int64_t u = 1, v = 0, q = 0, r = 1;
  int i = L::kBits;
  for (;;) {
    // Halve g over its run of trailing zeros (divsteps with g even); the sentinel bit stops
    // at i steps.
    const int zeros = count_trailing_zeros(Word(g | (~Word(0) << i)));
    g >>= zeros;
    u <<= zeros;
    v <<= zeros;
    eta -= zeros;
    i -= zeros;
    if (i == 0) break;
    // g is odd. delta > 0: swap, so that the step below subtracts the old f from the old g.
    if (eta < 0) {
      eta = -eta;
      const Word old_f = f;
      f = g;
      g = Word(0 - old_f);
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
    const Word f_inv = Word(f * Word(2 - f * f));
    const Word w = Word(Word(0 - g * f_inv) & Word((Word(1) << limit) - 1));
    g = Word(g + w * f);
    q += int64_t(w) * u;
    r += int64_t(w) * v;
  }
  t = Matrix{u, v, q, r};
  return eta;
}

// [f, g] = [[u, v], [q, r]] * [f, g] / 2^B (exact).
template <class L>
inline void update_fg(Signed<L>& f, Signed<L>& g, const Matrix& t) {
  using Wide = typename L::Wide;
  constexpr int N = L::kLimbs, B = L::kBits;
  Wide cf = Wide(t.u) * f.v[0] + Wide(t.v) * g.v[0];
  Wide cg = Wide(t.q) * f.v[0] + Wide(t.r) * g.v[0];
  cf >>= B;  // the low B bits are zero by construction of the matrix
  cg >>= B;
  for (int i = 1; i < N; ++i) {
    cf += Wide(t.u) * f.v[i] + Wide(t.v) * g.v[i];
    cg += Wide(t.q) * f.v[i] + Wide(t.r) * g.v[i];
    f.v[i - 1] = int64_t(cf) & kMask<L>;
    g.v[i - 1] = int64_t(cg) & kMask<L>;
    cf >>= B;
    cg >>= B;
  }
  f.v[N - 1] = int64_t(cf);
  g.v[N - 1] = int64_t(cg);
}

// [d, e] = [[u, v], [q, r]] * [d, e] / 2^B mod m, for d, e in (-2m, m); results in (-2m, m).
// Adding m to the negative inputs brings them to (-m, m), then subtracting k m with
// k in [0, 2^B) makes the low B bits zero; |u| + |v| <= 2^B bounds the result.
template <class F, class L>
inline void update_de(Signed<L>& d, Signed<L>& e, const Matrix& t) {
  using Wide = typename L::Wide;
  constexpr int N = L::kLimbs, B = L::kBits;
  constexpr const Signed<L>& m = Constants<F, L>::kModulus;
  constexpr int64_t m_inv = Constants<F, L>::kModInv;
  const int64_t d_neg = d.v[N - 1] >> 63, e_neg = e.v[N - 1] >> 63;  // all ones when negative
  int64_t md = (t.u & d_neg) + (t.v & e_neg);
  int64_t me = (t.q & d_neg) + (t.r & e_neg);
  Wide cd = Wide(t.u) * d.v[0] + Wide(t.v) * e.v[0];
  Wide ce = Wide(t.q) * d.v[0] + Wide(t.r) * e.v[0];
  // Unsigned: only the low B bits matter and signed overflow would be undefined.
  md -= int64_t((uint64_t(m_inv) * uint64_t(cd) + uint64_t(md)) & uint64_t(kMask<L>));
  me -= int64_t((uint64_t(m_inv) * uint64_t(ce) + uint64_t(me)) & uint64_t(kMask<L>));
  cd += Wide(m.v[0]) * md;
  ce += Wide(m.v[0]) * me;
  cd >>= B;
  ce >>= B;
  for (int i = 1; i < N; ++i) {
    cd += Wide(t.u) * d.v[i] + Wide(t.v) * e.v[i] + Wide(m.v[i]) * md;
    ce += Wide(t.q) * d.v[i] + Wide(t.r) * e.v[i] + Wide(m.v[i]) * me;
    d.v[i - 1] = int64_t(cd) & kMask<L>;
    e.v[i - 1] = int64_t(ce) & kMask<L>;
    cd >>= B;
    ce >>= B;
  }
  d.v[N - 1] = int64_t(cd);
  e.v[N - 1] = int64_t(ce);
}

// x = x * sign + (m if the result is negative), limbs normalized; sign is +1 or -1.
template <class F, class L>
inline void negate_if_and_add_m_if_negative(Signed<L>& x, int64_t sign) {
  constexpr int N = L::kLimbs, B = L::kBits;
  constexpr const Signed<L>& m = Constants<F, L>::kModulus;
  int64_t carry = 0;
  for (int i = 0; i < N; ++i) {
    carry += x.v[i] * sign;
    x.v[i] = i < N - 1 ? carry & kMask<L> : carry;
    carry >>= B;
  }
  const int64_t neg = x.v[N - 1] >> 63;
  carry = 0;
  for (int i = 0; i < N; ++i) {
    carry += x.v[i] + (m.v[i] & neg);
    x.v[i] = i < N - 1 ? carry & kMask<L> : carry;
    carry >>= B;
  }
}

template <class L>
inline bool is_zero(const Signed<L>& x) {
  int64_t any = 0;
  for (int i = 0; i < L::kLimbs; ++i) any |= x.v[i];
  return any == 0;
}

// a^-1 for a != 0, 0 for a == 0, in configuration L.
template <class F, class L>
F inverse(const F& a) {
  constexpr int N = L::kLimbs;
  if (a.is_zero()) return F::zero();
  Signed<L> f = Constants<F, L>::kModulus;
  Signed<L> g = from_u256_limbs<L>(a.montgomery());  // x = a R, the integer inverted
  Signed<L> d{}, e{};
  e.v[0] = 1;
  int64_t eta = -1;
  do {
    Matrix t;
    eta = divsteps_var<L>(eta, typename L::Word(f.v[0]), typename L::Word(g.v[0]), t);
    update_de<F>(d, e, t);
    update_fg(f, g, t);
  } while (!is_zero(g));
  // f = +-1 and d in (-2m, m): x^-1 = f d, brought to [0, m) in two signed corrections.
  const int64_t f_sign = f.v[N - 1] < 0 ? -1 : 1;
  negate_if_and_add_m_if_negative<F>(d, 1);        // (-2m, m) -> (-m, m)
  negate_if_and_add_m_if_negative<F>(d, f_sign);   // f d in (-m, m) -> [0, m)
  F x_inv = F::from_montgomery(to_u256_limbs(d));  // a^-1 R^-1 as an integer below m
  return x_inv * Constants<F, L>::kR3;
}

#if defined(__SIZEOF_INT128__)
// The 62-bit configuration under its own names (tests reach into it).
using Signed62 = Signed<Limbs62>;
inline constexpr int64_t kMask62 = kMask<Limbs62>;
constexpr Signed62 from_u256(const U256& x) {
  return from_u256_limbs<Limbs62>(x);
}
inline U256 to_u256(const Signed62& x) {
  return to_u256_limbs(x);
}
inline int64_t divsteps_62_var(int64_t eta, uint64_t f, uint64_t g, Matrix& t) {
  return divsteps_var<Limbs62>(eta, f, g, t);
}
#endif

#if defined(__SIZEOF_INT128__)
using DefaultLimbs = std::conditional_t<kernels::kSafegcdLimbBits == 62, Limbs62, Limbs30>;
#else
using DefaultLimbs = Limbs30;
#endif

}  // namespace safegcd_detail

// a^-1 for a != 0, 0 for a == 0 (like F::inverse()). Variable time: public inputs only.
template <class F>
F inverse_vartime(const F& a) {
  return safegcd_detail::inverse<F, safegcd_detail::DefaultLimbs>(a);
}

}  // namespace enygma
