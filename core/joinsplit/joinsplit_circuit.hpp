// The DvP join-split circuit (rules J1..J10 of ../shared/docs/joinsplit-relation.md, J11 of
// docs/circuits.md) for both routes from ONE definition: the note format (ERC-20 or ERC-1155)
// is a parameter of the definition, never of the witness. Its witness is computed natively by
// running that definition in witness mode.
//
// Public inputs: the 34 values of JoinSplitRequest::public_inputs(), in that order (wires
// 1..34). The layout of the private wires is in joinsplit_circuit.cpp.
#pragma once

#include <string>
#include <vector>

#include "core/circuit/builder.hpp"
#include "core/joinsplit/request.hpp"
#include "core/r1cs/r1cs.hpp"

namespace enygma {

// The constraint system of a format (shape only; deterministic).
R1cs build_joinsplit_r1cs(NoteFormat format);

// The full witness (num_wires values: [0] = 1, then the 34 public inputs in order, then the
// private wires) of a request of req.format. The request is assumed validated; an invalid one
// (validation bypassed) yields a witness that does not satisfy the format's R1CS. The caller
// wipes it after use.
std::vector<Fr> joinsplit_witness(const JoinSplitRequest& req);

// The circuit definition itself, for the builder's modes: req == nullptr for the shape only;
// otherwise req->format must be `format`.
void define_joinsplit_circuit(circuit::CircuitBuilder& b, NoteFormat format,
                              const JoinSplitRequest* req);

// Capacities for recording the shape (the measured sizes plus 1/16; a test checks them).
circuit::CircuitBuilder::SizeHint joinsplit_r1cs_size_hint(NoteFormat format);

// The label of the first constraint the request's witness violates ("J5 root[0]/..."), or ""
// when it satisfies them all. Builds the labelled system: slow, for tests and diagnostics.
std::string joinsplit_first_violation(const JoinSplitRequest& req);

}  // namespace enygma
