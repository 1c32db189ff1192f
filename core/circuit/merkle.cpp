#include "core/circuit/merkle.hpp"

#include <cstdlib>

#include "core/circuit/compare.hpp"
#include "core/circuit/poseidon_gadget.hpp"

namespace enygma::circuit {

Lc merkle_root(CircuitBuilder& b, const Lc& leaf, std::span<const Var> index_bits,
               std::span<const Var> path, std::string_view label) {
  if (index_bits.size() != path.size()) std::abort();
  CircuitBuilder::Scope scope(b, label);
  Lc c = leaf;
  for (size_t m = 0; m < path.size(); ++m) {
    CircuitBuilder::Scope level(b, "level", int(m));
    // left = bit ? path : c (one constraint); right = c + path - left (the other one).
    const Lc sibling(path[m]);
    const Var left = select(b, index_bits[m], sibling, c, "left child");
    const Lc right = c + sibling - Lc(left);
    const PoseidonInput in[2] = {Lc(left), right};
    c = poseidon_gadget(b, in, "Poseidon(left, right)");
  }
  return c;
}

void enforce_root_if_nonzero(CircuitBuilder& b, const Lc& enable, const Lc& root,
                             const Lc& expected, std::string_view label) {
  b.enforce(enable, root - expected, Lc(), label);
}

}  // namespace enygma::circuit
