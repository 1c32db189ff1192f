#include "core/pairing/fp12.hpp"

#include "core/pairing/frobenius_coefficients.hpp"

namespace enygma {

// Karatsuba over Fp6, c0 c0' + c1 c1' v and (c0 + c1)(c0' + c1') - c0 c0' - c1 c1': its three Fp6
// products' 18 Fp2 products at once.
Fp12 Fp12::mul(const Fp12& b) const {
  const Fp6 sx = c0 + c1, sy = b.c0 + b.c1;
  Fp2Products<18, 18> list;
  fp6_mul_operands(list, c0, b.c0);
  fp6_mul_operands(list, c1, b.c1);
  fp6_mul_operands(list, sx, sy);
  Fp2 p[18];
  list.run(p);
  const Fp6 t0 = fp6_mul_result(p), t1 = fp6_mul_result(p + 6);
  return {t0 + t1.mul_by_v(), fp6_mul_result(p + 12) - t0 - t1};
}

// (a0 + a1 w)^2 = a0^2 + a1^2 v + 2 a0 a1 w, with a0^2 + a1^2 v = (a0 + a1)(a0 + a1 v) - t - t v
// for t = a0 a1: two Fp6 products, 12 Fp2 products at once.
Fp12 Fp12::square() const {
  const Fp6 sx = c0 + c1, sy = c0 + c1.mul_by_v();
  Fp2Products<12, 12> list;
  fp6_mul_operands(list, c0, c1);
  fp6_mul_operands(list, sx, sy);
  Fp2 p[12];
  list.run(p);
  const Fp6 t = fp6_mul_result(p);
  return {fp6_mul_result(p + 6) - t - t.mul_by_v(), t.dbl()};
}

// (a0 + a1 w)^-1 = (a0 - a1 w) / (a0^2 - a1^2 v).
Fp12 Fp12::inverse(bool public_values) const {
  const Fp6 inv = (c0.square() - c1.square().mul_by_v()).inverse(public_values);
  return {c0 * inv, -(c1 * inv)};
}

Fp12 Fp12::frobenius_map(int k) const {
  const FrobeniusCoefficients& f = frobenius_coefficients();
  // c0 holds w^0, w^2, w^4 and c1 holds w^1, w^3, w^5.
  switch (k) {
    case 1:
      return {{c0.c0.conjugate(), c0.c1.conjugate() * f.gamma1[2], c0.c2.conjugate() * f.gamma1[4]},
              {c1.c0.conjugate() * f.gamma1[1], c1.c1.conjugate() * f.gamma1[3],
               c1.c2.conjugate() * f.gamma1[5]}};
    case 2:
      return {{c0.c0, c0.c1 * f.gamma2[2], c0.c2 * f.gamma2[4]},
              {c1.c0 * f.gamma2[1], c1.c1 * f.gamma2[3], c1.c2 * f.gamma2[5]}};
    case 3:
      return {{c0.c0.conjugate(), c0.c1.conjugate() * f.gamma3[2], c0.c2.conjugate() * f.gamma3[4]},
              {c1.c0.conjugate() * f.gamma3[1], c1.c1.conjugate() * f.gamma3[3],
               c1.c2.conjugate() * f.gamma3[5]}};
    default:
      return *this;
  }
}

// View x as A + B w + C w^2 over Fp4 = Fp2[s], s = w^3, s^2 = xi:
//   A = z0 + z3 s, B = z1 + z4 s, C = z2 + z5 s  (z_i the coefficient of w^i).
// For x in the cyclotomic subgroup,
//   x^2 = (3 A^2 - 2 conj(A)) + (3 s C^2 + 2 conj(B)) w + (3 B^2 - 2 conj(C)) w^2,
// where conj(a + b s) = a - b s. (a + b s)^2 = (a^2 + xi b^2) + ((a + b)^2 - a^2 - b^2) s: the
// three Fp4 squares are nine Fp2 squares, made at once.
Fp12 Fp12::cyclotomic_square() const {
  const Fp2 &z0 = c0.c0, &z1 = c1.c0, &z2 = c0.c1, &z3 = c1.c1, &z4 = c0.c2, &z5 = c1.c2;
  const Fp2 s0 = z0 + z3, s1 = z1 + z4, s2 = z2 + z5;
  const Fp2* in[9] = {&z0, &z3, &s0, &z1, &z4, &s1, &z2, &z5, &s2};
  Fp2 sq[9];
  fp2_square_many(sq, in, 9);
  const auto re = [&](int k) { return sq[3 * k + 1].mul_by_xi() + sq[3 * k]; };
  const auto im = [&](int k) { return sq[3 * k + 2] - sq[3 * k] - sq[3 * k + 1]; };
  const Fp2 a_re = re(0), a_im = im(0), b_re = re(1), b_im = im(1);
  // s * C^2 = xi c_im + c_re s
  const Fp2 sc_re = im(2).mul_by_xi(), sc_im = re(2);
  Fp12 r;
  // 3t - 2z = 2(t - z) + t and 3t + 2z = 2(t + z) + t
  r.c0.c0 = (a_re - z0).dbl() + a_re;    // w^0
  r.c1.c1 = (a_im + z3).dbl() + a_im;    // w^3
  r.c1.c0 = (sc_re + z1).dbl() + sc_re;  // w^1
  r.c0.c2 = (sc_im - z4).dbl() + sc_im;  // w^4
  r.c0.c1 = (b_re - z2).dbl() + b_re;    // w^2
  r.c1.c2 = (b_im + z5).dbl() + b_im;    // w^5
  return r;
}

// x * (l0 + (l1 + l3 v) w): with x = x0 + x1 w and L = l1 + l3 v,
//   c0 = x0 l0 + x1 L v,  c1 = (x0 + x1)(l0 + L) - x0 l0 - x1 L: 13 Fp2 products at once.
Fp12 Fp12::mul_by_034(const Fp2& l0, const Fp2& l1, const Fp2& l3) const {
  const Fp6 sx = c0 + c1;
  const Fp2 sl = l0 + l1;
  Fp2Products<13, 8> list;
  fp6_mul_by_0_operands(list, c0, l0);
  fp6_mul_by_01_operands(list, c1, l1, l3, list.keep(l1 + l3));
  fp6_mul_by_01_operands(list, sx, sl, l3, list.keep(sl + l3));
  Fp2 p[13];
  list.run(p);
  const Fp6 t0 = {p[0], p[1], p[2]}, t1 = fp6_mul_by_01_result(p + 3);
  return {t0 + t1.mul_by_v(), fp6_mul_by_01_result(p + 8) - t0 - t1};
}

// x * (1 + L w) with L = l1 + l3 v: (x0 + x1 L v) + (x1 + x0 L) w, 10 Fp2 products at once.
Fp12 Fp12::mul_by_monic_line(const Fp2& l1, const Fp2& l3) const {
  Fp2Products<10, 7> list;
  const Fp2& l13 = list.keep(l1 + l3);
  fp6_mul_by_01_operands(list, c0, l1, l3, l13);
  fp6_mul_by_01_operands(list, c1, l1, l3, l13);
  Fp2 p[10];
  list.run(p);
  return {c0 + fp6_mul_by_01_result(p + 5).mul_by_v(), c1 + fp6_mul_by_01_result(p)};
}

Fp12 Fp12::pow(const U256& e) const {
  Fp12 r = one();
  for (int i = int(e.bit_length()) - 1; i >= 0; --i) {
    r = r.square();
    if (e.bit(unsigned(i))) r *= *this;
  }
  return r;
}

Fp12 Fp12::cyclotomic_pow(const U256& e) const {
  Fp12 r = one();
  for (int i = int(e.bit_length()) - 1; i >= 0; --i) {
    r = r.cyclotomic_square();
    if (e.bit(unsigned(i))) r *= *this;
  }
  return r;
}

}  // namespace enygma
