#include "core/pairing/frobenius_coefficients.hpp"

#include "core/curve/g2_subgroup.hpp"

namespace enygma {

namespace {

FrobeniusCoefficients compute_frobenius_coefficients() {
  FrobeniusCoefficients c;
  const Fp2 g = twist_frobenius_gamma();  // xi^((p - 1) / 6), computed from xi and p
  Fp2 acc = Fp2::one();
  for (int i = 0; i < 6; ++i) {
    c.gamma1[i] = acc;
    // gamma^(p + 1) = gamma * conj(gamma): the norm, an element of Fp.
    const Fp n = (acc * acc.conjugate()).c0;
    c.gamma2[i] = n;
    c.gamma3[i] = acc * n;
    acc *= g;
  }
  return c;
}

}  // namespace

const FrobeniusCoefficients& frobenius_coefficients() {
  static const FrobeniusCoefficients c = compute_frobenius_coefficients();
  return c;
}

}  // namespace enygma
