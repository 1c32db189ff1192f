// Soundness of the transfer circuit against invalid requests (validation bypassed) and forged
// hints:
//  - for every rule R1..R16 and every kind of breakage the rule breaker knows, the witness
//    computed from the broken request does not satisfy the R1CS (R9 and R10 cannot fail alone
//    and are broken with their companions, see rule_breaker.hpp);
//  - changing any single private wire of an honest witness breaks satisfaction (all of them,
//    at k = 2 and k = 6: every bit, quotient, remainder, run, inverse, lambda, coordinate and
//    S-box intermediate is pinned by its constraints).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "core/payment/relation.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "core/transfer/request.hpp"
#include "core/transfer/transfer_circuit.hpp"
#include "core/transfer/validate.hpp"
#include "core/transfer/wallet.hpp"
#include "support/audit.hpp"
#include "support/payment_circuit_checks.hpp"
#include "support/payment_rule_breaker.hpp"
#include "support/sweep.hpp"
#include "support/transfer_rule_breaker.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

using test::load_request_vector;

bool satisfies(const TransferRequest& req) {
  const std::vector<Fr> w = transfer_witness(req);
  return !w.empty() && !transfer_r1cs(req.k).first_unsatisfied(w).has_value();
}

// R14 variant 1 adds a multiple of l to a tx_random_values entry: tx_commits (Pedersen is the
// same point) and every other public input stay as they were, so the public statement is the
// valid request's, and true. tr enters the statement only through tc; the circuit proves R13 and
// R14 for the tr that R14 defines from ss and b (transfer_circuit.cpp), which is the only
// witness that matters. No circuit over these public inputs can, or needs to, reject this
// request: its witness is exactly the valid request's.
bool invisible_to_the_statement(int rule, unsigned variant) {
  return rule == 14 && variant == 1;
}

void check_every_breakage(const TransferRequest& valid, unsigned seeds_per_variant) {
  ASSERT_TRUE(validate_transfer(valid).ok());
  ASSERT_TRUE(satisfies(valid));
  const std::vector<Fr> valid_witness = transfer_witness(valid);
  for (int rule = 1; rule <= kNumRules; ++rule) {
    const unsigned variants = break_rule_variants(rule);
    ASSERT_GT(variants, 0u) << rule;
    for (uint64_t seed = 0; seed < variants * seeds_per_variant; ++seed) {
      Result<BrokenRequest> broken = break_rule_minimal(valid, rule, seed);
      ASSERT_TRUE(broken.ok()) << "R" << rule << " seed " << seed << ": " << broken.error().message;
      const TransferRequest& req = broken->request;
      SCOPED_TRACE(testing::Message() << "k=" << valid.k << " R" << rule << " variant "
                                      << seed % variants << ": " << broken->how);
      const std::vector<Fr> w = transfer_witness(req);
      ASSERT_EQ(w.size(), transfer_r1cs(valid.k).num_wires);
      const bool ok = !transfer_r1cs(valid.k).first_unsatisfied(w).has_value();
      if (invisible_to_the_statement(rule, unsigned(seed % variants))) {
        EXPECT_EQ(req.public_inputs(), valid.public_inputs());
        EXPECT_TRUE(ok);
        EXPECT_EQ(w, valid_witness);
      } else {
        EXPECT_FALSE(ok) << "the witness of an invalid request satisfies the circuit";
      }
    }
  }
}

TEST(TransferSoundness, EveryRuleBreakerRequestFailsAtK2) {
  check_every_breakage(load_request_vector("transfer-k2.json", 2), 3);
  check_every_breakage(make_transfer(wallet_inputs_from_seed(2, 5)), 2);
}

TEST(TransferSoundness, EveryRuleBreakerRequestFailsAtK3AndK6) {
  // k >= 3 reaches R13's variant that moves value between two receivers without recommitting.
  check_every_breakage(make_transfer(wallet_inputs_from_seed(3, 9)), 2);
  check_every_breakage(load_request_vector("transfer-k6.json", 6), 1);
}

// R15 on both sides of k = 13, where (k - 1) * 2^250 stops being below p: every kind of breakage
// is refused by validation and, with validation bypassed, by the constraint system.
TEST(TransferSoundness, R15AtEveryKindOfBreakageAcrossTheWrapBoundary) {
  for (unsigned k : {3u, 6u, 13u, 14u, 16u}) {
    const TransferRequest valid = make_transfer(wallet_inputs_from_seed(k, 40 + k, 3));
    ASSERT_TRUE(validate_transfer(valid).ok());
    ASSERT_TRUE(satisfies(valid));
    for (uint64_t seed = 0; seed < 2 * break_rule_variants(15); ++seed) {
      Result<TransferRequest> broken = break_rule(valid, 15, seed);
      ASSERT_TRUE(broken.ok()) << broken.error().message;
      SCOPED_TRACE(testing::Message() << "k=" << k << " variant " << seed % 4);
      Status st = validate_transfer(*broken);
      ASSERT_FALSE(st.ok());
      EXPECT_EQ(st.error().rule, "R15");
      EXPECT_FALSE(satisfies(*broken));
      EXPECT_EQ(first_violated_constraint(*broken).rfind("R15/", 0), 0u)
          << first_violated_constraint(*broken);
    }
  }
}

// From k = 14 on, the other members' amounts (each below 2^250) can add up to v + p, which the
// field cannot tell from v. R10 catches it (transfer_circuit.cpp, R15: S - v would have to be a
// multiple of l * p): the R15 range and sum constraints hold, the curve sum does not.
TEST(TransferSoundness, R15SumWrappingModuloPIsCaughtByTheCommitmentSum) {
  for (unsigned k : {14u, 16u}) {
    WalletInputs in = wallet_inputs_from_seed(k, 7, 1);
    in.amount = Fr::from_u64(5);  // v + p must fit in 13 amounts below 2^250
    in.payees = {{in.payees[0].index, in.amount}};
    TransferRequest q = make_transfer(in);
    const unsigned j = *sender_index(q);
    U256 target;  // v + p as an integer
    add_carry(target, q.sender_tx_value.to_u256(), Fr::kModulus);
    // Greedily: 2^250 - 1 to each member in turn until the target is reached (13 members
    // suffice, since p < 12.1 * 2^250).
    const U256 full = (relation::pow2(250) - Fr::one()).to_u256();
    U256 left = target;
    for (unsigned i = 0; i < k; ++i) {
      if (i == j) continue;
      const U256 p = cmp(left, full) > 0 ? full : left;
      sub_borrow(left, left, p);
      q.tx_values[i] = *Fr::from_canonical(p);
      q.tx_commits[i] = babyjubjub::pedersen(q.tx_values[i], q.tx_random_values[i]);
    }
    ASSERT_TRUE(left.is_zero());
    Fr field_sum = Fr::zero();
    for (unsigned i = 0; i < k; ++i) {
      if (i != j) field_sum += q.tx_values[i];
    }
    ASSERT_EQ(field_sum, q.sender_tx_value) << "the sum wraps to v in the field";
    EXPECT_EQ(failed_rules(validate_transfer_all(q)), (std::vector<int>{9, 10, 15}));
    EXPECT_FALSE(satisfies(q));
    EXPECT_EQ(first_violated_constraint(q).rfind("R10/", 0), 0u) << first_violated_constraint(q);
  }
}

TEST(TransferSoundness, OneBalanceOpeningHasOneNullifier) {
  // R + m*l opens the same previous commitment (H has order l) but gives another shared secret,
  // hence another nullifier: without R16 one balance could be spent under up to eight
  // nullifiers in one block. The first violated constraint is R16's (an alias of 2^251 or more
  // gets all-ones bits, not its low bits, which could be another R below l).
  for (unsigned k : test::sweep_ks({2, 3, 6})) {
    const TransferRequest valid = make_transfer(wallet_inputs_from_seed(k, uint64_t(40 + k)));
    ASSERT_TRUE(satisfies(valid));
    for (const Fr& alias : relation::same_residue_aliases(valid.previous_sender_random_value)) {
      TransferRequest q = valid;
      test::set_balance_random(q, alias);
      SCOPED_TRACE(testing::Message() << "k=" << k << " R=" << alias.to_decimal());
      ASSERT_NE(q.nullifier, valid.nullifier);
      EXPECT_FALSE(satisfies(q));
      const std::string label = first_violated_constraint(q);
      EXPECT_EQ(label.rfind("R16 R/", 0), 0u) << label;
    }
  }
}

TEST(TransferSoundness, FirstViolatedConstraintNamesTheBrokenRule) {
  // Diagnostics: the label of the first violated constraint starts with a rule id, ...
  const TransferRequest valid = load_request_vector("transfer-k2.json", 2);
  for (int rule = 1; rule <= kNumRules; ++rule) {
    Result<BrokenRequest> broken = break_rule_minimal(valid, rule, 0);
    ASSERT_TRUE(broken.ok());
    if (invisible_to_the_statement(rule, 0)) continue;
    const std::string label = first_violated_constraint(broken->request);
    EXPECT_EQ(label.rfind('R', 0), 0u) << "R" << rule << ": " << label;
    // ... that rule's own, but for R9 and R10 (never broken alone) and R14 (tr is not in the
    // circuit: R13's constraints on the commitments catch it).
    if (rule == 9 || rule == 10 || rule == 14) continue;
    const std::string id = "R" + std::to_string(rule);
    EXPECT_TRUE(test::label_names_rule(label, id)) << id << " (" << broken->how << "): " << label;
  }
}

// Which private wires are free inputs (the values of the request itself) and which are hints:
//   free inputs: sender_id, secret_key, shared_secrets[0..k) (one wire each), and the bits of
//     V (250), v (250), R (251) and tx_values[i] (251 each), which have no wire of their own;
//   hints: everything after them (bit decompositions of computed values, quotients and
//     remainders mod l, runs of the bound walks, inverses of the zero tests, S-box powers,
//     window products, lambdas and coordinates of the point arithmetic, selections).
// Both kinds are checked: a free input changed alone no longer matches the public values.
void check_no_free_wire(const TransferRequest& req) {
  const R1cs& r1cs = transfer_r1cs(req.k);
  const std::vector<Fr> w = transfer_witness(req);
  const uint32_t first_private = 1 + r1cs.num_public;
  const uint32_t first_hint = first_private + 2 + req.k + 250 + 250 + 251 + 251 * req.k;
  ASSERT_LT(first_hint, r1cs.num_wires);
  EXPECT_EQ(circuit::audit(r1cs, w, first_hint, r1cs.num_wires), "") << "hints";
  EXPECT_EQ(circuit::audit(r1cs, w, first_private, first_hint), "") << "free inputs";
}

TEST(TransferSoundness, NoSingleWireCanChangeAtK2) {
  check_no_free_wire(load_request_vector("transfer-k2.json", 2));
  check_no_free_wire(make_transfer(wallet_inputs_from_seed(2, 3)));
}

TEST(TransferSoundness, NoSingleWireCanChangeAtK6) {
  check_no_free_wire(load_request_vector("transfer-k6.json", 6));
  check_no_free_wire(make_transfer(wallet_inputs_from_seed(6, 11, 3)));
}

// The exhaustive sweep (ENYGMA_SWEEP=full, `make test-soundness-full`): every kind of breakage
// and every wire alone at every k = 2..16, on wallet requests paying one and three recipients.
// By default the tests above cover k = 2, 3, 6, 13, 14 and 16.
TEST(TransferSoundness, EveryKUnderTheFullSweep) {
  const std::vector<unsigned> ks = test::sweep_ks({});
  if (ks.empty()) GTEST_SKIP() << "ENYGMA_SWEEP=full runs every k";
  for (unsigned k : ks) {
    for (unsigned payees : {1u, 3u}) {
      SCOPED_TRACE(testing::Message() << "k=" << k << " payees " << payees);
      const TransferRequest req = make_transfer(wallet_inputs_from_seed(k, 500 + k, payees));
      check_every_breakage(req, 1);
      check_no_free_wire(req);
    }
  }
}

TEST(TransferSoundness, NoSingleWireCanChangeAtK14) {
  check_no_free_wire(make_transfer(wallet_inputs_from_seed(14, 12, 3)));
}

}  // namespace
}  // namespace enygma
