// Constants of the p-power Frobenius on the tower Fp12 = Fp2[w] / (w^6 - xi), xi = 9 + u.
// An element is sum_i z_i w^i with z_i in Fp2, and (z_i w^i)^(p^k) = z_i^(p^k) * gamma_k[i] * w^i
// with gamma_k[i] = w^(i (p^k - 1)) = xi^(i (p^k - 1) / 6) (p = 1 mod 6, so the exponent is an
// integer). The values are computed once, at first use, from xi and p alone.
#pragma once

#include "core/curve/fp2.hpp"

namespace enygma {

struct FrobeniusCoefficients {
  Fp2 gamma1[6];  // xi^(i (p - 1) / 6)
  Fp gamma2[6];   // xi^(i (p^2 - 1) / 6) = N(gamma1[i]), which lies in Fp
  Fp2 gamma3[6];  // xi^(i (p^3 - 1) / 6) = gamma1[i] * gamma2[i]
};

// Thread-safe (initialised on first call).
const FrobeniusCoefficients& frobenius_coefficients();

}  // namespace enygma
