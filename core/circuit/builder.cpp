#include "core/circuit/builder.hpp"

#include <sodium.h>

#include <cstdlib>

namespace enygma::circuit {

namespace {
const Fr kZero = Fr::zero();
}

CircuitBuilder::CircuitBuilder(BuildMode mode) : mode_(mode) {
  if (computes_witness()) values_.push_back(Fr::one());
}

const Fr& CircuitBuilder::value(uint32_t wire) const {
  return computes_witness() ? values_[wire] : kZero;
}

CircuitBuilder::~CircuitBuilder() {
  if (!values_.empty()) sodium_memzero(values_.data(), values_.size() * sizeof(Fr));
}

void CircuitBuilder::grow_values() {
  std::vector<Fr> bigger;
  bigger.reserve(values_.capacity() < 1024 ? 1024 : 2 * values_.capacity());
  bigger.assign(values_.begin(), values_.end());
  sodium_memzero(values_.data(), values_.size() * sizeof(Fr));
  values_.swap(bigger);
}

void CircuitBuilder::reserve(const SizeHint& hint) {
  if (computes_witness() && hint.wires > values_.capacity()) {
    std::vector<Fr> exact;
    exact.reserve(hint.wires);
    exact.assign(values_.begin(), values_.end());
    sodium_memzero(values_.data(), values_.size() * sizeof(Fr));
    values_.swap(exact);
  }
  if (!records_shape()) return;
  for (SparseMatrix* m : {&r1cs_.a, &r1cs_.b, &r1cs_.c}) m->row_start.reserve(hint.constraints + 1);
  r1cs_.a.terms.reserve(hint.terms_a);
  r1cs_.b.terms.reserve(hint.terms_b);
  r1cs_.c.terms.reserve(hint.terms_c);
  r1cs_.labels.reserve(hint.constraints);
}

Var CircuitBuilder::public_input(const Fr& value) {
  // The public inputs are wires 1..num_public: none may follow a private wire.
  if (num_wires_ != 1 + num_public_) std::abort();
  ++num_public_;
  return private_wire(value);
}

Var CircuitBuilder::private_wire(const Fr& value) {
  if (computes_witness()) {
    if (values_.size() == values_.capacity()) grow_values();
    values_.push_back(value);
  }
  return Var{num_wires_++, this};
}

std::string CircuitBuilder::label_for(std::string_view label) const {
  std::string out = scope_;
  if (!out.empty() && !label.empty()) out += '/';
  out += label;
  return out;
}

void CircuitBuilder::enforce(const Lc& a, const Lc& b, const Lc& c, std::string_view label) {
  ++num_constraints_;
  if (!records_shape()) return;
  if (computes_witness() && !first_violation_ && !(a.value() * b.value() == c.value())) {
    first_violation_ = num_constraints_ - 1;
    first_violation_label_ = label_for(label);
  }
  row_a_.clear();
  row_b_.clear();
  row_c_.clear();
  a.append_to_row(row_a_);
  b.append_to_row(row_b_);
  c.append_to_row(row_c_);
  r1cs_.add_constraint(row_a_, row_b_, row_c_, label_for(label));
}

void CircuitBuilder::skip_constraints(size_t n) {
  if (records_shape()) std::abort();
  num_constraints_ += n;
}

void CircuitBuilder::enforce_equal(const Lc& a, const Lc& b, std::string_view label) {
  enforce(a, Lc::constant(1), b, label);
}

Var CircuitBuilder::mul(const Lc& x, const Lc& y, std::string_view label) {
  Var z = private_wire(x.value() * y.value());
  enforce(x, y, z, label);
  return z;
}

CircuitBuilder::Scope::Scope(CircuitBuilder& b, std::string_view name, int index)
    : b_(b), saved_length_(b.scope_.size()) {
  if (!b.records_shape()) return;
  if (!b.scope_.empty()) b.scope_ += '/';
  b.scope_ += name;
  if (index >= 0) {
    b.scope_ += '[';
    b.scope_ += std::to_string(index);
    b.scope_ += ']';
  }
}

CircuitBuilder::Scope::~Scope() {
  b_.scope_.resize(saved_length_);
}

R1cs CircuitBuilder::take_r1cs() {
  r1cs_.num_wires = num_wires_;
  r1cs_.num_public = num_public_;
  return std::move(r1cs_);
}

std::vector<Fr> CircuitBuilder::take_witness() {
  std::vector<Fr> out;
  out.swap(values_);
  return out;
}

}  // namespace enygma::circuit
