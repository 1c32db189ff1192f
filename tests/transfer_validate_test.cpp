// R1..R16 natively: the reference requests, the error format, the project rules' edges, and
// the rule breaker (each rule broken alone, as validate_transfer_all judges).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "core/payment/relation.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "core/primitives/poseidon.hpp"
#include "core/transfer/request.hpp"
#include "core/transfer/validate.hpp"
#include "core/transfer/wallet.hpp"
#include "support/payment_rule_breaker.hpp"
#include "support/transfer_rule_breaker.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

namespace bjj = babyjubjub;

using test::read_vector;

std::optional<TransferRequest> load_transfer(const char* name, unsigned k) {
  const std::string text = read_vector(name);
  if (text.empty()) return std::nullopt;
  auto r = parse_transfer_request(text, k);
  EXPECT_TRUE(r.ok()) << name << ": " << (r.ok() ? "" : r.error().message);
  if (!r.ok()) return std::nullopt;
  return std::move(r).value();
}

#define LOAD_REQUEST_OR_SKIP(var, name, k) \
  auto var##_opt = load_transfer(name, k); \
  if (!var##_opt) GTEST_SKIP() << name;    \
  TransferRequest& var = *var##_opt

std::vector<int> rules_of(const TransferRequest& q) {
  return failed_rules(validate_transfer_all(q));
}

TEST(TransferValidate, ReferenceRequestsAreValid) {
  LOAD_REQUEST_OR_SKIP(k2, "transfer-k2.json", 2);
  LOAD_REQUEST_OR_SKIP(k6, "transfer-k6.json", 6);
  for (const TransferRequest* q : {&k2, &k6}) {
    Status st = validate_transfer(*q);
    EXPECT_TRUE(st.ok()) << st.error().message;
    EXPECT_TRUE(validate_transfer_all(*q).empty());
    EXPECT_EQ(sender_index(*q), 0u);
  }
}

TEST(TransferValidate, TheBadK2RequestBreaksR2First) {
  // transfer-k2-bad.json is transfer-k2.json with tx_values[0] = 10: the sender's entry is no
  // longer (l - 0) mod l (R2), the values no longer sum to 0 mod l (R9), and tx_commits[0] no
  // longer opens to it (R13).
  LOAD_REQUEST_OR_SKIP(bad, "transfer-k2-bad.json", 2);
  Status st = validate_transfer(bad);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "R2");
  EXPECT_EQ(st.error().field, "tx_values[0]");
  EXPECT_EQ(st.error().message, "R2: tx_values[0] is not (l - sender_tx_value) mod l");
  EXPECT_EQ(rules_of(bad), (std::vector<int>{2, 9, 13}));
  const auto all = validate_transfer_all(bad);
  EXPECT_EQ(all[2].message,
            "R13: tx_commits[0] is not Pedersen(tx_values[0], tx_random_values[0])");
  EXPECT_EQ(all[2].field, "tx_commits[0]");
  EXPECT_EQ(all[1].field, "tx_values");
}

// R15 (issue 17's attacks, on a k = 3 wallet request paying one member).
TEST(TransferValidate, R15RefusesTheftAndValueFromNowhere) {
  TransferRequest valid = make_transfer(wallet_inputs_from_seed(3, uint64_t(21)));
  const unsigned j = *sender_index(valid);
  unsigned a = (j + 1) % 3, c = (j + 2) % 3;
  if (valid.tx_values[a].is_zero()) std::swap(a, c);  // a is the recipient, c receives 0
  auto recommit = [](TransferRequest& q, unsigned i) {
    q.tx_commits[i] = bjj::pedersen(q.tx_values[i], q.tx_random_values[i]);
  };
  // Theft: the recipient gets X more, taken from the third member (l - X).
  TransferRequest q = valid;
  const Fr x = Fr::from_u64(123456);
  q.tx_values[a] += x;
  q.tx_values[c] = relation::l_as_fr() - x;
  recommit(q, a);
  recommit(q, c);
  Status st = validate_transfer(q);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message,
            "R15: tx_values[" + std::to_string(c) + "] is not a non-negative amount below 2^250");
  EXPECT_EQ(st.error().field, "tx_values[" + std::to_string(c) + "]");
  EXPECT_EQ(rules_of(q), std::vector<int>{15});
  // Value from nowhere: v = 0, four members share l (each below 2^250): every Pedersen sum is
  // unchanged, the amounts are in range, their integer sum is wrong.
  const TransferRequest k6 = make_transfer(wallet_inputs_from_seed(6, uint64_t(22)));
  auto nowhere = break_rule(k6, 15, 1);
  ASSERT_TRUE(nowhere.ok()) << nowhere.error().message;
  EXPECT_TRUE(nowhere->sender_tx_value.is_zero());
  st = validate_transfer(*nowhere);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message,
            "R15: tx_values of the other members do not add up to sender_tx_value (as integers)");
  EXPECT_EQ(st.error().rule, "R15");
  EXPECT_EQ(st.error().field, "tx_values");
  // The sender's own entry is bounded by R2, not R15: tv[j] = l - v may exceed 2^250.
  EXPECT_TRUE(validate_transfer(valid).ok());
}

TEST(TransferValidate, ErrorFormatNamesRuleAndField) {
  LOAD_REQUEST_OR_SKIP(k6, "transfer-k6.json", 6);
  TransferRequest q = k6;
  q.tx_commits[2] = bjj::add(q.tx_commits[2], bjj::generator_g());
  q.tx_commits[4] = bjj::add(q.tx_commits[4], bjj::negate(bjj::generator_g()));
  Status st = validate_transfer(q);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message,
            "R13: tx_commits[2] is not Pedersen(tx_values[2], tx_random_values[2])");
  EXPECT_EQ(st.error().rule, "R13");
  EXPECT_EQ(st.error().field, "tx_commits[2]");

  q = k6;
  q.message_tags[5] += Fr::one();
  q.hashed_shared_secrets[3] += Fr::one();
  auto all = validate_transfer_all(q);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].message,
            "R5: hashed_shared_secrets[3] is not Poseidon(shared_secrets[3], shared_secrets[3]) "
            "mod l");
  EXPECT_EQ(all[1].message,
            "R8: message_tags[5] is not Poseidon(T, shared_secrets[5], block_number) mod l");
  EXPECT_EQ(all[1].field, "message_tags[5]");

  q = k6;
  q.sender_id = Fr::from_u64(99);
  st = validate_transfer(q);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message, "R1: sender_id is not in anonymity_set");
  q = k6;
  q.anonymity_set[4] = q.sender_id;
  st = validate_transfer(q);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().field, "anonymity_set[4]");
  EXPECT_EQ(rules_of(q), std::vector<int>{1});  // the rules that need j are not evaluated

  q = k6;
  q.previous_commits[3].y += Fr::one();
  st = validate_transfer(q);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message, "R3: previous_commits[3] is not on Baby Jubjub");

  q = k6;
  q.nullifier += Fr::one();
  st = validate_transfer(q);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message,
            "R12: nullifier is not Poseidon(hashed_shared_secrets[0], block_number)");
}

TEST(TransferValidate, RejectsInconsistentShapes) {
  LOAD_REQUEST_OR_SKIP(k6, "transfer-k6.json", 6);
  TransferRequest q = k6;
  q.tx_random_values.pop_back();
  Status st = validate_transfer(q);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "input");
  EXPECT_EQ(st.error().field, "tx_random_values");
  q = k6;
  q.k = 17;
  EXPECT_EQ(validate_transfer(q).error().field, "k");
  EXPECT_EQ(failed_rules(validate_transfer_all(q)), std::vector<int>{0});
}

// Project rules: the exact integer statements and their edges.
TEST(TransferValidate, R11BalanceBoundAndAmount) {
  // V = 2^250 - 1 with v = V is valid; V = 2^250 is not, whatever the commitment.
  WalletInputs in = wallet_inputs_from_seed(3, uint64_t(1));
  in.balance = relation::pow2(250) - Fr::one();
  in.amount = in.balance;
  in.payees = {{in.payees[0].index, in.amount}};
  TransferRequest q = make_transfer(in);
  EXPECT_TRUE(validate_transfer(q).ok());
  q.previous_sender_balance = relation::pow2(250);
  q.previous_commits[*sender_index(q)] =
      bjj::pedersen(q.previous_sender_balance, q.previous_sender_random_value);
  EXPECT_EQ(rules_of(q), std::vector<int>{11});
  // V + l opens the same commitment: the reference's overspend, refused by R11 alone.
  q = make_transfer(in);
  q.previous_sender_balance = in.balance + relation::l_as_fr();
  EXPECT_EQ(rules_of(q), std::vector<int>{11});
  EXPECT_EQ(validate_transfer(q).error().message,
            "R11: previous_sender_balance is not below 2^250");
}

TEST(TransferValidate, R16OneBlindingPerCommitment) {
  // R = l - 1 is valid; R + m*l opens the same commitment with another shared secret, hence
  // another nullifier (every value derived from it re-derived): refused by R16 alone, and the
  // wallet refuses to build it.
  WalletInputs in = wallet_inputs_from_seed(3, uint64_t(2));
  in.balance_random = relation::l_as_fr() - Fr::one();
  const TransferRequest valid = make_transfer(in);
  EXPECT_TRUE(validate_transfer(valid).ok());
  for (const Fr& alias : relation::same_residue_aliases(valid.previous_sender_random_value)) {
    in.balance_random = alias;
    const auto refused = make_transfer_checked(in);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().rule, "wallet");
    EXPECT_EQ(refused.error().field, "random");
    TransferRequest q = valid;
    test::set_balance_random(q, alias);
    const unsigned j = *sender_index(q);
    EXPECT_EQ(q.previous_commits[j], valid.previous_commits[j]);
    EXPECT_NE(q.nullifier, valid.nullifier);
    EXPECT_EQ(rules_of(q), std::vector<int>{16});
    EXPECT_EQ(validate_transfer(q).error().field, "previous_sender_random_value");
  }
}

TEST(TransferValidate, R2BoundsAndTheSendersEntry) {
  WalletInputs in = wallet_inputs_from_seed(4, uint64_t(2));
  TransferRequest q = make_transfer(in);
  const unsigned j = *sender_index(q);
  // v = 2^252 breaks R2's bound (and R11).
  q.sender_tx_value = relation::pow2(252);
  auto all = validate_transfer_all(q);
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all[0].message, "R2: sender_tx_value is not below 2^252");
  EXPECT_EQ(failed_rules(all), (std::vector<int>{2, 11, 15}));
  // tx_values[j] + 7l (>= 2^252 for this value, still below p) breaks R2 only.
  q = make_transfer(in);
  Fr seven_l = relation::l_as_fr() * Fr::from_u64(7);
  q.tx_values[j] += seven_l;
  ASSERT_FALSE(relation::below_pow2(q.tx_values[j], 252));
  EXPECT_EQ(validate_transfer(q).error().message,
            "R2: tx_values[" + std::to_string(j) + "] is not below 2^252");
  EXPECT_EQ(rules_of(q), std::vector<int>{2});
  // v = 0 needs tx_values[j] = 0, not l.
  in.amount = Fr::zero();
  in.payees.clear();
  q = make_transfer(in);
  EXPECT_TRUE(q.tx_values[j].is_zero());
  EXPECT_TRUE(validate_transfer(q).ok());
  q.tx_values[j] = relation::l_as_fr();
  EXPECT_EQ(rules_of(q), std::vector<int>{2});
}

TEST(TransferValidate, R9IsAStatementModuloL) {
  // A receiver's tx_values[i] + l: same commitment, sums still 0 mod l, so R9 holds; since R15
  // it is refused as an amount (it is not below 2^250). tx_random_values[i] + l breaks R14 only.
  WalletInputs in = wallet_inputs_from_seed(8, uint64_t(3));
  TransferRequest q = make_transfer(in);
  const unsigned r = (*sender_index(q) + 1) % q.k;
  q.tx_values[r] += relation::l_as_fr();
  EXPECT_EQ(rules_of(q), std::vector<int>{15});
  q = make_transfer(in);
  q.tx_random_values[r] += relation::l_as_fr();
  EXPECT_EQ(rules_of(q), std::vector<int>{14});
  // For k = 16 the integer sum of tr is m*l with m up to 15; once m >= 8 its F_p sum wraps past
  // p and is no longer 0 mod l (the reference's form fails), yet such honest requests are valid.
  int wrapped = 0;
  for (uint64_t seed = 0; seed < 6; ++seed) {
    TransferRequest big = make_transfer(wallet_inputs_from_seed(16, seed));
    Fr field_sum = Fr::zero();
    for (const Fr& x : big.tx_random_values) field_sum += x;
    wrapped += !relation::reduce_mod_l(field_sum).is_zero();
    EXPECT_TRUE(validate_transfer(big).ok());
  }
  EXPECT_GT(wrapped, 0);
}

TEST(TransferValidate, ModLAliasesAreRejected) {
  // Every alias of a reduced value (r + m l, and x - q l mod p for q = 0..7) fails its rule.
  WalletInputs in = wallet_inputs_from_seed(3, uint64_t(5));
  const TransferRequest valid = make_transfer(in);
  const unsigned j = *sender_index(valid);
  const Fr x = poseidon(valid.secret_key, valid.secret_key);
  const auto aliases = relation::mod_l_aliases(x);
  EXPECT_GE(aliases.size(), 7u);
  for (const Fr& alias : aliases) {
    ASSERT_NE(alias, valid.public_keys[j]);
    TransferRequest q = valid;
    q.public_keys[j] = alias;
    EXPECT_EQ(rules_of(q), std::vector<int>{6});
  }
}

// ---- the rule breaker ----

std::vector<TransferRequest> breaker_inputs() {
  std::vector<TransferRequest> out;
  for (auto [name, k] : {std::pair{"transfer-k2.json", 2u}, {"transfer-k6.json", 6u}}) {
    if (auto q = load_transfer(name, k)) out.push_back(std::move(*q));
  }
  for (unsigned k : {2u, 3u, 5u, 9u}) out.push_back(make_transfer(wallet_inputs_from_seed(k, k)));
  return out;
}

TEST(RuleBreaker, EachRuleAloneInEveryVariant) {
  for (const TransferRequest& valid : breaker_inputs()) {
    ASSERT_TRUE(validate_transfer(valid).ok());
    for (int rule = 1; rule <= kNumRules; ++rule) {
      if (rule == 9 || rule == 10) continue;
      ASSERT_GT(break_rule_variants(rule), 0u);
      for (uint64_t seed = 0; seed < 2 * break_rule_variants(rule); ++seed) {
        // R2's variants 1 and 2 break R15 with it (rule_breaker.hpp).
        auto minimal = break_rule_minimal(valid, rule, seed);
        ASSERT_TRUE(minimal.ok()) << minimal.error().message;
        EXPECT_EQ(rules_of(minimal->request), minimal->broken_rules) << minimal->how;
        if (minimal->broken_rules != std::vector<int>{rule}) {
          EXPECT_EQ(rule, 2);
          EXPECT_EQ(minimal->broken_rules, (std::vector<int>{2, 15})) << minimal->how;
          EXPECT_FALSE(break_rule(valid, rule, seed).ok());
          continue;
        }
        auto broken = break_rule(valid, rule, seed);
        ASSERT_TRUE(broken.ok()) << "R" << rule << " seed " << seed << " k " << valid.k << ": "
                                 << broken.error().message;
        const auto all = validate_transfer_all(*broken);
        ASSERT_EQ(failed_rules(all), std::vector<int>{rule}) << "R" << rule << " seed " << seed;
        // the first failure names the same rule, in the documented format
        Status st = validate_transfer(*broken);
        ASSERT_FALSE(st.ok());
        EXPECT_EQ(st.error().rule, std::string(1, 'R').append(std::to_string(rule)));
        EXPECT_EQ(st.error().message.rfind(st.error().rule + ": " + st.error().field, 0), 0u)
            << st.error().message;
        // every value stays a canonical field element: it round-trips through the JSON
        auto reparsed = parse_transfer_request(transfer_request_to_json(*broken), broken->k);
        ASSERT_TRUE(reparsed.ok());
        EXPECT_EQ(reparsed->public_inputs(), broken->public_inputs());
      }
    }
  }
}

TEST(RuleBreaker, R9AndR10OnlyWithCompanions) {
  for (const TransferRequest& valid : breaker_inputs()) {
    for (int rule : {9, 10}) {
      auto alone = break_rule(valid, rule, 0);
      ASSERT_FALSE(alone.ok());
      EXPECT_NE(alone.error().message.find("cannot fail alone"), std::string::npos);
      for (uint64_t seed = 0; seed < 2 * break_rule_variants(rule); ++seed) {
        auto b = break_rule_minimal(valid, rule, seed);
        ASSERT_TRUE(b.ok()) << b.error().message;
        // {R9, R10, R15}, {R9, R13, R15} or {R10, R13}
        EXPECT_TRUE(std::find(b->broken_rules.begin(), b->broken_rules.end(), rule) !=
                    b->broken_rules.end());
        EXPECT_EQ(b->broken_rules.size(), b->broken_rules[0] == 9 ? 3u : 2u);
        EXPECT_EQ(rules_of(b->request), b->broken_rules) << b->how;
      }
    }
  }
}

TEST(RuleBreaker, RefusesInvalidStartsAndUnknownRules) {
  TransferRequest valid = make_transfer(wallet_inputs_from_seed(2, uint64_t(6)));
  EXPECT_FALSE(break_rule(valid, 0, 0).ok());
  EXPECT_FALSE(break_rule(valid, kNumRules + 1, 0).ok());
  auto once = break_rule(valid, 8, 0);
  ASSERT_TRUE(once.ok());
  auto twice = break_rule(*once, 5, 0);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("not valid"), std::string::npos);
}

TEST(RuleBreaker, IsDeterministicInTheSeed) {
  TransferRequest valid = make_transfer(wallet_inputs_from_seed(4, uint64_t(7)));
  for (int rule : {2, 5, 13, 14}) {
    auto a = break_rule(valid, rule, 12345), b = break_rule(valid, rule, 12345);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(transfer_request_to_json(*a), transfer_request_to_json(*b));
  }
}

}  // namespace
}  // namespace enygma
