// G1 of BN254: y^2 = x^3 + 3 over Fp. Prime order r (cofactor 1), so every point on the curve
// is in the group and the on-curve check is the subgroup check.
#pragma once

#include "core/curve/short_weierstrass.hpp"
#include "core/field/fp.hpp"
#include "core/field/fr.hpp"

namespace enygma {

struct G1Params {
  static Fp b() { return Fp::constant("3"); }
  static AffinePoint<Fp, G1Params> generator() { return {Fp::constant("1"), Fp::constant("2")}; }
};
using G1Affine = AffinePoint<Fp, G1Params>;
using G1 = JacobianPoint<Fp, G1Params>;

}  // namespace enygma
