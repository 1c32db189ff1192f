// Deposit requests that break chosen rules of ../shared/docs/deposit-relation.md, for soundness
// tests: from a VALID request, change the fewest values (re-deriving the public values that
// depend on them, the note hash included) so that exactly the named rule fails, as
// validate_deposit_all judges it.
//
// R9d cannot fail alone: R15d makes every other tv[i] zero and R14 makes sum(tr) = 0 mod l,
// which is R9d. Its variants break a smallest set: 0 {R9d, R15d} (a deposit that credits
// another member: tx_values[r] += delta, tx_commits[r] recomputed); 1 {R9d, R14}
// (tx_random_values[a] += delta alone, tx_commits[a] recomputed).
//
// Variants (variant_seed % deposit_rule_variants(rule); the shared ones as
// payment_rule_breaker.hpp lists them):
//   R2   0 tx_values[j] += m*l (same commitment);  1 sender_tx_value := v + 1 or v - 1 within
//        [0, V], the note hash recomputed (V >= 1, else variant 0);  2 tx_values[j] += delta,
//        tx_commits[j] recomputed (the deposit debits less than v)
//   R11  0 V += l (the same commitment: the overspend of the reference);  1 V := 2^250,
//        previous_commits[j] recomputed;  2 v := V + delta with tx_values[j], tx_commits[j] and
//        the note hash recomputed (a note worth more than the balance);  3 V := v - 1,
//        previous_commits[j] recomputed (v >= 1, else variant 2)
//   R13  the shared point variants 0..3 (R10 does not apply: one changed commitment suffices)
//   R9d, R15d  the shared variants (R15d variant 0, a theft between two other members, is what
//        the reference proves in deposit-k6-bad.json)
//   D1   0 hash += delta;  1 saltOut += 1;  2 address += 1;  3 pk := another owner's key;
//        4 hash := the note of v + 1 (a note worth more than the debit)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/deposit/request.hpp"
#include "core/util/result.hpp"
#include "support/payment_rule_breaker.hpp"

namespace enygma::test {

using BrokenDeposit = BrokenPayment<DepositRequest>;

// Number of distinct kinds of breakage for a rule id of the deposit relation (0 otherwise).
unsigned deposit_rule_variants(std::string_view rule);

// A request on which validate_deposit_all reports exactly broken_rules (the rule alone, except
// R9d). Errors: `valid` is not valid, no such rule, or the claim did not hold.
Result<BrokenDeposit> break_deposit_rule(const DepositRequest& valid, std::string_view rule,
                                         uint64_t variant_seed);

}  // namespace enygma::test
