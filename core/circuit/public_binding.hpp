// Binding a public input that no rule otherwise uses (the DvP relations' nftCommitment /
// paymentCommitment and tree numbers: J10, O7).
//
// A Groth16 verifying key holds one point IC_i per public input, built from the input's
// columns of A, B and C; an input that appears in no constraint gets the point at infinity,
// and the verification equation then does not depend on its value: anyone can re-submit a
// proof with another value there (re-bind it to another deal). One constraint x * x = s (s a
// new private wire, pinned by it) puts x in A and B, so IC_i is not the identity and the
// proof is bound to the value of x. Nothing is required of the value itself.
#pragma once

#include <string_view>

#include "core/circuit/builder.hpp"

namespace enygma::circuit {

// One constraint and one wire: x * x = s.
void bind_public_input(CircuitBuilder& b, const Var& x, std::string_view label);

}  // namespace enygma::circuit
