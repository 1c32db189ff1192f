// Subgroup membership for G2 (points of the twist E': y^2 = x^3 + 3/(9+u) over Fp2, whose group
// has order r * c with c = 2p - r; points from untrusted input must be checked to lie in the
// order-r subgroup), and the endomorphism psi it is built on.
//
// psi = untwist o Frobenius o twist maps (x, y) to (conj(x) g^2, conj(y) g^3) with
// g = xi^((p-1)/6), xi = 9 + u. On G2 it acts as multiplication by p (mod r).
#pragma once

#include "core/curve/g2.hpp"

namespace enygma {

// xi^((p-1)/6), computed once from xi and p (shared with the Frobenius maps of core/pairing).
const Fp2& twist_frobenius_gamma();

G2Affine g2_psi(const G2Affine& q);
G2 g2_psi(const G2& q);
// psi^2: (x, y) -> (x g^(2(p+1)), -y); g^(2(p+1)) = xi^((p^2-1)/3) lies in Fp.
G2Affine g2_psi2(const G2Affine& q);

// Q in the order-r subgroup, for Q already known to be on the twist (the caller checks that).
// Test of Dai, Lin, Zhao, Zhou, "Fast subgroup membership testings for G1, G2 and GT on
// pairing-friendly curves" (eprint 2022/348), in the form used for BN254 by gnark-crypto:
//   [x+1]Q + psi([x]Q) + psi^2([x]Q) == psi^3([2x]Q),   x = 4965661367192848881.
// One 63-bit scalar multiplication instead of the 254-bit [r]Q. tests/pairing_test.cpp checks it
// against [r]Q == 0 on a point of every prime order dividing the twist's group order (the group
// is cyclic with square-free cofactor, so that covers every point of E'(Fp2)).
bool g2_is_in_subgroup(const G2Affine& q);

// The definition: [r]Q == infinity. About 4x slower; for tests and cross-checks.
bool g2_is_in_subgroup_by_order(const G2Affine& q);

// [x]Q for the BN parameter x = 4965661367192848881 (signed-digit form, mixed additions).
G2 g2_mul_by_bn_x(const G2Affine& q);

}  // namespace enygma
