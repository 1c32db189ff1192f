#include "core/curve/g2_subgroup.hpp"

#include "core/curve/bn_parameter.hpp"
#include "core/field/fr.hpp"

namespace enygma {

namespace {

struct PsiCoefficients {
  Fp2 gamma;  // xi^((p-1)/6)
  Fp2 x;      // gamma^2 = xi^((p-1)/3)
  Fp2 y;      // gamma^3 = xi^((p-1)/2)
  Fp x2;      // xi^((p^2-1)/3) = N(gamma^2), in Fp
};

PsiCoefficients compute_psi_coefficients() {
  // (p - 1) / 6 by schoolbook division in 32-bit halves (p = 1 mod 6).
  U256 e, q;
  sub_borrow(e, Fp::kModulus, U256::from_u64(1));
  uint64_t rem = 0;
  for (int i = 3; i >= 0; --i) {
    uint64_t hi = (rem << 32) | (e.w[i] >> 32);
    uint64_t qhi = hi / 6;
    rem = hi % 6;
    uint64_t lo = (rem << 32) | (e.w[i] & 0xffffffffu);
    q.w[i] = (qhi << 32) | (lo / 6);
    rem = lo % 6;
  }
  const Fp2 xi = {Fp::from_u64(9), Fp::one()};
  PsiCoefficients c;
  c.gamma = xi.pow(q);
  c.x = c.gamma.square();
  c.y = c.x * c.gamma;
  c.x2 = (c.x * c.x.conjugate()).c0;
  return c;
}

const PsiCoefficients& psi_coefficients() {
  static const PsiCoefficients c = compute_psi_coefficients();
  return c;
}

}  // namespace

const Fp2& twist_frobenius_gamma() {
  return psi_coefficients().gamma;
}

G2Affine g2_psi(const G2Affine& q) {
  if (q.is_infinity()) return q;
  const PsiCoefficients& c = psi_coefficients();
  return {q.x.conjugate() * c.x, q.y.conjugate() * c.y};
}

// Conjugation is a field automorphism, so it can be applied to X, Y, Z separately.
G2 g2_psi(const G2& q) {
  const PsiCoefficients& c = psi_coefficients();
  return {q.X.conjugate() * c.x, q.Y.conjugate() * c.y, q.Z.conjugate()};
}

G2Affine g2_psi2(const G2Affine& q) {
  if (q.is_infinity()) return q;
  return {q.x * psi_coefficients().x2, -q.y};
}

G2 g2_mul_by_bn_x(const G2Affine& q) {
  const G2Affine neg = -q;
  G2 acc = G2::infinity();
  for (int i = kBnXNaf.length - 1; i >= 0; --i) {
    acc = acc.dbl();
    const int8_t d = kBnXNaf.digit[size_t(i)];
    if (d == 1) acc = acc.add_mixed(q);
    if (d == -1) acc = acc.add_mixed(neg);
  }
  return acc;
}

bool g2_is_in_subgroup(const G2Affine& q) {
  if (q.is_infinity()) return true;
  const G2 xq = g2_mul_by_bn_x(q);
  const G2 psi_xq = g2_psi(xq);
  const G2 lhs = xq.add_mixed(q) + psi_xq + g2_psi(psi_xq);
  const G2 rhs = g2_psi(g2_psi(g2_psi(xq.dbl())));
  return lhs == rhs;
}

bool g2_is_in_subgroup_by_order(const G2Affine& q) {
  return q.to_jacobian().mul_vartime(Fr::kModulus).is_infinity();
}

}  // namespace enygma
