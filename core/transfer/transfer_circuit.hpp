// The Enygma transfer circuit (rules R1..R15 of ../shared/docs/transfer-relation.md, R16) for every
// anonymity-set size k in kMinK..kMaxK, from ONE definition, and its witness computed natively by
// running that definition in witness mode.
//
// Public inputs: the 8k + 2 values of TransferRequest::public_inputs(), in that order
// (wires 1..8k+2). The layout of the private wires is in transfer_circuit.cpp.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/circuit/builder.hpp"
#include "core/r1cs/r1cs.hpp"
#include "core/transfer/request.hpp"

namespace enygma {

struct TransferCircuitInfo {
  unsigned k;
  size_t constraints, wires, public_inputs, private_wires;
  // ceil(log2(constraints + public_inputs + 1)): the snarkjs / rapidsnark domain, one extra row
  // per public input and one for the constant wire.
  unsigned fft_log_domain;
  // The domain of this project's keys: the smallest 2^k or 3 * 2^k that holds the same rows.
  size_t domain_size;
};

// The R1CS of the transfer circuit for k (kMinK..kMaxK; aborts otherwise). Deterministic: the
// same k gives the same bytes. Built once per k on first use and cached (thread-safe).
const R1cs& transfer_r1cs(unsigned k);
TransferCircuitInfo transfer_circuit_info(unsigned k);

// The full witness (num_wires values: [0] = 1, then the 8k + 2 public inputs in order, then the
// private wires) of a request. The request is assumed validated; an invalid one (validation
// bypassed) yields a witness that does not satisfy transfer_r1cs(req.k). Empty when req.k is
// out of range or an array does not have k entries. The caller wipes it after use.
std::vector<Fr> transfer_witness(const TransferRequest& req);

// Capacities for recording the shape for k: the measured sizes plus 1/16 (a hint; the tests
// check that it covers the real sizes).
circuit::CircuitBuilder::SizeHint transfer_r1cs_size_hint(unsigned k);

// The circuit definition itself, for the builder's modes: req == nullptr for the shape only.
void define_transfer_circuit(circuit::CircuitBuilder& b, unsigned k, const TransferRequest* req);

// The label of the first constraint the request's witness violates ("R13 tc[1]/..."), or "" when
// it satisfies them all. Builds the labelled system: slow, for tests and diagnostics.
std::string first_violated_constraint(const TransferRequest& req);

}  // namespace enygma
