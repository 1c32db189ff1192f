// The request side of a CircuitFamily (witness, witness_unchecked, validate_all,
// first_violation), written once for every family. A family gives its own four functions in a
// struct F:
//   static Result<Request> parse(std::string_view json, unsigned k);  // format errors: "input"
//   static Status validate(const Request&);                 // the first failing rule, in order
//   static std::vector<Error> validate_all(const Request&); // every failing rule, in order
//   static std::vector<Fr> witness(const Request&);         // empty when the shape is wrong
//   static std::string first_violation(const Request&);     // "" when the witness satisfies
// and sets the entries with RequestFunctions<F>::fill(family).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/circuit/circuit_family.hpp"

namespace enygma::circuit {

template <class F>
struct RequestFunctions {
  static Result<std::vector<Fr>> witness_unchecked(std::string_view json, unsigned k) {
    auto req = F::parse(json, k);
    if (!req) return req.error();
    return witness_of(*req);
  }

  static Result<std::vector<Fr>> witness(std::string_view json, unsigned k) {
    auto req = F::parse(json, k);
    if (!req) return req.error();
    if (Status st = F::validate(*req); !st) return st.error();
    return witness_of(*req);
  }

  static std::vector<Error> validate_all(std::string_view json, unsigned k) {
    auto req = F::parse(json, k);
    if (!req) return {req.error()};
    return F::validate_all(*req);
  }

  static Result<std::string> first_violation(std::string_view json, unsigned k) {
    auto req = F::parse(json, k);
    if (!req) return req.error();
    return F::first_violation(*req);
  }

  // The four entries of `family`.
  static constexpr CircuitFamily with(CircuitFamily family) {
    family.witness = &witness;
    family.witness_unchecked = &witness_unchecked;
    family.validate_all = &validate_all;
    family.first_violation = &first_violation;
    return family;
  }

 private:
  template <class Request>
  static Result<std::vector<Fr>> witness_of(const Request& req) {
    std::vector<Fr> w = F::witness(req);
    if (w.empty()) return make_error("the request does not have the circuit's shape", "input");
    return w;
  }
};

}  // namespace enygma::circuit
