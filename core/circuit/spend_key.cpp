#include "core/circuit/spend_key.hpp"

#include "core/circuit/mod_l.hpp"
#include "core/circuit/poseidon_gadget.hpp"

namespace enygma::circuit {

Lc spend_public_key(CircuitBuilder& b, const Lc& sk, std::string_view label) {
  CircuitBuilder::Scope scope(b, label);
  const PoseidonInput in[2] = {sk, sk};
  return mod_l_exact(b, poseidon_gadget(b, in, "Poseidon(sk, sk)"), "mod l").remainder;
}

}  // namespace enygma::circuit
