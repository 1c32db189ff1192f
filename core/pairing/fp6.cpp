#include "core/pairing/fp6.hpp"

#include "core/pairing/frobenius_coefficients.hpp"

namespace enygma {

// Karatsuba for cubic extensions (fp6_mul_operands, core/pairing/fp6.hpp).
Fp6 Fp6::mul(const Fp6& b) const {
  Fp2Products<6, 6> list;
  fp6_mul_operands(list, *this, b);
  Fp2 p[6];
  list.run(p);
  return fp6_mul_result(p);
}

// Chung and Hasan, "Asymmetric squaring formulae" (2007), SQR2.
Fp6 Fp6::square() const {
  const Fp2 s0 = c0.square();
  const Fp2 s1 = (c0 * c1).dbl();
  const Fp2 s2 = (c0 - c1 + c2).square();
  const Fp2 s3 = (c1 * c2).dbl();
  const Fp2 s4 = c2.square();
  return {s3.mul_by_xi() + s0, s4.mul_by_xi() + s1, s1 + s2 + s3 - s0 - s4};
}

Fp6 Fp6::mul_by_01(const Fp2& b0, const Fp2& b1) const {
  Fp2Products<5, 4> list;
  fp6_mul_by_01_operands(list, *this, b0, b1, list.keep(b0 + b1));
  Fp2 p[5];
  list.run(p);
  return fp6_mul_by_01_result(p);
}

// The inverse through the norm to Fp2 (the adjugate of the multiplication matrix): one Fp2
// inversion, 9 multiplications and squarings.
Fp6 Fp6::inverse(bool public_values) const {
  const Fp2 a = c0.square() - (c1 * c2).mul_by_xi();
  const Fp2 b = c2.square().mul_by_xi() - c0 * c1;
  const Fp2 c = c1.square() - c0 * c2;
  const Fp2 norm = c0 * a + (c2 * b + c1 * c).mul_by_xi();
  const Fp2 inv = public_values ? inverse_vartime(norm) : norm.inverse();
  return {a * inv, b * inv, c * inv};
}

// v^j = w^(2j), so coefficient j picks up gamma_k[2j].
Fp6 Fp6::frobenius_map(int k) const {
  const FrobeniusCoefficients& f = frobenius_coefficients();
  switch (k) {
    case 1:
      return {c0.conjugate(), c1.conjugate() * f.gamma1[2], c2.conjugate() * f.gamma1[4]};
    case 2:
      return {c0, c1 * f.gamma2[2], c2 * f.gamma2[4]};
    case 3:
      return {c0.conjugate(), c1.conjugate() * f.gamma3[2], c2.conjugate() * f.gamma3[4]};
    default:
      return *this;
  }
}

}  // namespace enygma
