// The Enygma withdraw circuit (../shared/docs/withdraw-relation.md: R1, R2w, R3..R8, R9w,
// R12..R14, R15w, W1..W5; R16) for every anonymity-set size k in kMinK..kMaxK from one definition,
// and its witness computed by running that definition in witness mode.
//
// Public inputs: the 8k + 12 values of WithdrawRequest::public_inputs(), in that order (wires
// 1..8k+12). The layout of the private wires is in withdraw_circuit.cpp.
#pragma once

#include <string>
#include <vector>

#include "core/circuit/builder.hpp"
#include "core/withdraw/request.hpp"

namespace enygma {

// The circuit definition, for the builder's modes: req == nullptr for the shape only. Aborts on
// a k out of range or a request whose arrays do not have their sizes (k, kNoteSlots).
void define_withdraw_circuit(circuit::CircuitBuilder& b, unsigned k, const WithdrawRequest* req);

// Capacities for recording the shape for k: the measured sizes plus 1/16.
circuit::CircuitBuilder::SizeHint withdraw_r1cs_size_hint(unsigned k);

// The full witness (num_wires values: [0] = 1, the 8k + 12 public inputs, the private wires) of
// a request. The request is assumed validated; an invalid one (validation bypassed) yields a
// witness that does not satisfy the R1CS. Empty when req.k is out of range or an array does not
// have its size. The caller wipes it after use.
std::vector<Fr> withdraw_witness(const WithdrawRequest& req);

// The label of the first constraint the request's witness violates ("W3/..."), or "" when it
// satisfies them all; "input shape" for a malformed request. Slow (labelled system).
std::string first_violated_withdraw_constraint(const WithdrawRequest& req);

}  // namespace enygma
