#include "core/circuit/babyjubjub_gadget.hpp"

namespace enygma::circuit {

namespace {

using babyjubjub::kA;
using babyjubjub::kD;
const Fr kMontA = Fr::constant("168698");

// 1/x and 1/y with one inversion (Montgomery's trick); zero stays zero.
void invert_pair(Fr& x, Fr& y) {
  Fr prod = x * y;
  if (prod.is_zero()) {
    x = x.inverse();
    y = y.inverse();
    return;
  }
  Fr inv = prod.inverse();
  Fr xi = inv * y, yi = inv * x;
  x = xi;
  y = yi;
}

// The four products of the complete addition and their witness values.
struct AddTerms {
  Var beta, gamma, delta, tau;
};

AddTerms add_terms(CircuitBuilder& b, const PointLc& p, const PointLc& q) {
  AddTerms t;
  t.beta = b.mul(p.x, q.y, "beta = x1*y2");
  t.gamma = b.mul(p.y, q.x, "gamma = y1*x2");
  t.delta = b.mul(p.y - kA * p.x, q.x + q.y, "delta = (y1 - a*x1)*(x2 + y2)");
  t.tau = b.mul(t.beta, t.gamma, "tau = beta*gamma");
  return t;
}

void enforce_add_result(CircuitBuilder& b, const AddTerms& t, const PointLc& sum) {
  const Lc one = Lc::constant(1);
  b.enforce(sum.x, one + kD * Lc(t.tau), Lc(t.beta) + Lc(t.gamma), "x3*(1 + d*tau) = beta + gamma");
  b.enforce(sum.y, one - kD * Lc(t.tau), Lc(t.delta) + kA * Lc(t.beta) - Lc(t.gamma),
            "y3*(1 - d*tau) = delta + a*beta - gamma");
}

}  // namespace

const Fr& montgomery_a() {
  return kMontA;
}

PointLc point_constant(const BjjPoint& p) {
  return {Lc::constant(p.x), Lc::constant(p.y)};
}
PointLc point_of(const Var& x, const Var& y) {
  return {Lc(x), Lc(y)};
}
BjjPoint point_value(const PointLc& p) {
  return {p.x.value(), p.y.value()};
}

void enforce_on_curve(CircuitBuilder& b, const PointLc& p, std::string_view label) {
  CircuitBuilder::Scope scope(b, label);
  Var x2 = b.mul(p.x, p.x, "x^2");
  Var y2 = b.mul(p.y, p.y, "y^2");
  b.enforce(kD * Lc(x2), y2, kA * Lc(x2) + Lc(y2) - Fr::one(), "d*x^2*y^2 = a*x^2 + y^2 - 1");
}

PointLc edwards_add(CircuitBuilder& b, const PointLc& p, const PointLc& q, std::string_view label) {
  CircuitBuilder::Scope scope(b, label);
  AddTerms t = add_terms(b, p, q);
  // Witness: the complete formula (the denominators are nonzero for on-curve points).
  Fr tau_d = kD * t.tau.value();
  Fr den_x = Fr::one() + tau_d, den_y = Fr::one() - tau_d;
  invert_pair(den_x, den_y);
  const Fr a_beta = kA * t.beta.value();
  // y before x, each in its own statement: function arguments are evaluated in an unspecified
  // order (g++ and clang differ), and the wire numbering must be the same on every target.
  const Var y3 = b.private_wire((t.delta.value() + a_beta - t.gamma.value()) * den_y);
  const Var x3 = b.private_wire((t.beta.value() + t.gamma.value()) * den_x);
  PointLc sum = point_of(x3, y3);
  enforce_add_result(b, t, sum);
  return sum;
}

void enforce_edwards_sum(CircuitBuilder& b, const PointLc& p, const PointLc& q, const PointLc& sum,
                         std::string_view label) {
  CircuitBuilder::Scope scope(b, label);
  enforce_add_result(b, add_terms(b, p, q), sum);
}

PointLc edwards_add_constant(CircuitBuilder& b, const PointLc& p, const BjjPoint& q,
                             std::string_view label) {
  CircuitBuilder::Scope scope(b, label);
  Var xy = b.mul(p.x, p.y, "x1*y1");
  const Fr dxy = kD * q.x * q.y;
  Fr den_x = Fr::one() + dxy * xy.value(), den_y = Fr::one() - dxy * xy.value();
  invert_pair(den_x, den_y);
  const Lc num_x = q.y * p.x + q.x * p.y;
  const Lc num_y = q.y * p.y - (kA * q.x) * p.x;
  const Var y3 = b.private_wire(num_y.value() * den_y);  // y first: see edwards_add
  const Var x3 = b.private_wire(num_x.value() * den_x);
  PointLc sum = point_of(x3, y3);
  const Lc one = Lc::constant(1);
  b.enforce(sum.x, one + dxy * Lc(xy), num_x, "x3*(1 + d*xq*yq*x1*y1) = yq*x1 + xq*y1");
  b.enforce(sum.y, one - dxy * Lc(xy), num_y, "y3*(1 - d*xq*yq*x1*y1) = yq*y1 - a*xq*x1");
  return sum;
}

PointLc montgomery_to_edwards(CircuitBuilder& b, const MontPointLc& m, std::string_view label) {
  CircuitBuilder::Scope scope(b, label);
  Fr inv_v = m.v.value(), inv_u1 = m.u.value() + Fr::one();
  invert_pair(inv_v, inv_u1);
  const Var y = b.private_wire((m.u.value() - Fr::one()) * inv_u1);  // y first: see edwards_add
  const Var x = b.private_wire(m.u.value() * inv_v);
  PointLc e = point_of(x, y);
  b.enforce(e.x, m.v, m.u, "x*v = u");
  b.enforce(e.y, m.u + Fr::one(), m.u - Fr::one(), "y*(u + 1) = u - 1");
  return e;
}

MontPoint edwards_to_montgomery(const BjjPoint& p) {
  Fr one_minus_y = Fr::one() - p.y, x = p.x;
  invert_pair(one_minus_y, x);
  Fr u = (Fr::one() + p.y) * one_minus_y;
  return {u, u * x};
}

}  // namespace enygma::circuit
