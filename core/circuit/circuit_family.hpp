// What a circuit family declares so that every shell (CLI, server, WebAssembly module, demo,
// benchmarks, tests) serves it with no per-circuit code: its name and anonymity-set sizes, its
// routes, its R1CS, and how a request JSON becomes a witness (parse, validate with rule-naming
// errors, compute). One family per folder of core/ (core/transfer, core/deposit, ...), each
// exporting one `const CircuitFamily& <name>_family()`; core/registry/registry.cpp lists them
// (this declaration sits with the circuit builder, below the families; the table above them).
//
// Everything here is plain data and function pointers (no virtual calls, no allocation at
// start-up): a family is a constant, and a circuit is a family with a k (CircuitId).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/field/fr.hpp"
#include "core/r1cs/r1cs.hpp"
#include "core/util/result.hpp"

namespace enygma {

struct CircuitFamily {
  // The family's name: CLI --circuit, key-file stem, metrics label ("transfer",
  // "joinsplit-enygma"). Lower case letters, digits and '-'.
  std::string_view name;
  // One line for `enygma info` and help texts.
  std::string_view summary;
  // The relation document in ../shared/docs that specifies it.
  std::string_view relation_document;

  // Anonymity-set sizes one definition serves, and those the server loads by default. A family
  // without k has all four 0.
  unsigned min_k = 0, max_k = 0;
  unsigned default_min_k = 0, default_max_k = 0;

  // HTTP routes (POST), "{k}" standing for k: the reference service's proving route, and this
  // project's verifying route (a response JSON in, {"valid": ...} out).
  std::string_view prove_route;   // "/generateProofTransfer-{k}", "/ownership-721"
  std::string_view verify_route;  // "/verifyProofTransfer-{k}", "/verifyProof/ownership-721"

  // The constraint system for k (shape only; deterministic: the same k gives the same bytes).
  // The registry caches it; call circuit_r1cs() rather than this.
  R1cs (*build_r1cs)(unsigned k) = nullptr;

  // Request JSON -> the full witness (num_wires values: [0] = 1, then the public inputs in the
  // documented public_signal order, then the private wires), after parsing (errors: rule
  // "input", the field named) and validating every rule of the relation (errors: the rule id
  // and the field, "R15: tx_values[2] ..."). The caller wipes the witness after use.
  Result<std::vector<Fr>> (*witness)(std::string_view request_json, unsigned k) = nullptr;

  // The same with validation bypassed: the witness computed from whatever the request says
  // (for soundness tests: the witness of an invalid request must not satisfy the R1CS). Errors
  // only when the request does not parse.
  Result<std::vector<Fr>> (*witness_unchecked)(std::string_view request_json, unsigned k) = nullptr;

  // Parse + validate without a witness: every failing rule (at most one Error per rule, in
  // rule order; a parse error alone when it does not parse). Empty when the request is valid.
  std::vector<Error> (*validate_all)(std::string_view request_json, unsigned k) = nullptr;

  // Wallet side: a valid request JSON built from a 32-byte seed (deterministic). `count` is the
  // family's main count, 0 for its default: transfer, the recipients sharing v (1..k-1);
  // withdraw, the notes consumed (1..10); join-split, the real inputs (0..10); otherwise unused.
  // Errors (rule "wallet", field "count": "count (the recipients) = 2 is not in 1..k-1") when
  // count is out of range.
  Result<std::string> (*make_request)(unsigned k, const std::array<uint8_t, 32>& seed,
                                      unsigned count) = nullptr;

  // The label of the first constraint that the request's witness (validation bypassed) violates,
  // "" when it satisfies them all; an Error when the request does not parse. Builds the
  // labelled system: slow, for diagnostics (`enygma witness --explain`) and tests.
  Result<std::string> (*first_violation)(std::string_view request_json, unsigned k) = nullptr;

  // Request fields that the circuit does not read because it derives their values itself (the
  // payment families' tx_random_values, from R14's Poseidon hashes). A request can break a rule
  // through such a field alone and still give a witness (validation bypassed) that satisfies the
  // constraints: what is proven then holds with the derived values, not the request's. Soundness
  // checks that run on arbitrary requests (tests/fuzz/circuit_request_fuzz.cpp) leave out
  // failures that name one of them (an Error's field, or a path under it).
  std::span<const std::string_view> fields_derived_by_circuit = {};

  bool has_k() const { return max_k != 0; }
};

}  // namespace enygma
