#include "core/pairing/fp6.hpp"

#include "core/pairing/frobenius_coefficients.hpp"

namespace enygma {

// Devegili, O hEigeartaigh, Scott, Dahab, "Multiplication and squaring on pairing-friendly
// fields" (2006), section 4: Karatsuba for cubic extensions.
Fp6 Fp6::mul(const Fp6& b) const {
  const Fp2 t0 = c0 * b.c0, t1 = c1 * b.c1, t2 = c2 * b.c2;
  Fp6 r;
  r.c0 = ((c1 + c2) * (b.c1 + b.c2) - t1 - t2).mul_by_xi() + t0;
  r.c1 = (c0 + c1) * (b.c0 + b.c1) - t0 - t1 + t2.mul_by_xi();
  r.c2 = (c0 + c2) * (b.c0 + b.c2) - t0 - t2 + t1;
  return r;
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
  const Fp2 t0 = c0 * b0, t1 = c1 * b1;
  Fp6 r;
  r.c0 = ((c1 + c2) * b1 - t1).mul_by_xi() + t0;
  r.c1 = (c0 + c1) * (b0 + b1) - t0 - t1;
  r.c2 = (c0 + c2) * b0 - t0 + t1;
  return r;
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
