// Withdraw requests that break chosen rules of ../shared/docs/withdraw-relation.md, for
// soundness tests: from a VALID request, change the fewest values (re-deriving the public
// values that depend on them: note hashes, and v with tx_values[j] and its commitment when an
// amount changes) so that exactly the named rule fails, as validate_withdraw_all judges it.
//
// R9w cannot fail alone: R15w makes every other tv[i] zero and R14 makes sum(tr) = 0 mod l,
// which is R9w. Its variants break a smallest set: 0 {R9w, R15w} (tx_values[r] += delta,
// tx_commits[r] recomputed); 1 {R9w, R14} (tx_random_values[a] += delta alone, tx_commits[a]
// recomputed).
//
// Variants (variant_seed % withdraw_rule_variants(rule); the shared ones as
// payment_rule_breaker.hpp lists them; "a used slot" has hashes[d] != 0, "an unused" 0):
//   R2w  0 tx_values[j] += m*l (same commitment);  1 tx_values[j] += delta, tx_commits[j]
//        recomputed (the balance credited more than v)
//   R7   the shared variants, V unbounded (R11 does not apply: V := V + 1 always)
//   R13  the shared point variants 0..3 (R10 does not apply)
//   R9w, R15w  as R9d, R15d (the shared variants)
//   W1   0 a foreign hash in an unused slot (another owner's note; v_d stays 0; with no unused
//        slot, variant 2);  1 a used slot's hash made with an alias of Poseidon(sk_d, sk_d)
//        (relation::mod_l_aliases: the inexact PK of the reference);  2 saltsIn[d] += 1, hash
//        kept;  3 sk_deposits[d] += 1, hash kept;  4 address += 1, hashes kept. 1..4 need a
//        used slot (else variant 0).
//   W2   a slot d's amount raised, its hash and v (tx_values[j], tx_commits[j]) recomputed:
//        0 v_d := 10^36;  1 v_d := 2^120 (beyond the 120 bits of the bound walk)
//   W3   0 v += delta (the minting of the reference, withdraw-k2-bad.json);  1 v -= delta
//        (v >= 1, else variant 0); tx_values[j] and tx_commits[j] follow v
//   W4   0 an unused slot's v_d := delta > 0, v following (needs an unused slot, else 1);
//        1 a used slot with v_d > 0 gets hash 0 (needs one, else 0)
//   W5   a note listed twice: a used slot copied into another slot (an unused one when there
//        is one), v following (with no used slot, a fresh note is made in both)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.hpp"
#include "core/withdraw/request.hpp"
#include "support/payment_rule_breaker.hpp"

namespace enygma::test {

using BrokenWithdraw = BrokenPayment<WithdrawRequest>;

// Number of distinct kinds of breakage for a rule id of the withdraw relation (0 otherwise).
unsigned withdraw_rule_variants(std::string_view rule);

// A request on which validate_withdraw_all reports exactly broken_rules (the rule alone, except
// R9w). Errors: `valid` is not valid, no such rule, or the claim did not hold.
Result<BrokenWithdraw> break_withdraw_rule(const WithdrawRequest& valid, std::string_view rule,
                                           uint64_t variant_seed);

}  // namespace enygma::test
