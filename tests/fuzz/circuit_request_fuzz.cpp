// Fuzz target: every registered circuit family's request path, through the registry's table
// (core/circuit/circuit_family.hpp), so that a family added later is fuzzed with no new code.
// Each input is a request for every family (k = 2 for the families that have a k):
// - validate_all names every failing rule once, each with a rule and a message;
// - witness succeeds exactly when validate_all finds nothing, and otherwise fails with the
//   first rule validate_all names;
// - witness_unchecked fails only on a request that does not parse (validate_all then reports
//   that parse error alone), and on a valid request gives the same witness as witness;
// - completeness: a valid request's witness satisfies the family's constraint system;
// - soundness: a request that parses but breaks one of the relation's rules (not a rule
//   "input" error, which covers values the circuit cannot see as such) gives a witness that
//   does not satisfy it, unless a failing rule names a field that the family's circuit derives
//   instead of reading (CircuitFamily::fields_derived_by_circuit): the witness then holds the
//   derived values, which keep the relation, and the request's own are not part of what is
//   proven. (This target's first finding: one digit changed in a withdraw request's
//   tx_random_values[1], regressions/circuit_request/.)
// (request_fuzz.cpp covers the transfer request's parser and printer in depth.)
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/registry/registry.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace enygma;

bool names_derived_field(const CircuitFamily& family, const std::vector<Error>& errors) {
  for (const Error& e : errors) {
    for (std::string_view f : family.fields_derived_by_circuit) {
      if (std::string_view(e.field).starts_with(f)) return true;
    }
  }
  return false;
}

void check_family(const CircuitFamily& family, std::string_view text) {
  const unsigned k = family.has_k() ? 2 : 0;
  const std::vector<Error> all = family.validate_all(text, k);
  std::set<std::string> rules;
  for (const Error& e : all) {
    FUZZ_CHECK(!e.rule.empty() && !e.message.empty());
    FUZZ_CHECK(rules.insert(e.rule).second);
  }

  auto witness = family.witness(text, k);
  FUZZ_CHECK(witness.ok() == all.empty());
  if (!witness.ok()) FUZZ_CHECK(witness.error().rule == all.front().rule);

  auto unchecked = family.witness_unchecked(text, k);
  if (!unchecked.ok()) {
    FUZZ_CHECK(all.size() == 1 && all.front().rule == unchecked.error().rule &&
               !unchecked.error().message.empty());
    return;
  }
  auto id = find_circuit(family.name, k);
  FUZZ_CHECK(id.ok());
  const R1cs& r1cs = circuit_r1cs(*id);
  FUZZ_CHECK(unchecked->size() == r1cs.num_wires && (*unchecked)[0] == Fr::one());
  if (witness.ok()) {
    FUZZ_CHECK(*witness == *unchecked);
    FUZZ_CHECK(!r1cs.first_unsatisfied(*witness).has_value());
    return;
  }
  if (!rules.contains("input") && !names_derived_field(family, all)) {
    FUZZ_CHECK(r1cs.first_unsatisfied(*unchecked).has_value());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = enygma::fuzz::as_text(data, size);
  for (const CircuitFamily* family : enygma::circuit_families()) check_family(*family, text);
  return 0;
}
