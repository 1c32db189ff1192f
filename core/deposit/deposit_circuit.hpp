// The Enygma deposit circuit (../shared/docs/deposit-relation.md: R1..R8, R9d, R11..R14, R15d,
// D1; R16) for every anonymity-set size k in kMinK..kMaxK from one definition, and its witness
// computed by running that definition in witness mode.
//
// Public inputs: the 8k + 3 values of DepositRequest::public_inputs(), in that order (wires
// 1..8k+3). The layout of the private wires is in deposit_circuit.cpp.
#pragma once

#include <string>
#include <vector>

#include "core/circuit/builder.hpp"
#include "core/deposit/request.hpp"

namespace enygma {

// The circuit definition, for the builder's modes: req == nullptr for the shape only. Aborts on
// a k out of range or a request whose arrays do not have k entries.
void define_deposit_circuit(circuit::CircuitBuilder& b, unsigned k, const DepositRequest* req);

// Capacities for recording the shape for k: the measured sizes plus 1/16.
circuit::CircuitBuilder::SizeHint deposit_r1cs_size_hint(unsigned k);

// The full witness (num_wires values: [0] = 1, the 8k + 3 public inputs, the private wires) of
// a request. The request is assumed validated; an invalid one (validation bypassed) yields a
// witness that does not satisfy the R1CS. Empty when req.k is out of range or an array does not
// have k entries. The caller wipes it after use.
std::vector<Fr> deposit_witness(const DepositRequest& req);

// The label of the first constraint the request's witness violates ("R15d/tv[2]/..."), or ""
// when it satisfies them all; "input shape" for a malformed request. Slow (labelled system).
std::string first_violated_deposit_constraint(const DepositRequest& req);

}  // namespace enygma
