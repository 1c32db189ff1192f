// Fp6 = Fp2[v] / (v^3 - xi), xi = 9 + u: the middle of the pairing tower.
#pragma once

#include "core/curve/fp2.hpp"

namespace enygma {

struct Fp6 {
  Fp2 c0, c1, c2;  // c0 + c1 v + c2 v^2

  static Fp6 zero() { return {Fp2::zero(), Fp2::zero(), Fp2::zero()}; }
  static Fp6 one() { return {Fp2::one(), Fp2::zero(), Fp2::zero()}; }
  bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  bool operator==(const Fp6& o) const { return c0 == o.c0 && c1 == o.c1 && c2 == o.c2; }
  bool operator!=(const Fp6& o) const { return !(*this == o); }

  friend Fp6 operator+(const Fp6& a, const Fp6& b) {
    return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2};
  }
  friend Fp6 operator-(const Fp6& a, const Fp6& b) {
    return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2};
  }
  friend Fp6 operator-(const Fp6& a) { return {-a.c0, -a.c1, -a.c2}; }
  friend Fp6 operator*(const Fp6& a, const Fp6& b) { return a.mul(b); }
  friend Fp6 operator*(const Fp6& a, const Fp2& s) { return {a.c0 * s, a.c1 * s, a.c2 * s}; }
  Fp6& operator+=(const Fp6& o) { return *this = *this + o; }
  Fp6& operator-=(const Fp6& o) { return *this = *this - o; }
  Fp6& operator*=(const Fp6& o) { return *this = mul(o); }
  Fp6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }

  // Karatsuba-style interpolation: 6 Fp2 multiplications.
  Fp6 mul(const Fp6& b) const;
  // Chung-Hasan SQR2: 2 Fp2 multiplications and 3 squarings.
  Fp6 square() const;
  // public_values: variable-time inversion allowed (see core/field/inverse_vartime.hpp).
  Fp6 inverse(bool public_values = false) const;
  // Multiplication by v: (c0, c1, c2) v = (xi c2, c0, c1).
  Fp6 mul_by_v() const { return {c2.mul_by_xi(), c0, c1}; }
  // Multiplication by b0 + b1 v (sparse): 5 Fp2 multiplications.
  Fp6 mul_by_01(const Fp2& b0, const Fp2& b1) const;
  // Multiplication by b1 v: 3 Fp2 multiplications.
  Fp6 mul_by_1(const Fp2& b1) const { return {(c2 * b1).mul_by_xi(), c0 * b1, c1 * b1}; }
  // x^(p^k) for k = 1, 2, 3.
  Fp6 frobenius_map(int k) const;
};

// The products above as independent Fp2 products: their operands added to a list of products
// (Fp2Products, core/curve/fp2.hpp), and the interpolation of the results p[i], so that Fp12
// arithmetic can make all its Fp2 products at once. The list holds the operands' addresses:
// x and y must outlive its run().
//
// x * y, Karatsuba (Devegili, O hEigeartaigh, Scott, Dahab, "Multiplication and squaring on
// pairing-friendly fields", 2006, section 4): six products, six sums.
template <class List>
void fp6_mul_operands(List& list, const Fp6& x, const Fp6& y) {
  list.add(x.c0, y.c0);
  list.add(x.c1, y.c1);
  list.add(x.c2, y.c2);
  list.add(list.keep(x.c1 + x.c2), list.keep(y.c1 + y.c2));
  list.add(list.keep(x.c0 + x.c1), list.keep(y.c0 + y.c1));
  list.add(list.keep(x.c0 + x.c2), list.keep(y.c0 + y.c2));
}
inline Fp6 fp6_mul_result(const Fp2 p[6]) {
  return {(p[3] - p[1] - p[2]).mul_by_xi() + p[0], p[4] - p[0] - p[1] + p[2].mul_by_xi(),
          p[5] - p[0] - p[2] + p[1]};
}
// x * (y0 + y1 v) with y01 = y0 + y1 (made once by callers that multiply twice by the same
// y): five products, three sums.
template <class List>
void fp6_mul_by_01_operands(List& list, const Fp6& x, const Fp2& y0, const Fp2& y1,
                            const Fp2& y01) {
  list.add(x.c0, y0);
  list.add(x.c1, y1);
  list.add(list.keep(x.c1 + x.c2), y1);
  list.add(list.keep(x.c0 + x.c1), y01);
  list.add(list.keep(x.c0 + x.c2), y0);
}
inline Fp6 fp6_mul_by_01_result(const Fp2 p[5]) {
  return {(p[2] - p[1]).mul_by_xi() + p[0], p[3] - p[0] - p[1], p[4] - p[0] + p[1]};
}
// x * y0 for y0 in Fp2: three products.
template <class List>
void fp6_mul_by_0_operands(List& list, const Fp6& x, const Fp2& y0) {
  list.add(x.c0, y0);
  list.add(x.c1, y0);
  list.add(x.c2, y0);
}

}  // namespace enygma
