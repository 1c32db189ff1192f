// J1..J11 natively: the vectors (valid, and each -bad one refused naming exactly its rule), the
// error format, the rules' edges (10^36, zero-amount inputs, dummies sharing Z, integer
// balance), and the rule breaker: every variant of every rule breaks exactly what it says, on
// the vectors and on wallet requests of 0, 1 and 10 inputs (every count under the full sweep)
// in both formats.
//
// ENYGMA_SWEEP=full: 6 seeds per variant on inputs 0..10, 60 wallet requests per input count
// (default 1 seed on inputs 0, 1, 10; 3 wallet requests per count).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "core/dvp/relation.hpp"
#include "core/joinsplit/request.hpp"
#include "core/joinsplit/validate.hpp"
#include "core/joinsplit/wallet.hpp"
#include "support/joinsplit_rule_breaker.hpp"
#include "support/sweep.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

std::vector<int> rules_of(const JoinSplitRequest& q) {
  return dvp_failed_rules(validate_joinsplit_all(q));
}

TEST(JoinSplitValidate, TheVectorsAreValid) {
  for (auto [name, f] : {std::pair{"joinsplit-enygma.json", NoteFormat::kErc20},
                         std::pair{"joinsplit-1155.json", NoteFormat::kErc1155}}) {
    const JoinSplitRequest q = test::load_joinsplit(name, f);
    EXPECT_TRUE(validate_joinsplit_all(q).empty())
        << name << ": " << validate_joinsplit_all(q)[0].message;
    EXPECT_TRUE(validate_joinsplit(q).ok());
  }
}

TEST(JoinSplitValidate, EachBadVectorBreaksExactlyItsRule) {
  // joinsplit-enygma-bad.json: merkleProofs[0].elements[4] + 1, a root mismatch (J5).
  const JoinSplitRequest bad20 =
      test::load_joinsplit("joinsplit-enygma-bad.json", NoteFormat::kErc20);
  const auto e20 = validate_joinsplit_all(bad20);
  ASSERT_EQ(e20.size(), 1u);
  EXPECT_EQ(e20[0].rule, "J5");
  EXPECT_EQ(e20[0].field, "merkleRoots[0]");
  EXPECT_EQ(e20[0].message,
            "J5: merkleRoots[0] is not the root of the input note under merkleProofs[0]");
  EXPECT_EQ(validate_joinsplit(bad20).error().rule, "J5");
  // joinsplit-1155-bad.json: valuesIn = [10^36], balanced outputs, root for the new leaf (J1).
  const JoinSplitRequest bad1155 =
      test::load_joinsplit("joinsplit-1155-bad.json", NoteFormat::kErc1155);
  const auto e1155 = validate_joinsplit_all(bad1155);
  ASSERT_EQ(e1155.size(), 1u);
  EXPECT_EQ(e1155[0].rule, "J1");
  EXPECT_EQ(e1155[0].field, "valuesIn[0]");
  EXPECT_EQ(e1155[0].message, "J1: valuesIn[0] is not an amount below 10^36");
}

TEST(JoinSplitValidate, AmountsUpTo10To36MinusOne) {
  JoinSplitRequest q = joinsplit_request_from_seed(NoteFormat::kErc20, 1, 1);
  U256 max;
  sub_borrow(max, dvp::amount_bound(), U256::from_u64(1));
  q.values_in[0] = *Fr::from_canonical(max);
  q.values_out[0] = q.values_in[0];
  q.values_out[1] = Fr::zero();
  q.derive_public_values();
  q.merkle_roots[0] = dvp::merkle_root(q.leaves[0], q.indices[0], q.paths[0]);
  EXPECT_TRUE(validate_joinsplit_all(q).empty());
  q.values_in[0] += Fr::one();  // 10^36
  q.values_out[1] = Fr::one();
  q.derive_public_values();
  q.merkle_roots[0] = dvp::merkle_root(q.leaves[0], q.indices[0], q.paths[0]);
  EXPECT_EQ(rules_of(q), (std::vector<int>{1}));
}

TEST(JoinSplitValidate, ZeroAmountInputsNeedNoRootAndMayShareZ) {
  // Slots with a zero amount (the padding dummies, and real inputs of 0) are exempt from J5 and
  // J9: they may publish any root and all publish Z = Poseidon(0, 0).
  JoinSplitRequest q = joinsplit_request_from_seed(NoteFormat::kErc1155, 2, 3);
  q.values_in[2] = Fr::zero();
  q.secret_keys[2] = Fr::zero();
  q.indices[2] = Fr::zero();
  q.merkle_roots[2] = Fr::from_u64(424242);
  q.merkle_roots[7] = Fr::from_u64(5);  // a padding slot
  q.derive_public_values();
  ASSERT_EQ(q.nullifiers[2], dvp::dummy_nullifier());
  // Restore the balance of the outputs.
  Fr total = Fr::zero();
  for (const Fr& a : q.values_in) total += a;
  q.values_out[0] = total - q.values_out[1];
  if (!dvp::below_amount_bound(q.values_out[0])) {
    q.values_out[1] = total - q.values_out[0];
  }
  q.derive_public_values();
  EXPECT_EQ(validate_joinsplit_all(q).size(), 0u) << validate_joinsplit_all(q)[0].message;
  // A non-zero amount makes both rules apply, and J11: key 0 at index 0 publishes Z.
  q.values_in[2] = Fr::one();
  q.values_out[0] += Fr::one();
  q.derive_public_values();
  EXPECT_EQ(rules_of(q), (std::vector<int>{5, 11}));
  q.secret_keys[2] = Fr::from_u64(3);
  q.derive_public_values();
  EXPECT_EQ(rules_of(q), (std::vector<int>{5}));
}

TEST(JoinSplitValidate, J10CannotFail) {
  const JoinSplitRequest q = test::load_joinsplit("joinsplit-enygma.json", NoteFormat::kErc20);
  EXPECT_EQ(joinsplit_break_variants(10), 0u);
  auto r = break_joinsplit_rule(q, 10, 0);
  ASSERT_FALSE(r.ok());
  // Any nftCommitment and tree numbers are valid: J10 states no condition on their values.
  JoinSplitRequest other = q;
  other.nft_commitment = Fr::from_u64(1);
  for (Fr& t : other.tree_numbers) t = Fr::from_u64(999);
  EXPECT_TRUE(validate_joinsplit_all(other).empty());
}

void check_breaker(const JoinSplitRequest& valid, unsigned seeds_per_variant) {
  ASSERT_TRUE(validate_joinsplit_all(valid).empty());
  for (int rule = 1; rule <= kJoinSplitRules; ++rule) {
    if (rule == 10) continue;  // J10 cannot fail (above)
    const unsigned variants = joinsplit_break_variants(rule);
    ASSERT_GT(variants, 0u) << rule;
    for (uint64_t seed = 0; seed < variants * seeds_per_variant; ++seed) {
      Result<BrokenJoinSplit> broken = break_joinsplit_rule_minimal(valid, rule, seed);
      ASSERT_TRUE(broken.ok()) << "J" << rule << " seed " << seed << ": " << broken.error().message;
      SCOPED_TRACE(testing::Message()
                   << "J" << rule << " variant " << seed % variants << ": " << broken->how);
      EXPECT_EQ(rules_of(broken->request), broken->broken_rules);
      const Status first = validate_joinsplit(broken->request);
      ASSERT_FALSE(first.ok());
      EXPECT_EQ(first.error().rule,
                std::string("J").append(std::to_string(broken->broken_rules[0])));
      EXPECT_EQ(first.error().message.rfind(first.error().rule + ": " + first.error().field, 0), 0u)
          << first.error().message;
      auto single = break_joinsplit_rule(valid, rule, seed);
      EXPECT_EQ(single.ok(), broken->broken_rules == std::vector<int>{rule})
          << (single.ok() ? "" : single.error().message);
    }
  }
}

TEST(JoinSplitValidate, TheRuleBreakerBreaksExactlyWhatItSays) {
  const unsigned seeds = test::full_sweep() ? 6 : 1;
  check_breaker(test::load_joinsplit("joinsplit-enygma.json", NoteFormat::kErc20), seeds);
  check_breaker(test::load_joinsplit("joinsplit-1155.json", NoteFormat::kErc1155), seeds);
  std::vector<unsigned> counts = {0, 1, 10};
  if (test::full_sweep()) counts = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  for (NoteFormat f : {NoteFormat::kErc20, NoteFormat::kErc1155}) {
    for (unsigned n : counts) {
      SCOPED_TRACE(testing::Message() << "inputs " << n);
      check_breaker(joinsplit_request_from_seed(f, 50 + n, n), seeds);
    }
  }
}

TEST(JoinSplitValidate, WalletRequestsAreValid) {
  const uint64_t seeds = test::full_sweep() ? 60 : 3;
  for (NoteFormat f : {NoteFormat::kErc20, NoteFormat::kErc1155}) {
    for (unsigned n = 0; n <= kJoinSplitInputs; ++n) {
      for (uint64_t seed = 0; seed < seeds; ++seed) {
        const JoinSplitRequest q = joinsplit_request_from_seed(f, seed * 11 + n, n);
        const auto errors = validate_joinsplit_all(q);
        EXPECT_TRUE(errors.empty())
            << "inputs " << n << " seed " << seed << ": " << errors[0].message;
      }
    }
  }
}

}  // namespace
}  // namespace enygma
