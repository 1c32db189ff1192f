// Fp12 = Fp6[w] / (w^2 - v): the target field of the pairing (GT is its subgroup of order r).
//
// Equivalently Fp12 = Fp2[w] / (w^6 - xi): coefficient of w^i (i = 0..5) is
//   i = 0: c0.c0, 1: c1.c0, 2: c0.c1, 3: c1.c1, 4: c0.c2, 5: c1.c2.
// Sparse products with Miller-loop lines use that numbering ("034" = w^0, w^1, w^3 in the Fp6
// numbering 0: c0.c0, 1: c0.c1, 2: c0.c2, 3: c1.c0, 4: c1.c1, 5: c1.c2).
#pragma once

#include "core/field/u256.hpp"
#include "core/pairing/fp6.hpp"

namespace enygma {

struct Fp12 {
  Fp6 c0, c1;  // c0 + c1 w

  static Fp12 zero() { return {Fp6::zero(), Fp6::zero()}; }
  static Fp12 one() { return {Fp6::one(), Fp6::zero()}; }
  bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  bool is_one() const { return c0 == Fp6::one() && c1.is_zero(); }
  bool operator==(const Fp12& o) const { return c0 == o.c0 && c1 == o.c1; }
  bool operator!=(const Fp12& o) const { return !(*this == o); }

  friend Fp12 operator+(const Fp12& a, const Fp12& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend Fp12 operator-(const Fp12& a, const Fp12& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  friend Fp12 operator-(const Fp12& a) { return {-a.c0, -a.c1}; }
  friend Fp12 operator*(const Fp12& a, const Fp12& b) { return a.mul(b); }
  Fp12& operator*=(const Fp12& o) { return *this = mul(o); }

  // Karatsuba over Fp6: 3 Fp6 multiplications (18 Fp2 multiplications).
  Fp12 mul(const Fp12& b) const;
  // Complex squaring: 2 Fp6 multiplications.
  Fp12 square() const;
  // public_values: variable-time inversion allowed (see core/field/inverse_vartime.hpp).
  Fp12 inverse(bool public_values = false) const;
  // x^(p^6): the inverse of elements of the cyclotomic subgroup (norm 1 over Fp6).
  Fp12 conjugate() const { return {c0, -c1}; }
  // x^(p^k) for k in {0, 1, 2, 3}.
  Fp12 frobenius_map(int k) const;

  // Granger and Scott, "Faster squaring in the cyclotomic subgroup of sixth degree extensions"
  // (PKC 2010), section 3.2: 9 Fp2 squarings. Correct only for elements of the cyclotomic
  // subgroup (x^(p^6 + 1) = 1 and x^(p^4 - p^2 + 1) = 1), e.g. after the easy part of the final
  // exponentiation.
  Fp12 cyclotomic_square() const;

  // Multiplication by the sparse element l0 + l1 w + l3 w^3 (l0, l1, l3 in Fp2): the shape of
  // every Miller-loop line for the D-type twist. 13 Fp2 multiplications.
  Fp12 mul_by_034(const Fp2& l0, const Fp2& l1, const Fp2& l3) const;
  // this * (1 + l1 w + l3 w^3): a line scaled to leading coefficient 1 (10 Fp2 multiplications).
  Fp12 mul_by_monic_line(const Fp2& l1, const Fp2& l3) const;

  // Generic exponentiation (square and multiply; variable time in e). For tests and checks.
  Fp12 pow(const U256& e) const;
  // Exponentiation in the cyclotomic subgroup with cyclotomic squarings.
  Fp12 cyclotomic_pow(const U256& e) const;
};

}  // namespace enygma
