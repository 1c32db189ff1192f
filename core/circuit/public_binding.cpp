#include "core/circuit/public_binding.hpp"

namespace enygma::circuit {

void bind_public_input(CircuitBuilder& b, const Var& x, std::string_view label) {
  b.mul(x, x, label);
}

}  // namespace enygma::circuit
