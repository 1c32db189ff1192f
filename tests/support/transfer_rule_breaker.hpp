// Requests that break chosen rules of ../shared/docs/transfer-relation.md, for soundness tests:
// from a VALID request, change the fewest values (re-deriving the public values that depend on
// them) so that exactly the named rule fails, as validate_transfer_all judges it.
//
// Two rules cannot fail alone, whatever the request:
//   R9  follows from R2 + R14 + R15: R14 makes sum(tr) = 0 mod l, and R2 with R15 make
//       sum(tv) = tv[j] + v = l (or 0 when v = 0) as integers.
//   R10 follows from R9 + R13: sum(tc) = sum(tv) * G + sum(tr) * H = O.
// For them break_rule returns an Error and break_rule_minimal breaks a smallest set:
//   R9:  {R9, R10, R15} (variant 0: a receiver's tx_values[r] += delta, tx_commits[r]
//        recomputed) or {R9, R13, R15} (variant 1: the same without recomputing tx_commits[r]);
//   R10: {R10, R13} (variants 0, 1: tx_commits[a] += G, or + the order-2 point (0, -1)) or
//        {R9, R10, R15} (variant 2, as R9 variant 0).
// R2 breaks alone only by an alias of tx_values[j] (variant 0); changing v or moving value from
// tx_values[j] to a receiver also breaks R15 (variants 1, 2: {R2, R15}), for which break_rule
// returns an Error too.
//
// variant_seed % break_rule_variants(rule) selects the kind of breakage (listed per rule in
// rule_breaker.cpp); the remaining bits pick the indices and values. Indices are 0-based, j is
// the sender index of R1, "a receiver" is any i != j. Every result is checked with
// validate_transfer_all before it is returned (an Error otherwise), and secrets stay consistent
// with the public values except where the broken rule says otherwise.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/transfer/request.hpp"
#include "core/util/result.hpp"

namespace enygma {

struct BrokenRequest {
  TransferRequest request;
  std::vector<int> broken_rules;  // ascending; {rule} when the rule is broken alone
  std::string how;                // what was changed, e.g. "tx_values[2] += l"
};

// Number of distinct kinds of breakage for rule 1..15 (0 for anything else).
unsigned break_rule_variants(int rule);

// A request on which validate_transfer_all reports exactly `rule`. Errors: `valid` is not
// valid, rule outside 1..15, rule 9 / 10, or a variant that breaks companions (see above).
Result<TransferRequest> break_rule(const TransferRequest& valid, int rule, uint64_t variant_seed);

// As break_rule, except that R9, R10 (and R2 variants 1, 2) are broken together with the
// companions listed above.
Result<BrokenRequest> break_rule_minimal(const TransferRequest& valid, int rule,
                                         uint64_t variant_seed);

}  // namespace enygma
