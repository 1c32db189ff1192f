// Running a payment circuit definition (transfer, deposit, withdraw) in the builder's modes: the
// shape-only R1CS, the witness of a request and its first violated constraint, alike for every
// family. `define` is the family's definition (define_deposit_circuit, ...), `size_hint` its
// capacities for k, and `shape_ok` whether the request's arrays have their sizes.
#pragma once

#include <string>
#include <vector>

#include "core/circuit/builder.hpp"
#include "core/field/fr.hpp"
#include "core/payment/request.hpp"
#include "core/r1cs/r1cs.hpp"

namespace enygma::payment {

template <class Request>
using CircuitDefinition = void (*)(circuit::CircuitBuilder& b, unsigned k, const Request* req);
using CircuitSizeHint = circuit::CircuitBuilder::SizeHint (*)(unsigned k);

// The constraint system for k (the definition aborts on a k out of range).
template <class Request>
R1cs build_payment_r1cs(unsigned k, CircuitDefinition<Request> define, CircuitSizeHint size_hint) {
  circuit::CircuitBuilder b(circuit::BuildMode::kShape);
  b.reserve(size_hint(k));
  define(b, k, nullptr);
  return b.take_r1cs();
}

// The full witness of a request; empty when req.k is out of range or !shape_ok.
template <class Request>
std::vector<Fr> payment_witness(const Request& req, bool shape_ok,
                                CircuitDefinition<Request> define, CircuitSizeHint size_hint) {
  if (req.k < kMinK || req.k > kMaxK || !shape_ok) return {};
  circuit::CircuitBuilder b(circuit::BuildMode::kWitness);
  b.reserve(size_hint(req.k));  // no growth: no copies of secrets left behind
  define(b, req.k, &req);
  return b.take_witness();
}

// The label of the first constraint the request's witness violates, "" when none; "input shape"
// when req.k is out of range or !shape_ok.
template <class Request>
std::string first_violated_payment_constraint(const Request& req, bool shape_ok,
                                              CircuitDefinition<Request> define) {
  if (req.k < kMinK || req.k > kMaxK || !shape_ok) return "input shape";
  circuit::CircuitBuilder b(circuit::BuildMode::kShapeAndWitness);
  define(b, req.k, &req);
  return b.first_violation() ? b.first_violation_label() : std::string();
}

}  // namespace enygma::payment
