// Baby Jubjub, natively: the twisted Edwards curve a*x^2 + y^2 = 1 + d*x^2*y^2 over Fr
// (a = 168700, d = 168696) whose points the transfer relation commits to, and the Pedersen
// commitment Pedersen(v, r) = v*G + r*H of ../shared/docs/transfer-relation.md.
// (API contract; implemented in babyjubjub.cpp.)
#pragma once

#include "core/field/fr.hpp"

namespace enygma {

struct BjjPoint {
  Fr x, y;
  bool operator==(const BjjPoint& o) const { return x == o.x && y == o.y; }
  bool operator!=(const BjjPoint& o) const { return !(*this == o); }
};

namespace babyjubjub {
Fr a();
Fr d();
BjjPoint identity();                                   // (0, 1)
bool on_curve(const BjjPoint& p);
BjjPoint add(const BjjPoint& p, const BjjPoint& q);    // complete formula for on-curve points
BjjPoint negate(const BjjPoint& p);                    // (-x, y)
BjjPoint mul(const BjjPoint& p, const U256& scalar);   // scalar as an integer (any 256-bit)
const U256& subgroup_order();                          // l (251 bits)
const BjjPoint& generator_g();                         // Pedersen G
const BjjPoint& generator_h();                         // Pedersen H
// v*G + r*H with the canonical integer representatives of v and r (relation: Pedersen).
BjjPoint pedersen(const Fr& v, const Fr& r);
// The canonical integer of x reduced modulo l.
U256 mod_l(const Fr& x);
}  // namespace babyjubjub

}  // namespace enygma
