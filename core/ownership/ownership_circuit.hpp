// The DvP ERC-721 ownership circuit (rules O1..O7 of ../shared/docs/ownership-relation.md) and
// its witness, computed by running the same definition in witness mode.
//
// Public inputs: the 6 values of OwnershipRequest::public_inputs(), in that order (wires 1..6).
#pragma once

#include <string>
#include <vector>

#include "core/circuit/builder.hpp"
#include "core/ownership/request.hpp"
#include "core/r1cs/r1cs.hpp"

namespace enygma {

R1cs build_ownership_r1cs();

// The full witness (num_wires values: [0] = 1, the 6 public inputs, the private wires). An
// invalid request (validation bypassed) yields a witness that does not satisfy the R1CS. The
// caller wipes it after use.
std::vector<Fr> ownership_witness(const OwnershipRequest& req);

// req == nullptr for the shape only.
void define_ownership_circuit(circuit::CircuitBuilder& b, const OwnershipRequest* req);

circuit::CircuitBuilder::SizeHint ownership_r1cs_size_hint();

// The label of the first violated constraint ("O4 root/..."), "" when none.
std::string ownership_first_violation(const OwnershipRequest& req);

}  // namespace enygma
