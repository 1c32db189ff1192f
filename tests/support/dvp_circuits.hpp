// The DvP circuits' constraint systems as the registry caches them (labelled), and the rule a
// constraint's label names, for the DvP circuit and soundness tests.
#pragma once

#include <string>

#include "core/joinsplit/request.hpp"
#include "core/registry/registry.hpp"

namespace enygma::test {

inline const R1cs& joinsplit_r1cs(NoteFormat f) {
  return circuit_r1cs(
      *find_circuit(f == NoteFormat::kErc20 ? "joinsplit-enygma" : "joinsplit-1155", 0));
}

inline const R1cs& ownership_r1cs() {
  return circuit_r1cs(*find_circuit("ownership-721", 0));
}

// "J5 / input 0: ..." -> "J5".
inline std::string rule_of(const std::string& label) {
  return label.substr(0, label.find_first_of(" /"));
}

}  // namespace enygma::test
