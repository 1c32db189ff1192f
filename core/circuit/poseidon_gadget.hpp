// Poseidon (iden3 / circomlib, the optimized form of core/primitives/poseidon.hpp) in the
// circuit. Only S-boxes cost constraints (x^5: three products); the round constants and the
// M, P and sparse S matrices are linear and stay inside linear combinations. Values known when
// the circuit is defined (the domain tags T and U, and the constant first state word) are
// propagated natively: an S-box of a constant costs nothing.
// Cost: 240 constraints for 2 variable inputs, 258 for 3 inputs of which one is constant
// (Poseidon(T, ss, b)), 261 for 3 variable inputs.
#pragma once

#include <span>
#include <string_view>

#include "core/circuit/builder.hpp"

namespace enygma::circuit {

// A Poseidon input: a circuit value, or a constant known when the circuit is defined.
struct PoseidonInput {
  PoseidonInput(const Lc& v) : value(v), is_constant(false) {}   // NOLINT: implicit
  PoseidonInput(const Var& v) : value(v), is_constant(false) {}  // NOLINT: implicit
  static PoseidonInput constant(const Fr& c) { return PoseidonInput(Lc::constant(c), true); }

  Lc value;
  bool is_constant;

 private:
  PoseidonInput(Lc v, bool c) : value(std::move(v)), is_constant(c) {}
};

// Poseidon(inputs), 1..4 inputs; the output is a linear combination of the last S-boxes.
Lc poseidon_gadget(CircuitBuilder& b, std::span<const PoseidonInput> inputs,
                   std::string_view label);

}  // namespace enygma::circuit
