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
#include "core/util/secure_vector.hpp"

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

  // Scalar multiplication whose operations and memory accesses do not depend on the scalar or
  // the point (for secrets: blinding factors and the points they touch). Fixed 4-bit windows
  // over all 256 bits, a table lookup that reads every entry, and the complete projective
  // formulas of Renes, Costello and Batina (eprint 2015/1060, algorithms 7 and 9, a = 0): no
  // case of the addition (the identity, equal or opposite points) takes a branch. Complete on
  // G1 (prime order) and on the whole twist (odd order). The CTest test constant_time_valgrind
  // checks it for branches and addresses that follow the scalar or the point.
  JacobianPoint mul_secret(const U256& k) const {
    // Jacobian (X, Y, Z) is the projective (X Z, Y, Z^3); infinity (Z = 0) is (0 : Y : 0).
    const Projective p{X * Z, Y, Z.square() * Z};
    const F b3 = Params::b().dbl() + Params::b();
    Projective table[16];
    table[0] = Projective{F::zero(), F::one(), F::zero()};
    for (int i = 1; i < 16; ++i) table[i] = Projective::add(table[i - 1], p, b3);
    Projective r = table[0];
    for (int w = 63; w >= 0; --w) {
      for (int d = 0; d < 4; ++d) r = Projective::dbl(r, b3);
      const uint32_t digit = k.bits(unsigned(w) * 4, 4);
      Projective sel = table[0];
      for (uint32_t j = 1; j < 16; ++j) select_into(sel, table[j], ct_mask(j, digit));
      r = Projective::add(r, sel, b3);
    }
    // Back to Jacobian: (X Z, Y Z^2, Z); the identity as infinity() (1, 1, 0).
    JacobianPoint out{r.X * r.Z, r.Y * r.Z.square(), r.Z};
    select_into(out, infinity(), ct_zero_mask(r.Z));
    return out;
  }

  // Jacobian -> affine for many points with one inversion (Montgomery's trick). Its buffers are
  // wiped: the MSM's bucket sums come through here.
  static void batch_to_affine(const JacobianPoint* in, Affine* out, size_t n) {
    SecureVector<F> z(n), scratch(n);
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
  // Projective (X : Y : Z) = (X/Z, Y/Z), for the complete formulas of mul_secret.
  struct Projective {
    F X, Y, Z;
    // Algorithm 7: P + Q for any P and Q (12 products, 2 by b3 = 3b).
    static Projective add(const Projective& p, const Projective& q, const F& b3) {
      F t0 = p.X * q.X, t1 = p.Y * q.Y, t2 = p.Z * q.Z;
      F t3 = (p.X + p.Y) * (q.X + q.Y) - (t0 + t1);  // X1 Y2 + X2 Y1
      F t4 = (p.Y + p.Z) * (q.Y + q.Z) - (t1 + t2);  // Y1 Z2 + Y2 Z1
      F y3 = (p.X + p.Z) * (q.X + q.Z) - (t0 + t2);  // X1 Z2 + X2 Z1
      t0 = t0.dbl() + t0;
      t2 = b3 * t2;
      F z3 = t1 + t2;
      t1 = t1 - t2;
      y3 = b3 * y3;
      Projective r;
      r.X = t3 * t1 - t4 * y3;
      r.Y = t1 * z3 + y3 * t0;
      r.Z = z3 * t4 + t0 * t3;
      return r;
    }
    // Algorithm 9: 2P for any P (6 products, 2 squares, 1 by b3 = 3b).
    static Projective dbl(const Projective& p, const F& b3) {
      F t0 = p.Y.square();
      F z3 = t0.dbl().dbl().dbl();  // 8 Y^2
      F t1 = p.Y * p.Z;
      F t2 = b3 * p.Z.square();
      Projective r;
      r.X = t2 * z3;
      F y3 = t0 + t2;
      r.Z = t1 * z3;
      t0 = t0 - (t2.dbl() + t2);
      r.Y = r.X + t0 * y3;
      r.X = (t0 * (p.X * p.Y)).dbl();
      return r;
    }
  };

  // All ones when x is zero, else zero, without a branch.
  static uint64_t ct_zero_mask(uint64_t x) { return ((x | (0 - x)) >> 63) - 1; }
  static uint64_t ct_mask(uint32_t a, uint32_t b) { return ct_zero_mask(a ^ b); }  // a == b
  // The same of a field element's words (F::is_zero of Fp2 short-circuits: a branch).
  static uint64_t ct_zero_mask(const F& x) {
    static_assert(sizeof(F) % 8 == 0);
    const auto* w = reinterpret_cast<const uint64_t*>(&x);
    uint64_t any = 0;
    for (size_t i = 0; i < sizeof(F) / 8; ++i) any |= w[i];
    return ct_zero_mask(any);
  }
  template <class T>
  static void select_into(T& dst, const T& src, uint64_t mask) {
    static_assert(sizeof(T) % 8 == 0);
    auto* d = reinterpret_cast<uint64_t*>(&dst);
    auto* s = reinterpret_cast<const uint64_t*>(&src);
    for (size_t i = 0; i < sizeof(T) / 8; ++i) d[i] = (d[i] & ~mask) | (s[i] & mask);
  }
};

}  // namespace enygma
