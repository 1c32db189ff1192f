// Ownership requests that break chosen rules of ../shared/docs/ownership-relation.md, for
// soundness tests: from a VALID request, change the fewest values (re-deriving what depends on
// them) so that exactly the named rule fails, as validate_ownership_all judges it.
//
// O7 cannot fail: it is a property of the circuit (paymentCommitment and treeNumber enter a
// constraint), true of every request; break_ownership_rule returns an Error for it. The tests
// show it on the constraint system and with Groth16 (see ownership_soundness_test.cpp).
//
// variant_seed % ownership_break_variants(rule) selects the kind of breakage (listed in
// ownership_rule_breaker.cpp); every result is checked with validate_ownership_all.
#pragma once

#include <cstdint>
#include <string>

#include "core/ownership/request.hpp"
#include "core/util/result.hpp"

namespace enygma {

struct BrokenOwnership {
  OwnershipRequest request;
  std::string how;
};

// Number of kinds of breakage for rule 1..7 (0 for O7 and anything else).
unsigned ownership_break_variants(int rule);

// A request on which validate_ownership_all reports exactly `rule`.
Result<BrokenOwnership> break_ownership_rule(const OwnershipRequest& valid, int rule,
                                             uint64_t variant_seed);

}  // namespace enygma
