#include "core/circuit/dvp_note.hpp"

#include <initializer_list>

#include "core/circuit/poseidon_gadget.hpp"

namespace enygma::circuit {

namespace {

// Poseidon(... Poseidon(Poseidon(first, rest[0]), rest[1]) ..., rest[n-1]).
Lc poseidon_chain(CircuitBuilder& b, const Lc& first, std::initializer_list<const Lc*> rest,
                  std::string_view label) {
  CircuitBuilder::Scope scope(b, label);
  Lc acc = first;
  int step = 0;
  for (const Lc* next : rest) {
    CircuitBuilder::Scope s(b, "call", step++);
    const PoseidonInput in[2] = {acc, *next};
    acc = poseidon_gadget(b, in, "Poseidon");
  }
  return acc;
}

}  // namespace

Lc note_erc20(CircuitBuilder& b, const Lc& pk, const Lc& salt, const Lc& amount, const Lc& token,
              std::string_view label) {
  return poseidon_chain(b, pk, {&salt, &amount, &token}, label);
}

Lc note_erc1155(CircuitBuilder& b, const Lc& pk, const Lc& salt, const Lc& amount, const Lc& token,
                const Lc& token_id, std::string_view label) {
  return poseidon_chain(b, pk, {&salt, &token, &token_id, &amount}, label);
}

Lc note_erc721(CircuitBuilder& b, const Lc& pk, const Lc& salt, const Lc& uid,
               std::string_view label) {
  return poseidon_chain(b, pk, {&salt, &uid}, label);
}

}  // namespace enygma::circuit
