#include "support/forge.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/field/inverse_vartime.hpp"

namespace enygma::test {

Forger::Forger(const R1cs& r1cs) : r1cs_(r1cs), first_constraint_(r1cs.num_wires, kNone) {
  for (size_t i = 0; i < r1cs.num_constraints(); ++i) {
    for (const SparseMatrix* m : {&r1cs.a, &r1cs.b, &r1cs.c}) {
      for (const R1csTerm& t : m->row(i)) {
        if (first_constraint_[t.wire] == kNone) first_constraint_[t.wire] = uint32_t(i);
      }
    }
  }
}

std::optional<Fr> Forger::solve(size_t c, uint32_t wire, std::span<const Fr> w,
                                const std::vector<uint8_t>& forced) const {
  // <A, w> = a*x + A0 with x the wire's value and A0 the rest; likewise B and C. Then
  // (a*x + A0)(b*x + B0) = c*x + C0 is linear in x when a or b is zero:
  // (a*B0 + b*A0 - c) * x = C0 - A0*B0.
  Fr coeff[3] = {Fr::zero(), Fr::zero(), Fr::zero()};
  Fr rest[3] = {Fr::zero(), Fr::zero(), Fr::zero()};
  const SparseMatrix* rows[3] = {&r1cs_.a, &r1cs_.b, &r1cs_.c};
  for (int m = 0; m < 3; ++m) {
    for (const R1csTerm& t : rows[m]->row(c)) {
      if (t.wire == wire) {
        coeff[m] += t.coeff;
      } else if (t.wire > wire && !forced[t.wire]) {
        return std::nullopt;  // a wire not settled yet
      } else {
        rest[m] += t.coeff * w[t.wire];
      }
    }
  }
  if (!coeff[0].is_zero() && !coeff[1].is_zero()) return std::nullopt;  // quadratic in it
  const Fr k = coeff[0] * rest[1] + coeff[1] * rest[0] - coeff[2];
  if (k.is_zero()) return std::nullopt;
  const Fr rhs = rest[2] - rest[0] * rest[1];
  if (k == -Fr::one()) return -rhs;  // z of x * y = z: no inversion
  if (k == Fr::one()) return rhs;
  return rhs * inverse_vartime(k);  // test values: variable time is fine
}

Forgery Forger::forge(std::span<const Fr> honest, std::span<const ForcedWire> forced) const {
  if (honest.size() != r1cs_.num_wires) std::abort();
  Forgery out;
  out.witness.assign(honest.begin(), honest.end());
  std::vector<uint8_t> is_forced(r1cs_.num_wires, 0);
  uint32_t first = r1cs_.num_wires;
  for (const ForcedWire& f : forced) {
    if (f.wire == 0 || f.wire >= r1cs_.num_wires) std::abort();  // wire 0 is the constant 1
    out.witness[f.wire] = f.value;
    is_forced[f.wire] = 1;
    first = std::min(first, f.wire);
  }
  const uint32_t first_private = 1 + r1cs_.num_public;
  for (uint32_t wire = std::max(first + 1, first_private); wire < r1cs_.num_wires; ++wire) {
    if (is_forced[wire] || first_constraint_[wire] == kNone) continue;
    const std::optional<Fr> v = solve(first_constraint_[wire], wire, out.witness, is_forced);
    if (!v || *v == out.witness[wire]) continue;
    out.witness[wire] = *v;
    ++out.recomputed;
  }
  out.first_unsatisfied = r1cs_.first_unsatisfied(out.witness);
  if (out.first_unsatisfied && *out.first_unsatisfied < r1cs_.labels.size()) {
    out.label = r1cs_.labels[*out.first_unsatisfied];
  }
  return out;
}

}  // namespace enygma::test
