#include "core/circuit/distinct.hpp"

#include <cstdlib>

namespace enygma::circuit {

void enforce_distinct_where_enabled(CircuitBuilder& b, std::span<const Lc> values,
                                    std::span<const Lc> enabled, std::string_view label) {
  if (values.size() != enabled.size()) std::abort();
  CircuitBuilder::Scope scope(b, label);
  const Lc one = Lc::constant(1);
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t j = i + 1; j < values.size(); ++j) {
      CircuitBuilder::Scope si(b, "i", int(i));
      CircuitBuilder::Scope sj(b, "j", int(j));
      const Var m = b.mul(enabled[i], enabled[j], "m = enabled[i] * enabled[j]");
      const Lc d = values[i] - values[j];
      // inv = m / d (0 when m == 0; when d == 0 and m == 1 no witness exists).
      const Var inv = b.private_wire(m.value().is_zero() ? Fr::zero() : d.value().inverse());
      b.enforce(d, inv, m, "(v[i] - v[j]) * inv = m");
      b.enforce(inv, one - Lc(m), Lc(), "inv * (1 - m) = 0");
    }
  }
}

void enforce_nonzero_where_enabled(CircuitBuilder& b, const Lc& value, const Lc& enabled,
                                   std::string_view label) {
  CircuitBuilder::Scope scope(b, label);
  // inv = enabled / value (0 when not enabled; when value == 0 and enabled no witness exists).
  const Var inv = b.private_wire(enabled.value().is_zero() ? Fr::zero() : value.value().inverse());
  b.enforce(value, Lc(inv), enabled, "value * inv = enabled");
  b.enforce(Lc(inv), Lc::constant(1) - enabled, Lc(), "inv * (1 - enabled) = 0");
}

}  // namespace enygma::circuit
