// Join-split requests that break chosen rules of ../shared/docs/joinsplit-relation.md, for
// soundness tests: from a VALID request, change the fewest values (re-deriving what depends on
// them: leaves, roots, nullifiers, commitments, the outputs' balance) so that exactly the named
// rule fails, as validate_joinsplit_all judges it.
//
// Rules that cannot fail alone:
//   J10 is a property of the circuit (nftCommitment and every tree number enter a constraint),
//       true of every request: break_joinsplit_rule returns an Error. The tests show it on the
//       constraint system (a changed public input alone breaks a constraint) and with Groth16
//       (a proof does not verify with another nftCommitment or tree number).
// Variants that break a minimal set instead of one rule (break_joinsplit_rule_minimal):
//   J1 variants 2 and 3, {J1, J8}: an amount "below zero" (p - x) balanced in F_p by another,
//       so that every field sum is unchanged and only the integer sums differ: J1's bound is
//       what keeps J8's field equality exact.
//
// Where a rule is about a slot's leaf or key (J2, J4, J5), the breaker picks a slot whose
// amount is not zero (making slot 0 carry 1, balanced by an output, when none does): with a
// zero amount the root is not checked (J5) and such a change would not reach the statement.
//
// variant_seed % joinsplit_break_variants(rule) selects the kind of breakage (listed per rule
// in joinsplit_rule_breaker.cpp); the remaining bits pick slots and values. Every result is
// checked with validate_joinsplit_all before it is returned (an Error otherwise).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/joinsplit/request.hpp"
#include "core/util/result.hpp"

namespace enygma {

struct BrokenJoinSplit {
  JoinSplitRequest request;
  std::vector<int> broken_rules;  // ascending; {rule} when the rule is broken alone
  std::string how;                // what was changed, e.g. "merkleProofs[0].elements[4] += 1"
};

// Number of kinds of breakage for rule 1..11 (0 for J10 and anything else).
unsigned joinsplit_break_variants(int rule);

// A request on which validate_joinsplit_all reports exactly `rule`. Errors: `valid` is not
// valid, the rule cannot fail alone (J10) or the variant breaks a set (J1 variants 2, 3).
Result<JoinSplitRequest> break_joinsplit_rule(const JoinSplitRequest& valid, int rule,
                                              uint64_t variant_seed);

// As break_joinsplit_rule, with the minimal sets listed above allowed.
Result<BrokenJoinSplit> break_joinsplit_rule_minimal(const JoinSplitRequest& valid, int rule,
                                                     uint64_t variant_seed);

}  // namespace enygma
