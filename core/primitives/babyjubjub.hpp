// Baby Jubjub, natively: the twisted Edwards curve a*x^2 + y^2 = 1 + d*x^2*y^2 over Fr
// (a = 168700, d = 168696) whose points the transfer relation commits to, and the Pedersen
// commitment Pedersen(v, r) = v*G + r*H of ../shared/docs/transfer-relation.md.
// (API contract; implemented in babyjubjub.cpp.)
//
// a is a square and d is not, so the addition law is complete on the curve (Bernstein, Birkner,
// Joye, Lange, Peters, "Twisted Edwards curves", 2008, theorem 3.3): no special cases anywhere.
#pragma once

#include "core/field/fr.hpp"
#include "core/field/prime_field.hpp"

namespace enygma {

struct BjjPoint {
  Fr x, y;
  bool operator==(const BjjPoint& o) const { return x == o.x && y == o.y; }
  bool operator!=(const BjjPoint& o) const { return !(*this == o); }
};

// Integers modulo l, the prime order of the subgroup that G and H generate (for sums of
// scalars "mod l" and uniform sampling below l; Montgomery form like Fr).
struct BjjScalarParams {
  static constexpr U256 kModulus =
      u256_const("2736030358979909402780800718157159386076813972158567259200215660948447373041");
  static constexpr const char* kName = "Fl";
};
using BjjScalar = PrimeField<BjjScalarParams>;

namespace babyjubjub {
// The coefficients of a x^2 + y^2 = 1 + d x^2 y^2.
inline constexpr Fr kA = Fr::constant("168700");
inline constexpr Fr kD = Fr::constant("168696");
BjjPoint identity();  // (0, 1)
bool on_curve(const BjjPoint& p);
BjjPoint add(const BjjPoint& p, const BjjPoint& q);  // complete formula for on-curve points
BjjPoint negate(const BjjPoint& p);                  // (-x, y)
// scalar as an integer (any 256-bit). The same sequence of operations for every scalar (256
// doublings and additions), since scalars may be secret.
BjjPoint mul(const BjjPoint& p, const U256& scalar);
const U256& subgroup_order();   // l (251 bits)
const BjjPoint& generator_g();  // Pedersen G
const BjjPoint& generator_h();  // Pedersen H
// v*G + r*H with the canonical integer representatives of v and r (relation: Pedersen).
// Fixed sequence of operations: 128 additions of entries of fixed-base tables of G and H (4-bit
// windows, each entry picked by a scan of its window), no doubling.
BjjPoint pedersen(const Fr& v, const Fr& r);
// The canonical integer of x reduced modulo l (a fixed sequence of three conditional
// subtractions: x < p < 8l).
U256 mod_l(const Fr& x);

// ---- additions beyond the contract ----
// Any 256-bit integer reduced modulo l (fixed sequence, six conditional subtractions).
U256 mod_l(const U256& x);
// (0, -1): the point of order 2 (on the curve, outside the order-l subgroup).
BjjPoint torsion_point_order2();
// On the curve and l * p == identity.
bool in_subgroup(const BjjPoint& p);
}  // namespace babyjubjub

}  // namespace enygma
