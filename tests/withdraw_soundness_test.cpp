// Soundness of the withdraw circuit against invalid requests (validation bypassed) and forged
// hints:
//  - for every rule of withdraw-relation.md and every kind of breakage the withdraw rule
//    breaker knows (tests/support/withdraw_rule_breaker.hpp), validation refuses the broken
//    request naming that rule, and its witness does not satisfy the R1CS (R9w cannot fail alone
//    and is broken with its companions);
//  - in particular: sender_tx_value above the notes' sum (the reference's minting), a note
//    whose PK reduction is aliased, one note listed twice, a foreign hash in an unused slot;
//  - changing any single private wire of an honest witness breaks satisfaction.
//
// Sweeps: by default k = 2, 3, 6 (and 16 for the single-wire audit); with ENYGMA_SWEEP=full in
// the environment every k = 2..16, with more seeds per variant.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

#include "core/payment/relation.hpp"
#include "core/payment/rules.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "core/primitives/poseidon.hpp"
#include "core/withdraw/request.hpp"
#include "core/withdraw/validate.hpp"
#include "core/withdraw/withdraw_circuit.hpp"
#include "support/payment_circuit_checks.hpp"
#include "support/payment_families.hpp"
#include "support/sweep.hpp"
#include "support/withdraw_rule_breaker.hpp"

namespace enygma {
namespace {

const test::PaymentCircuitUnderTest<WithdrawRequest>& kWithdrawCircuit =
    test::withdraw_under_test();

void expect_refused(const WithdrawRequest& req, const std::vector<std::string>& rules) {
  EXPECT_EQ(payment::failed_rule_ids(validate_withdraw_all(req)), rules);
  EXPECT_FALSE(kWithdrawCircuit.satisfies(req));
  const std::string label = first_violated_withdraw_constraint(req);
  EXPECT_TRUE(test::label_names_rule(label, rules[0])) << label;
}

TEST(WithdrawSoundness, EveryRuleBreakerRequestFails) {
  const unsigned seeds = test::full_sweep() ? 4 : 1;
  test::check_every_breakage(kWithdrawCircuit, kWithdrawCircuit.load("withdraw-k2.json", 2),
                             seeds + 1);
  test::check_every_breakage(kWithdrawCircuit, kWithdrawCircuit.load("withdraw-k6.json", 6), seeds);
  // No unused slot (ten notes), no used slot (no note), and some of each.
  for (unsigned k : test::sweep_ks({2, 3})) {
    for (unsigned notes : {0u, 3u, 10u}) {
      SCOPED_TRACE(testing::Message() << "wallet k=" << k << " notes=" << notes);
      test::check_every_breakage(kWithdrawCircuit,
                                 test::withdraw_wallet_request(k, 50 + k + notes, notes), seeds);
    }
  }
}

TEST(WithdrawSoundness, FirstViolatedConstraintNamesTheBrokenRule) {
  // Diagnostics: for a rule broken alone by changing a value the circuit reads directly, the
  // first violated constraint carries that rule's id. Not R9w (broken with R15w, which the
  // circuit checks first) nor R14 (a changed random value moves the commitment R13 checks).
  const WithdrawRequest valid = test::withdraw_wallet_request(3, 5, 3);
  for (const char* rule : {"R1", "R2w", "R3", "R4", "R5", "R6", "R7", "R8", "R12", "R13", "R15w",
                           "R16", "W1", "W2", "W3", "W4", "W5"}) {
    auto broken = test::break_withdraw_rule(valid, rule, 0);
    ASSERT_TRUE(broken.ok()) << broken.error().message;
    const std::string label = first_violated_withdraw_constraint(broken->request);
    EXPECT_TRUE(test::label_names_rule(label, rule))
        << rule << " (" << broken->how << "): " << label;
  }
}

// R2w's bound: a credit of 2^252 or more (tx_values[j] and its commitment following) is refused
// as R2w, whatever else it breaks (W3: more than the notes hold).
TEST(WithdrawSoundness, ACreditOf2To252OrMoreIsR2w) {
  for (unsigned k : {2u, 6u}) {
    WithdrawRequest q = test::withdraw_wallet_request(k, 60 + k, 3);
    const std::optional<unsigned> j = payment::sender_index(q);
    ASSERT_TRUE(j.has_value());
    U256 two_252;
    two_252.w[3] = uint64_t(1) << 60;
    for (uint64_t plus : {0u, 1u, 12345u}) {
      const Fr v = *Fr::from_canonical(two_252) + Fr::from_u64(plus);
      q.sender_tx_value = v;
      q.tx_values[*j] = v;
      q.tx_commits[*j] = babyjubjub::pedersen(v, q.tx_random_values[*j]);
      const std::vector<std::string> failed = payment::failed_rule_ids(validate_withdraw_all(q));
      EXPECT_NE(std::find(failed.begin(), failed.end(), "R2w"), failed.end())
          << "k=" << k << " plus=" << plus;
      auto first = validate_withdraw(q);
      ASSERT_FALSE(first.ok());
      EXPECT_EQ(first.error().rule, "R2w");
      EXPECT_EQ(first.error().message, "R2w: sender_tx_value is not below 2^252");
      EXPECT_FALSE(kWithdrawCircuit.satisfies(q));
    }
  }
}

TEST(WithdrawSoundness, MoreThanTheNotesSumIsRefused) {
  // The reference's minting (withdraw-relation.md item 1): v above the notes' sum, tx_values[j]
  // and its commitment following, so that every balance-side rule holds.
  for (unsigned k : test::sweep_ks({2, 6, 16})) {
    WithdrawRequest q = test::withdraw_wallet_request(k, 7 + k, 2);
    const unsigned j = *payment::sender_index(q);
    q.sender_tx_value += Fr::from_u64(1000000);
    q.tx_values[j] = q.sender_tx_value;
    q.tx_commits[j] = babyjubjub::pedersen(q.tx_values[j], q.tx_random_values[j]);
    SCOPED_TRACE(testing::Message() << "k=" << k);
    expect_refused(q, {"W3"});
  }
  // With no note at all (every v_d = 0, where the reference checks no note).
  WithdrawRequest none = test::withdraw_wallet_request(3, 1, 0);
  const unsigned j = *payment::sender_index(none);
  none.sender_tx_value = none.tx_values[j] = Fr::from_u64(1000050);
  none.tx_commits[j] = babyjubjub::pedersen(none.tx_values[j], none.tx_random_values[j]);
  expect_refused(none, {"W3"});
}

TEST(WithdrawSoundness, ANoteWithAnAliasedSpendKeyIsRefused) {
  // Whoever knows a note's opening but not its secret (the reference's inexact PK, item 3):
  // the hash of Note(r + m*l, ...) or of a wrapped representative of Poseidon(sk_d, sk_d).
  const WithdrawRequest valid = kWithdrawCircuit.load("withdraw-k6.json", 6);
  const Fr x = poseidon(valid.sk_deposits[0], valid.sk_deposits[0]);
  const std::vector<Fr> aliases = relation::mod_l_aliases(x);
  ASSERT_FALSE(aliases.empty());
  for (const Fr& alias : aliases) {
    WithdrawRequest q = valid;
    q.hashes[0] = relation::note_hash(alias, q.salts_in[0], q.v_per_deposit[0], q.address);
    expect_refused(q, {"W1"});
  }
}

TEST(WithdrawSoundness, ANoteListedTwiceIsRefused) {
  for (unsigned notes : {1u, 9u}) {
    WithdrawRequest q = test::withdraw_wallet_request(3, 33 + notes, notes);
    unsigned d = 0, e = 0;
    while (q.hashes[d].is_zero()) ++d;
    while (!q.hashes[e].is_zero()) ++e;
    q.hashes[e] = q.hashes[d];
    q.sk_deposits[e] = q.sk_deposits[d];
    q.salts_in[e] = q.salts_in[d];
    q.v_per_deposit[e] = q.v_per_deposit[d];
    const unsigned j = *payment::sender_index(q);
    q.sender_tx_value += q.v_per_deposit[d];
    q.tx_values[j] = q.sender_tx_value;
    q.tx_commits[j] = babyjubjub::pedersen(q.tx_values[j], q.tx_random_values[j]);
    SCOPED_TRACE(testing::Message() << "notes=" << notes);
    expect_refused(q, {"W5"});
  }
}

TEST(WithdrawSoundness, AForeignHashInAnUnusedSlotIsRefused) {
  // withdraw-k6-bad.json's kind (item 7): another owner's note published in a slot with v_d = 0.
  for (unsigned k : test::sweep_ks({2, 6})) {
    WithdrawRequest q = test::withdraw_wallet_request(k, 21 + k, 4);
    unsigned e = 0;
    while (!q.hashes[e].is_zero()) ++e;
    q.hashes[e] = relation::note_hash(relation::public_key(Fr::from_u64(777)), Fr::from_u64(1),
                                      Fr::from_u64(20), q.address);
    SCOPED_TRACE(testing::Message() << "k=" << k);
    expect_refused(q, {"W1"});
  }
}

// Every private wire is checked: the free inputs (sender_id, sk, ss, the bits of V, R and v,
// tv, address) no longer match the public values when changed alone, and the note openings and
// hints after them (v_d's bound walk, PK's quotient and remainder, zero tests, W5's inverses,
// S-box powers, lambdas, coordinates, selections) are each pinned by their constraints.
void check_no_free_wire(const WithdrawRequest& req) {
  test::expect_no_free_wire(kWithdrawCircuit, req, 2 + req.k + 254 + 251 + 123 + req.k + 1,
                            "notes and hints");
}

TEST(WithdrawSoundness, NoSingleWireCanChange) {
  check_no_free_wire(kWithdrawCircuit.load("withdraw-k2.json", 2));
  check_no_free_wire(kWithdrawCircuit.load("withdraw-k6.json", 6));
  for (unsigned k : test::sweep_ks({2, 3, 6, 16})) {
    SCOPED_TRACE(testing::Message() << "k=" << k);
    check_no_free_wire(test::withdraw_wallet_request(k, 90 + k, 1 + k % 10));
  }
  check_no_free_wire(test::withdraw_wallet_request(3, 5, 0));
  check_no_free_wire(test::withdraw_wallet_request(3, 5, 10));
}

}  // namespace
}  // namespace enygma
