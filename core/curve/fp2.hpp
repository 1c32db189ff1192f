// Fp2 = Fp[u] / (u^2 + 1): coordinates of G2 and the bottom of the pairing tower
// (Fp6 = Fp2[v] / (v^3 - xi) with xi = 9 + u, Fp12 = Fp6[w] / (w^2 - v): core/pairing/).
#pragma once

#include <cassert>
#include <optional>

#include "core/field/fp.hpp"
#include "core/field/inverse_vartime.hpp"
#include "core/field/kernels.hpp"

namespace enygma {

struct Fp2 {
  Fp c0, c1;  // c0 + c1*u

  static constexpr Fp2 zero() { return {Fp::zero(), Fp::zero()}; }
  static constexpr Fp2 one() { return {Fp::one(), Fp::zero()}; }
  bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  bool operator==(const Fp2& o) const { return c0 == o.c0 && c1 == o.c1; }
  bool operator!=(const Fp2& o) const { return !(*this == o); }

  friend ENYGMA_FIELD_OP Fp2 operator+(const Fp2& a, const Fp2& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  friend ENYGMA_FIELD_OP Fp2 operator-(const Fp2& a, const Fp2& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  friend ENYGMA_FIELD_OP Fp2 operator-(const Fp2& a) { return {-a.c0, -a.c1}; }
  // The field kernels' Fp2 product (core/field/kernels.hpp): Karatsuba, with lazy reduction
  // where the backend has it.
  friend Fp2 operator*(const Fp2& a, const Fp2& b) {
    Fp2 r;
    kernels::fp2_mul<Fp>(r.c0.limbs, r.c1.limbs, a.c0.limbs, a.c1.limbs, b.c0.limbs, b.c1.limbs);
    return r;
  }
  // Karatsuba on Fp operations (3 multiplications): the reference for tests and benchmarks.
  static Fp2 mul_karatsuba(const Fp2& a, const Fp2& b) {
    Fp t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
    Fp t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
    return {t0 - t1, t2 - t0 - t1};
  }
  friend Fp2 operator*(const Fp2& a, const Fp& s) { return {a.c0 * s, a.c1 * s}; }
  Fp2& operator+=(const Fp2& o) { return *this = *this + o; }
  Fp2& operator-=(const Fp2& o) { return *this = *this - o; }
  Fp2& operator*=(const Fp2& o) { return *this = *this * o; }
  // (a + bu)^2 = (a+b)(a-b) + 2ab u: 2 multiplications (the kernels' Fp2 squaring where a
  // backend has one, core/field/kernels.hpp).
  ENYGMA_FIELD_OP Fp2 square() const {
    if constexpr (kernels::kHaveFp2Square) {
      Fp2 r;
      kernels::fp2_square<Fp>(r.c0.limbs, r.c1.limbs, c0.limbs, c1.limbs);
      return r;
    } else {
      Fp ab = c0 * c1;
      return {(c0 + c1) * (c0 - c1), ab + ab};
    }
  }
  ENYGMA_FIELD_OP Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  ENYGMA_FIELD_OP Fp2 conjugate() const { return {c0, -c1}; }
  Fp norm() const { return c0.square() + c1.square(); }
  Fp2 inverse() const {
    Fp inv = norm().inverse();
    return {c0 * inv, -(c1 * inv)};
  }
  // Variable time, for public values only (core/field/inverse_vartime.hpp).
  friend Fp2 inverse_vartime(const Fp2& a) {
    Fp inv = inverse_vartime(a.norm());
    return {a.c0 * inv, -(a.c1 * inv)};
  }
  // Multiplication by xi = 9 + u (the non-residue of the sextic twist).
  ENYGMA_FIELD_OP Fp2 mul_by_xi() const {
    // (a + bu)(9 + u) = 9a - b + (a + 9b)u
    return {c0.mul_small_minus<9>(c1), c1.mul_small_plus<9>(c0)};
  }
  Fp2 pow(const U256& e) const {
    Fp2 r = one();
    for (int i = int(e.bit_length()) - 1; i >= 0; --i) {
      r = r.square();
      if (e.bit(unsigned(i))) r *= *this;
    }
    return r;
  }
  // Square root in Fp2 if one exists (Adj and Rodriguez-Henriquez, "Square root computation
  // over even extension fields", Algorithm 9, for p = 3 mod 4).
  std::optional<Fp2> sqrt() const;
  // Sign for point compression: the imaginary part decides, the real part breaks a tie
  // (the convention of gnark-crypto's compressed G2 encoding).
  bool is_lexicographically_largest() const {
    if (!c1.is_zero()) return c1.is_lexicographically_largest();
    return c0.is_lexicographically_largest();
  }
};

// out[i] = *a[i] * *b[i] and out[i] = *a[i]^2 for i < n: independent products, eight at a time
// on the IFMA kernel where it runs (core/field/ifma/fp2_lanes.hpp), two at a time on the f64
// lanes where they run (WebAssembly with relaxed SIMD), else one by one, inline.
// The operands are passed by address, so that none is copied where there is no lane kernel
// (WebAssembly, other CPUs). Results are identical either way; out may be an operand's
// storage.
void fp2_mul_many_lanes(Fp2* out, const Fp2* const* a, const Fp2* const* b, size_t n);
void fp2_square_many_lanes(Fp2* out, const Fp2* const* a, size_t n);
// The same two at a time on the f64 lanes (core/curve/fp2_f64.cpp): WebAssembly's lane kernel
// in the module built with relaxed SIMD, a C++ model of it elsewhere (tests).
void fp2_mul_many_f64(Fp2* out, const Fp2* const* a, const Fp2* const* b, size_t n);
void fp2_square_many_f64(Fp2* out, const Fp2* const* a, size_t n);
inline void fp2_mul_many(Fp2* out, const Fp2* const* a, const Fp2* const* b, size_t n) {
  if (kernels::fp2_lanes_enabled()) return fp2_mul_many_lanes(out, a, b, n);
  for (size_t i = 0; i < n; ++i) out[i] = *a[i] * *b[i];
}
inline void fp2_square_many(Fp2* out, const Fp2* const* a, size_t n) {
  if (kernels::fp2_lanes_enabled()) return fp2_square_many_lanes(out, a, n);
  for (size_t i = 0; i < n; ++i) out[i] = a[i]->square();
}

// A list of exactly N independent Fp2 products a * b, by address, with room for S intermediate
// sums that the operands need (keep); run() makes them all at once (N is a constant, so the
// scalar path's loop has no branch on a count).
template <size_t N, size_t S>
class Fp2Products {
 public:
  void add(const Fp2& x, const Fp2& y) {
    assert(n_ < N);
    a_[n_] = &x;
    b_[n_] = &y;
    ++n_;
  }
  const Fp2& keep(const Fp2& v) {
    assert(s_ < S);
    sums_[s_] = v;
    return sums_[s_++];
  }
  void run(Fp2* out) const {
    assert(n_ == N);
    fp2_mul_many(out, a_, b_, N);
  }

 private:
  const Fp2* a_[N];
  const Fp2* b_[N];
  Fp2 sums_[S];
  size_t n_ = 0, s_ = 0;
};

}  // namespace enygma
