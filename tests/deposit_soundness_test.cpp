// Soundness of the deposit circuit against invalid requests (validation bypassed) and forged
// hints:
//  - for every rule of deposit-relation.md and every kind of breakage the deposit rule breaker
//    knows (tests/support/deposit_rule_breaker.hpp), validation refuses the broken request
//    naming that rule, and its witness does not satisfy the R1CS (R9d cannot fail alone and is
//    broken with its companions);
//  - in particular: a deposit that credits another member, the theft between two other members
//    of deposit-k6-bad.json at every k, a note worth more than the debit;
//  - changing any single private wire of an honest witness breaks satisfaction.
//
// Sweeps: by default k = 2, 3, 6 (and 16 for the single-wire audit); with ENYGMA_SWEEP=full in
// the environment every k = 2..16, with more seeds per variant.
#include <gtest/gtest.h>

#include <string>

#include "core/deposit/deposit_circuit.hpp"
#include "core/deposit/request.hpp"
#include "core/deposit/validate.hpp"
#include "core/payment/relation.hpp"
#include "core/payment/rules.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "support/deposit_rule_breaker.hpp"
#include "support/payment_circuit_checks.hpp"
#include "support/payment_families.hpp"
#include "support/sweep.hpp"

namespace enygma {
namespace {

const test::PaymentCircuitUnderTest<DepositRequest>& kDepositCircuit = test::deposit_under_test();

TEST(DepositSoundness, EveryRuleBreakerRequestFails) {
  const unsigned seeds = test::full_sweep() ? 4 : 1;
  test::check_every_breakage(kDepositCircuit, kDepositCircuit.load("deposit-k2.json", 2),
                             seeds + 1);
  test::check_every_breakage(kDepositCircuit, kDepositCircuit.load("deposit-k6.json", 6), seeds);
  for (unsigned k : test::sweep_ks({2, 3})) {
    SCOPED_TRACE(testing::Message() << "wallet k=" << k);
    test::check_every_breakage(kDepositCircuit, test::deposit_wallet_request(k, 50 + k), seeds);
  }
}

TEST(DepositSoundness, ADepositThatCreditsAnotherMemberFails) {
  for (unsigned k : test::sweep_ks({2, 3, 6, 16})) {
    SCOPED_TRACE(testing::Message() << "k=" << k);
    const DepositRequest valid = test::deposit_wallet_request(k, 70 + k);
    const unsigned j = *payment::sender_index(valid);
    // The sender pays v into the note and also credits member r with x: only R15d stands in
    // the way (and R9d, since nothing debits x elsewhere).
    DepositRequest credit = valid;
    const unsigned r = (j + 1) % k;
    credit.tx_values[r] = Fr::from_u64(12345);
    credit.tx_commits[r] = babyjubjub::pedersen(credit.tx_values[r], credit.tx_random_values[r]);
    EXPECT_EQ(payment::failed_rule_ids(validate_deposit_all(credit)),
              (std::vector<std::string>{"R9d", "R15d"}));
    EXPECT_FALSE(kDepositCircuit.satisfies(credit));
    EXPECT_EQ(first_violated_deposit_constraint(credit).rfind("R15d/", 0), 0u)
        << first_violated_deposit_constraint(credit);
    // Theft between two other members (deposit-k6-bad.json's kind): R15d alone.
    if (k >= 3) {
      DepositRequest theft = valid;
      const unsigned c = (j + 2) % k;
      theft.tx_values[r] = Fr::from_u64(1000);
      theft.tx_values[c] = relation::l_as_fr() - Fr::from_u64(1000);
      for (unsigned i : {r, c}) {
        theft.tx_commits[i] = babyjubjub::pedersen(theft.tx_values[i], theft.tx_random_values[i]);
      }
      EXPECT_EQ(payment::failed_rule_ids(validate_deposit_all(theft)),
                std::vector<std::string>{"R15d"});
      EXPECT_FALSE(kDepositCircuit.satisfies(theft));
    }
  }
}

TEST(DepositSoundness, FirstViolatedConstraintNamesTheBrokenRule) {
  // Diagnostics: for a rule broken alone by changing a value the circuit reads directly, the
  // first violated constraint carries that rule's id.
  const DepositRequest valid = test::deposit_wallet_request(3, 5);
  for (const char* rule : {"R1", "R2", "R3", "R5", "R8", "R12", "R15d", "R16", "D1"}) {
    auto broken = test::break_deposit_rule(valid, rule, 0);
    ASSERT_TRUE(broken.ok()) << broken.error().message;
    const std::string label = first_violated_deposit_constraint(broken->request);
    EXPECT_TRUE(test::label_names_rule(label, rule))
        << rule << " (" << broken->how << "): " << label;
  }
}

// Every private wire is checked: the free inputs (sender_id, sk, ss, the bits of V, v and R,
// tv, the note's pk, saltOut and address) no longer match the public values when changed
// alone, and the hints after them (decompositions, quotients and remainders mod l, runs,
// inverses, S-box powers, lambdas, coordinates, selections) are each pinned by their
// constraints.
void check_no_free_wire(const DepositRequest& req) {
  test::expect_no_free_wire(kDepositCircuit, req, 2 + req.k + 250 + 250 + 251 + req.k + 3, "hints");
}

TEST(DepositSoundness, NoSingleWireCanChange) {
  check_no_free_wire(kDepositCircuit.load("deposit-k2.json", 2));
  check_no_free_wire(kDepositCircuit.load("deposit-k6.json", 6));
  for (unsigned k : test::sweep_ks({2, 3, 6, 16})) {
    SCOPED_TRACE(testing::Message() << "k=" << k);
    check_no_free_wire(test::deposit_wallet_request(k, 90 + k));
  }
}

}  // namespace
}  // namespace enygma
