// Prime fields in Montgomery form (R = 2^256), generic over the modulus. Fp and Fr of BN254 are
// instances (core/field/fp.hpp, core/field/fr.hpp). Every constant is derived from the modulus
// at compile time; nothing here is typed by hand.
//
// The arithmetic runs on the kernels of core/field/kernels.hpp, which chooses the backend
// (portable 64-bit, 29-bit limbs for WebAssembly, ADX); all compute the same function on the
// same in-memory layout (four little-endian 64-bit words).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/field/kernels.hpp"
#include "core/field/u256.hpp"

namespace enygma {

namespace field_detail {

// x + y mod m for x, y < m (constexpr, slow; for compile-time constants only).
constexpr U256 add_mod_slow(const U256& x, const U256& y, const U256& m) {
  U256 s;
  uint64_t carry = add_carry(s, x, y);
  if (carry || cmp(s, m) >= 0) sub_borrow(s, s, m);
  return s;
}

// x * 2^k mod m by repeated doubling (constexpr, slow; compile-time constants only).
constexpr U256 shl_mod_slow(U256 x, unsigned k, const U256& m) {
  while (cmp(x, m) >= 0) sub_borrow(x, x, m);
  for (unsigned i = 0; i < k; ++i) x = add_mod_slow(x, x, m);
  return x;
}

// -m^-1 mod 2^64 by Newton iteration (each step doubles the correct low bits).
constexpr uint64_t neg_inv64(uint64_t m0) {
  uint64_t x = 1;
  for (int i = 0; i < 7; ++i) x *= 2 - m0 * x;
  return 0 - x;
}

}  // namespace field_detail

// P provides: static constexpr U256 kModulus (odd, top word below 2^62); static constexpr const
// char* kName.
template <class P>
struct PrimeField {
  uint64_t limbs[4];  // Montgomery form a*R mod m, always fully reduced (< m)

  static constexpr U256 kModulus = P::kModulus;
  static constexpr uint64_t kInv64 = field_detail::neg_inv64(kModulus.w[0]);
  static constexpr uint32_t kInv32 = uint32_t(kInv64);
  static constexpr U256 kR = field_detail::shl_mod_slow(U256::from_u64(1), 256, kModulus);
  static constexpr U256 kR2 = field_detail::shl_mod_slow(U256::from_u64(1), 512, kModulus);
  static constexpr U256 kR2Shl128 = field_detail::shl_mod_slow(U256::from_u64(1), 640, kModulus);
  static constexpr unsigned kBits = kModulus.bit_length();
  static_assert(kModulus.w[3] < (uint64_t(1) << 62), "no-carry Montgomery needs spare top bits");
  static_assert((kModulus.w[0] & 1) == 1, "modulus must be odd");
  static_assert(kModulus.w[3] != 0, "from_u256_reduce reads 128-bit halves as field elements");

  // ---- construction ------------------------------------------------------------------------
  static constexpr PrimeField from_montgomery(const U256& x) {
    return PrimeField{{x.w[0], x.w[1], x.w[2], x.w[3]}};
  }
  static constexpr PrimeField zero() { return PrimeField{{0, 0, 0, 0}}; }
  static constexpr PrimeField one() { return from_montgomery(kR); }
  // Compile-time constant from a decimal literal (reduced mod m).
  static consteval PrimeField constant(std::string_view dec) {
    return from_montgomery(field_detail::shl_mod_slow(u256_const(dec), 256, kModulus));
  }
  static PrimeField from_u64(uint64_t x) {
    PrimeField r{{x, 0, 0, 0}};
    return r * from_montgomery(kR2);
  }
  // Canonical integer in [0, m): the value; anything >= m is rejected.
  static std::optional<PrimeField> from_canonical(const U256& x) {
    if (cmp(x, kModulus) >= 0) return std::nullopt;
    PrimeField r{{x.w[0], x.w[1], x.w[2], x.w[3]}};
    return r * from_montgomery(kR2);
  }
  // Any 256-bit integer, reduced mod m, in constant time (secrets come through here: blinding
  // factors, toxic waste, wallet keys): x = hi * 2^128 + lo with both halves below m, and
  // hi * (2^128 R^2) is hi * 2^128 in Montgomery form.
  static PrimeField from_u256_reduce(const U256& x) {
    const PrimeField lo{{x.w[0], x.w[1], 0, 0}}, hi{{x.w[2], x.w[3], 0, 0}};
    return lo * from_montgomery(kR2) + hi * from_montgomery(kR2Shl128);
  }
  // 512-bit little-endian input reduced mod m: uniform when the bytes are (bias < 2^-250).
  static PrimeField from_wide_le_bytes(const uint8_t in[64]) {
    PrimeField lo = from_u256_reduce(u256_from_le_bytes(in));
    PrimeField hi = from_u256_reduce(u256_from_le_bytes(in + 32));
    return lo + hi * from_montgomery(kR2);  // hi * 2^256 in Montgomery terms
  }
  static std::optional<PrimeField> from_be_bytes(const uint8_t in[32]) {
    return from_canonical(u256_from_be_bytes(in));
  }
  static std::optional<PrimeField> from_decimal(std::string_view s) {
    auto v = u256_from_decimal(s);
    if (!v) return std::nullopt;
    return from_canonical(*v);
  }

  // ---- conversion out ----------------------------------------------------------------------
  U256 to_u256() const {
    PrimeField one_raw{{1, 0, 0, 0}};
    PrimeField r = *this * one_raw;
    return U256{{r.limbs[0], r.limbs[1], r.limbs[2], r.limbs[3]}};
  }
  U256 montgomery() const { return U256{{limbs[0], limbs[1], limbs[2], limbs[3]}}; }
  void to_be_bytes(uint8_t out[32]) const { u256_to_be_bytes(to_u256(), out); }
  std::string to_decimal() const { return enygma::to_decimal(to_u256()); }

  // ---- predicates --------------------------------------------------------------------------
  constexpr bool is_zero() const { return (limbs[0] | limbs[1] | limbs[2] | limbs[3]) == 0; }
  constexpr bool operator==(const PrimeField& o) const {
    return ((limbs[0] ^ o.limbs[0]) | (limbs[1] ^ o.limbs[1]) | (limbs[2] ^ o.limbs[2]) |
            (limbs[3] ^ o.limbs[3])) == 0;
  }
  constexpr bool operator!=(const PrimeField& o) const { return !(*this == o); }
  bool is_one() const { return *this == one(); }
  // Lexicographic "sign" used by point compression: value > (m-1)/2.
  bool is_lexicographically_largest() const {
    U256 half = shr1(kModulus);  // (m-1)/2 since m is odd
    return cmp(to_u256(), half) > 0;
  }

  // ---- arithmetic --------------------------------------------------------------------------
  friend inline ENYGMA_FIELD_OP PrimeField operator+(const PrimeField& a, const PrimeField& b) {
    PrimeField r;
    kernels::add<PrimeField>(r.limbs, a.limbs, b.limbs);
    return r;
  }
  friend inline ENYGMA_FIELD_OP PrimeField operator-(const PrimeField& a, const PrimeField& b) {
    PrimeField r;
    kernels::sub<PrimeField>(r.limbs, a.limbs, b.limbs);
    return r;
  }
  friend inline ENYGMA_FIELD_OP PrimeField operator-(const PrimeField& a) { return zero() - a; }
  // r may alias a or b (every kernel allows it).
  static inline __attribute__((always_inline)) void mul_into(uint64_t r[4], const uint64_t a[4],
                                                             const uint64_t b[4]) {
    kernels::mul<PrimeField>(r, a, b);
  }
  friend inline __attribute__((always_inline)) PrimeField operator*(const PrimeField& a,
                                                                    const PrimeField& b) {
    PrimeField r;
    mul_into(r.limbs, a.limbs, b.limbs);
    return r;
  }
  PrimeField& operator+=(const PrimeField& o) { return *this = *this + o; }
  PrimeField& operator-=(const PrimeField& o) { return *this = *this - o; }
  // In place: the kernel writes this element's words directly. Through operator* the result
  // goes to a temporary that GCC then copies, so the chains below (inverse, pow) use this form.
  __attribute__((always_inline)) PrimeField& operator*=(const PrimeField& o) {
    mul_into(limbs, limbs, o.limbs);
    return *this;
  }
  __attribute__((always_inline)) PrimeField square() const {
    PrimeField r;
    kernels::square<PrimeField>(r.limbs, limbs);
    return r;
  }
  __attribute__((always_inline)) void square_in_place() {
    kernels::square<PrimeField>(limbs, limbs);
  }
  ENYGMA_FIELD_OP PrimeField dbl() const { return *this + *this; }

  // a K, a K + b and a K - b for a small constant K (1..16; 1..15 with b), cheaper than
  // doublings and additions: one reduction.
  template <unsigned K>
  ENYGMA_FIELD_OP PrimeField mul_small() const {
    PrimeField r;
    kernels::mul_small<PrimeField, K, 0>(r.limbs, limbs, limbs);
    return r;
  }
  template <unsigned K>
  ENYGMA_FIELD_OP PrimeField mul_small_plus(const PrimeField& b) const {
    PrimeField r;
    kernels::mul_small<PrimeField, K, 1>(r.limbs, limbs, b.limbs);
    return r;
  }
  template <unsigned K>
  ENYGMA_FIELD_OP PrimeField mul_small_minus(const PrimeField& b) const {
    PrimeField r;
    kernels::mul_small<PrimeField, K, -1>(r.limbs, limbs, b.limbs);
    return r;
  }

  // a^e; variable time in e only (e is public everywhere it is used).
  PrimeField pow(const U256& e) const {
    PrimeField r = one();
    for (int i = int(e.bit_length()) - 1; i >= 0; --i) {
      r.square_in_place();
      if (e.bit(unsigned(i))) r *= *this;
    }
    return r;
  }
  // a^-1 by Fermat (a^(m-2)); constant time in a (the exponent is fixed). inverse(0) = 0.
  // Fixed 4-bit windows: 14 multiplications for the table, then 4 squarings and at most one
  // multiplication per nibble: ~330 multiplications instead of the ~380 of pow() (the MSM does
  // one inversion per batch of additions).
  PrimeField inverse() const {
    U256 e;
    sub_borrow(e, kModulus, U256::from_u64(2));
    PrimeField table[16];
    table[0] = one();
    table[1] = *this;
    for (int i = 2; i < 16; ++i) table[i] = table[i - 1] * *this;
    const int top = int((e.bit_length() + 3) / 4) - 1;
    PrimeField r = table[e.bits(unsigned(4 * top), 4)];
    for (int i = top - 1; i >= 0; --i) {
      for (int k = 0; k < 4; ++k) r.square_in_place();
      const uint32_t nibble = e.bits(unsigned(4 * i), 4);
      if (nibble) r *= table[nibble];  // branches on the public exponent only
    }
    return r;
  }
  // Square root if one exists (Tonelli-Shanks; for m = 3 mod 4 a single exponentiation).
  std::optional<PrimeField> sqrt() const;
  // Legendre symbol: 0, 1 (square) or -1 (non-square).
  int legendre() const {
    if (is_zero()) return 0;
    return pow(kHalfOrder) == one() ? 1 : -1;
  }

  // (m - 1) / 2 and the Tonelli-Shanks decomposition m - 1 = 2^s * t.
  static constexpr U256 kHalfOrder = shr1(kModulus);
  static constexpr unsigned kTwoAdicity = [] {
    U256 t = kModulus;
    t.w[0] -= 1;
    unsigned s = 0;
    while (!t.bit(0)) {
      t = shr1(t);
      ++s;
    }
    return s;
  }();
};

template <class P>
std::optional<PrimeField<P>> PrimeField<P>::sqrt() const {
  using F = PrimeField<P>;
  if (is_zero()) return zero();
  // m - 1 = 2^s * t, t odd
  U256 t = kModulus;
  t.w[0] -= 1;
  for (unsigned i = 0; i < kTwoAdicity; ++i) t = shr1(t);
  U256 t1;  // (t + 1) / 2
  add_carry(t1, t, U256::from_u64(1));
  t1 = shr1(t1);
  F x = pow(t1);
  if constexpr (kTwoAdicity == 1) {  // m = 3 mod 4: x = a^((m+1)/4)
    if (x.square() == *this) return x;
    return std::nullopt;
  } else {
    // c = z^t for the smallest non-residue z, computed once.
    static const F c0 = [&] {
      F z = from_u64(2);
      while (z.legendre() != -1) z += one();
      return z.pow(t);
    }();
    F c = c0;
    F b = pow(t);
    unsigned m = kTwoAdicity;
    while (!(b == one())) {
      unsigned i = 0;  // least i with b^(2^i) == 1
      F b2 = b;
      while (!(b2 == one())) {
        b2 = b2.square();
        ++i;
        if (i == m) return std::nullopt;  // not a square
      }
      F w = c;
      for (unsigned j = 0; j + i + 1 < m; ++j) w = w.square();
      x *= w;
      c = w.square();
      b *= c;
      m = i;
    }
    if (!(x.square() == *this)) return std::nullopt;
    return x;
  }
}

}  // namespace enygma
