// Points on y^2 = x^3 + b (a = 0) over a field F, written once for G1 (F = Fp) and G2
// (F = Fp2, the sextic twist). Affine points use (0, 0) for the point at infinity, as Ethereum
// does ((0, 0) is not on either curve since b != 0), so an affine point is exactly two
// coordinates. Jacobian coordinates (X, Y, Z) mean (X/Z^2, Y/Z^3); Z = 0 is infinity.
//
// Formulas: the Explicit-Formulas Database (hyperelliptic.org/EFD), short Weierstrass a = 0:
// dbl-2009-l, add-2007-bl, madd-2007-bl.
#pragma once

#include <cstddef>
#include <vector>

#include "core/field/batch_inverse.hpp"
#include "core/field/u256.hpp"

namespace enygma {

template <class F, class Params>
struct JacobianPoint;

template <class F, class Params>
struct AffinePoint {
  F x, y;

  static AffinePoint infinity() { return {F::zero(), F::zero()}; }
  static AffinePoint generator() { return Params::generator(); }
  bool is_infinity() const { return x.is_zero() && y.is_zero(); }
  bool operator==(const AffinePoint& o) const { return x == o.x && y == o.y; }
  bool operator!=(const AffinePoint& o) const { return !(*this == o); }
  AffinePoint operator-() const { return is_infinity() ? *this : AffinePoint{x, -y}; }
  // On the curve (infinity counts as on the curve). Subgroup membership is separate.
  bool is_on_curve() const {
    if (is_infinity()) return true;
    return y.square() == x.square() * x + Params::b();
  }
  JacobianPoint<F, Params> to_jacobian() const {
    if (is_infinity()) return JacobianPoint<F, Params>::infinity();
    return {x, y, F::one()};
  }
};

template <class F, class Params>
struct JacobianPoint {
  using Affine = AffinePoint<F, Params>;
  F X, Y, Z;

  static JacobianPoint infinity() { return {F::one(), F::one(), F::zero()}; }
  static JacobianPoint generator() { return Params::generator().to_jacobian(); }
  bool is_infinity() const { return Z.is_zero(); }

  bool operator==(const JacobianPoint& o) const {
    if (is_infinity() || o.is_infinity()) return is_infinity() && o.is_infinity();
    F z1z1 = Z.square(), z2z2 = o.Z.square();
    if (X * z2z2 != o.X * z1z1) return false;
    return Y * z2z2 * o.Z == o.Y * z1z1 * Z;
  }
  bool operator!=(const JacobianPoint& o) const { return !(*this == o); }
  JacobianPoint operator-() const { return {X, -Y, Z}; }

  bool is_on_curve() const {
    if (is_infinity()) return true;
    F z2 = Z.square();
    F z6 = z2.square() * z2;
    return Y.square() == X.square() * X + Params::b() * z6;
  }

  JacobianPoint dbl() const {
    if (is_infinity()) return *this;
    F a = X.square(), b = Y.square(), c = b.square();
    F d = ((X + b).square() - a - c).dbl();
    F e = a.dbl() + a;
    F f = e.square();
    JacobianPoint r;
    r.X = f - d.dbl();
    F c8 = c.dbl().dbl().dbl();
    r.Y = e * (d - r.X) - c8;
    r.Z = (Y * Z).dbl();
    return r;
  }

  friend JacobianPoint operator+(const JacobianPoint& p, const JacobianPoint& q) {
    if (p.is_infinity()) return q;
    if (q.is_infinity()) return p;
    F z1z1 = p.Z.square(), z2z2 = q.Z.square();
    F u1 = p.X * z2z2, u2 = q.X * z1z1;
    F s1 = p.Y * q.Z * z2z2, s2 = q.Y * p.Z * z1z1;
    F h = u2 - u1;
    F rr = (s2 - s1).dbl();
    if (h.is_zero()) {
      if (rr.is_zero()) return p.dbl();
      return infinity();
    }
    F i = h.dbl().square();
    F j = h * i;
    F v = u1 * i;
    JacobianPoint r;
    r.X = rr.square() - j - v.dbl();
    r.Y = rr * (v - r.X) - (s1 * j).dbl();
    r.Z = ((p.Z + q.Z).square() - z1z1 - z2z2) * h;
    return r;
  }

  // Mixed addition with an affine point.
  JacobianPoint add_mixed(const Affine& q) const {
    if (q.is_infinity()) return *this;
    if (is_infinity()) return q.to_jacobian();
    F z1z1 = Z.square();
    F u2 = q.x * z1z1, s2 = q.y * Z * z1z1;
    F h = u2 - X;
    F rr = (s2 - Y).dbl();
    if (h.is_zero()) {
      if (rr.is_zero()) return dbl();
      return infinity();
    }
    F hh = h.square();
    F i = hh.dbl().dbl();
    F j = h * i;
    F v = X * i;
    JacobianPoint r;
    r.X = rr.square() - j - v.dbl();
    r.Y = rr * (v - r.X) - (Y * j).dbl();
    r.Z = (Z + h).square() - z1z1 - hh;
    return r;
  }

  JacobianPoint& operator+=(const JacobianPoint& q) { return *this = *this + q; }
  JacobianPoint& operator+=(const Affine& q) { return *this = add_mixed(q); }
  friend JacobianPoint operator-(const JacobianPoint& p, const JacobianPoint& q) {
    return p + (-q);
  }

  // public_values: the point is public, so the inversion may take variable time
  // (inverse_vartime); otherwise constant time.
  Affine to_affine(bool public_values = false) const {
    if (is_infinity()) return Affine::infinity();
    F zi = public_values ? inverse_vartime(Z) : Z.inverse();
    F zi2 = zi.square();
    return {X * zi2, Y * zi2 * zi};
  }

  // Scalar multiplication by a public scalar (variable time: double-and-add).
  JacobianPoint mul_vartime(const U256& k) const {
    JacobianPoint r = infinity();
    for (int i = int(k.bit_length()) - 1; i >= 0; --i) {
      r = r.dbl();
      if (k.bit(unsigned(i))) r += *this;
    }
    return r;
  }

  // Scalar multiplication whose sequence of operations does not depend on the scalar (for
  // secrets: blinding factors, toxic waste). Fixed 4-bit windows over all 256 bits, with a
  // table lookup that touches every entry. The additions' exceptional cases (equal points,
  // infinity) take branches; they occur only with negligible probability for secret scalars.
  JacobianPoint mul_secret(const U256& k) const {
    JacobianPoint table[16];
    table[0] = infinity();
    for (int i = 1; i < 16; ++i) table[i] = table[i - 1] + *this;
    JacobianPoint r = infinity();
    for (int w = 63; w >= 0; --w) {
      r = r.dbl().dbl().dbl().dbl();
      uint32_t digit = k.bits(unsigned(w) * 4, 4);
      JacobianPoint sel = table[0];
      for (uint32_t j = 1; j < 16; ++j) {
        // constant-time select: mask is all-ones when j == digit
        uint64_t mask = 0 - uint64_t(j == digit);
        select_into(sel, table[j], mask);
      }
      r += sel;
    }
    return r;
  }

  // Jacobian -> affine for many points with one inversion (Montgomery's trick).
  static void batch_to_affine(const JacobianPoint* in, Affine* out, size_t n) {
    std::vector<F> z(n), scratch(n);
    for (size_t i = 0; i < n; ++i) z[i] = in[i].Z;
    batch_inverse(z.data(), n, scratch.data());
    for (size_t i = 0; i < n; ++i) {
      if (in[i].is_infinity()) {
        out[i] = Affine::infinity();
        continue;
      }
      F zi2 = z[i].square();
      out[i] = {in[i].X * zi2, in[i].Y * zi2 * z[i]};
    }
  }

 private:
  static void select_into(JacobianPoint& dst, const JacobianPoint& src, uint64_t mask) {
    auto* d = reinterpret_cast<uint64_t*>(&dst);
    auto* s = reinterpret_cast<const uint64_t*>(&src);
    for (size_t i = 0; i < sizeof(JacobianPoint) / 8; ++i) d[i] = (d[i] & ~mask) | (s[i] & mask);
  }
};

}  // namespace enygma
