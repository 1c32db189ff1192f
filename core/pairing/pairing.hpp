// The optimal ate pairing on BN254: e: G1 x G2 -> GT (the order-r subgroup of Fp12^*).
//
//   e(P, Q) = final_exponentiation(miller_loop(P, Q)),
//   miller_loop = f_{6x+2,Q}(P) * l_{[6x+2]Q, psi(Q)}(P) * l_{[6x+2]Q + psi(Q), -psi^2(Q)}(P)
//   final_exponentiation(f) = f^((p^12 - 1) / r)   (the exact exponent, not a multiple of it)
//
// so values in GT agree with other implementations that use the exact exponent (e.g. a stored
// e(alpha, beta) can be compared byte for byte). Libraries whose hard part is the
// Fuentes-Castaneda et al. chain (gnark-crypto's, "up to permutation") compute a fixed power of
// this value instead: equal for "product is 1" checks, different bytes in GT.
//
// Inputs must be valid group elements (G1 on the curve, G2 in the order-r subgroup); decode
// untrusted bytes with core/curve/point_encoding.hpp first. Pairs with an infinity point
// contribute 1 and are skipped.
#pragma once

#include <span>
#include <vector>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/pairing/fp12.hpp"

namespace enygma {

// One Miller-loop line with its dependence on the G1 point P = (xP, yP) factored out: the line
// evaluated at P is (a yP) + (b xP) w + c w^3, a sparse Fp12 element.
struct LineCoefficients {
  Fp2 a, b, c;
};

// The lines of the Miller loop of a fixed G2 point, in loop order (for a verifying key's
// gamma, delta and beta: computed once, reused by every verification).
struct G2Prepared {
  std::vector<LineCoefficients> lines;  // empty for the point at infinity
  // Every line divided by its a (so a == 1): see prepare_g2_monic.
  bool monic = false;
  bool is_infinity() const { return lines.empty(); }
};

G2Prepared prepare_g2(const G2Affine& q);
// prepare_g2 of a point of the twist curve E'(Fp2), and whether it is in G2, the order-r
// subgroup, told by the same ladder (instead of a subgroup check's own ~63 doublings). The
// ladder ends at T = [6x+2]Q + psi(Q) - psi^2(Q), and Q is in G2 exactly when T = -psi^3(Q),
// that is when phi = 6x+2 + psi - psi^2 + psi^3 maps Q to the identity:
//  - on G2, psi is multiplication by p, and 6x+2 + p - p^2 + p^3 = 0 mod r (the optimal ate
//    relation); no step of the ladder is then exceptional (its partial scalars and the two
//    Frobenius additions never meet +-T mod r), so T is computed exactly;
//  - E'(Fp2) is G2 x H with #H = h' = 2p - r prime to r, and phi keeps H; with psi^2 = t psi - p
//    (t = 6x^2 + 1), phi = a + b psi with a = 6x+2 + p - t p and b = 1 - t + t^2 - p, of degree
//    N = a^2 + t a b + p b^2; gcd(N, h') = 1 (computed), so phi is one-to-one on H, and a point
//    with a nonzero H part is not mapped to the identity;
//  - a step of the formulas that is exceptional (an addition of +-T) leaves Z = 0 in it and in
//    every later step, and an end with Z = 0 is refused: a backstop, since no point of E'(Fp2)
//    meets one (h' is odd and square-free, and the ladder's partial scalars and the Frobenius
//    additions avoid 0 and +-1 times psi's eigenvalue modulo each of its four primes: checked
//    by an independent model in review, not by a test).
// in_subgroup is true for the point at infinity (the lines are then empty, as prepare_g2's).
G2Prepared prepare_g2_checked(const G2Affine& q, bool& in_subgroup);
namespace pairing_detail {
// (x : y : z), homogeneous, equals the affine r: z != 0, r finite, x = r.x z, y = r.y z.
bool homogeneous_equals(const Fp2& x, const Fp2& y, const Fp2& z, const G2Affine& r);
}  // namespace pairing_detail
// The lines of prepare_g2, each divided by its coefficient a (one batch inversion in Fp2, once
// per point). A line is only defined up to a factor in Fp2, which the final exponentiation
// removes, so the pairing is the same; the Miller-loop value is not. The loop then divides the
// evaluated line a' yP + b' xP w + c' w^3 by yP as well and multiplies by
// 1 + (b' xP/yP) w + (c'/yP) w^3: 10 Fp2 multiplications per line instead of the 13 of a
// general sparse line, for one inversion of yP per G1 point. For fixed G2 points (a verifying
// key's gamma and delta). Falls back to plain lines if some a is zero (never for points of G2).
G2Prepared prepare_g2_monic(const G2Affine& q);

// Product of the Miller loops of the pairs (p[i], q[i]), with one shared squaring per step.
// p.size() must equal q.size(); on a mismatch the result is zero, which no final
// exponentiation maps into GT (so a check built on it fails).
Fp12 miller_loop(std::span<const G1Affine> p, std::span<const G2Affine> q);
Fp12 miller_loop(std::span<const G1Affine> p, std::span<const G2Prepared* const> q);

// f^((p^12 - 1) / r): easy part (p^6 - 1)(p^2 + 1) with one inversion and Frobenius maps, hard
// part (p^4 - p^2 + 1) / r by the vectorial addition chain of Scott, Benger, Charlemagne,
// Dominguez Perez, Kachisa, "On the final exponentiation for calculating pairings on ordinary
// elliptic curves" (Pairing 2009), with Granger-Scott cyclotomic squarings.
// Variable time in f (for public values: every pairing here is of public points).
Fp12 final_exponentiation(const Fp12& f);

Fp12 pairing(const G1Affine& p, const G2Affine& q);

// prod_i e(p[i], q[i]) == 1 with one final exponentiation (true for an empty product).
// False on a size mismatch.
bool pairing_product_is_one(std::span<const G1Affine> p, std::span<const G2Affine> q);
bool pairing_product_is_one(std::span<const G1Affine> p, std::span<const G2Prepared* const> q);

}  // namespace enygma
