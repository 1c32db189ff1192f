// Baby Jubjub in the circuit: points as pairs of linear combinations, the complete twisted
// Edwards addition, the on-curve check, and the Montgomery form used by fixed_base.hpp.
//
// Twisted Edwards: a*x^2 + y^2 = 1 + d*x^2*y^2 (a = 168700, d = 168696). Its birationally
// equivalent Montgomery curve B*v^2 = u^3 + A*u^2 + u has A = 2(a + d)/(a - d) = 168698 and
// B = 4/(a - d) = 1; u = (1 + y)/(1 - y), v = u/x and back x = u/v, y = (u - 1)/(u + 1)
// (Bernstein, Birkner, Joye, Lange, Peters, "Twisted Edwards curves", 2008, theorem 3.2).
#pragma once

#include <string_view>

#include "core/circuit/builder.hpp"
#include "core/primitives/babyjubjub.hpp"

namespace enygma::circuit {

struct PointLc {  // twisted Edwards affine coordinates
  Lc x, y;
};
struct MontPointLc {  // Montgomery affine coordinates
  Lc u, v;
};

PointLc point_constant(const BjjPoint& p);
PointLc point_of(const Var& x, const Var& y);
BjjPoint point_value(const PointLc& p);
inline PointLc negate(const PointLc& p) {
  return {-p.x, p.y};
}

// R3: a*x^2 + y^2 == 1 + d*x^2*y^2 (3 constraints: x^2, y^2, and the equation).
void enforce_on_curve(CircuitBuilder& b, const PointLc& p, std::string_view label);

// p + q with the complete addition law (6 constraints; circomlib's BabyAdd layout):
//   beta = x1*y2, gamma = y1*x2, delta = (y1 - a*x1)*(x2 + y2), tau = beta*gamma,
//   x3*(1 + d*tau) = beta + gamma, y3*(1 - d*tau) = delta + a*beta - gamma.
// For on-curve inputs 1 +- d*tau != 0 (d is not a square), so x3, y3 are unique.
PointLc edwards_add(CircuitBuilder& b, const PointLc& p, const PointLc& q, std::string_view label);
// p + q == sum, for a given sum (6 constraints, no new coordinate wires).
void enforce_edwards_sum(CircuitBuilder& b, const PointLc& p, const PointLc& q, const PointLc& sum,
                         std::string_view label);
// p + q for a constant q (3 constraints: x1*y1, x3, y3).
PointLc edwards_add_constant(CircuitBuilder& b, const PointLc& p, const BjjPoint& q,
                             std::string_view label);

// Montgomery (u, v) -> Edwards (x, y): x*v = u, y*(u + 1) = u - 1 (2 constraints). The caller
// guarantees v != 0 and u != -1 (a point of the prime-order subgroup other than the identity).
PointLc montgomery_to_edwards(CircuitBuilder& b, const MontPointLc& m, std::string_view label);

// Native conversions (constants and witness values). edwards_to_montgomery needs x != 0 and
// y != 1: a point of the prime-order subgroup other than the identity.
struct MontPoint {
  Fr u, v;
};
MontPoint edwards_to_montgomery(const BjjPoint& p);
const Fr& montgomery_a();  // 168698

}  // namespace enygma::circuit
