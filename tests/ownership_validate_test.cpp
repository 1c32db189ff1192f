// O1..O7 natively: the vector (valid) and ownership-721-bad.json (refused naming exactly O4),
// O4's project form (uid = 0 checked too), and the rule breaker: every variant of every rule
// breaks exactly that rule, on the vector and on wallet requests.
//
// ENYGMA_SWEEP=full: 8 seeds per variant and 20 wallet requests (default 2 and 4).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "core/dvp/relation.hpp"
#include "core/joinsplit/validate.hpp"
#include "core/ownership/request.hpp"
#include "core/ownership/validate.hpp"
#include "core/ownership/wallet.hpp"
#include "support/ownership_rule_breaker.hpp"
#include "support/sweep.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

TEST(OwnershipValidate, TheVectorIsValidAndTheBadOneBreaksO4) {
  EXPECT_TRUE(validate_ownership_all(test::load_ownership("ownership-721.json")).empty());
  const auto errors = validate_ownership_all(test::load_ownership("ownership-721-bad.json"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rule, "O4");
  EXPECT_EQ(errors[0].field, "merkleRoot");
  EXPECT_EQ(errors[0].message, "O4: merkleRoot is not the root of the note under merkleProof");
}

TEST(OwnershipValidate, UidZeroIsCheckedToo) {
  // The reference skips the membership check for uid = 0 (it copies the join-split's dummy
  // rule; ownership has no dummy). O4's project form checks it: an honest note of uid 0 in the
  // tree is valid, a wrong root is not.
  OwnershipRequest q = ownership_request_from_seed(3);
  q.uid = Fr::zero();
  q.derive_public_values();
  EXPECT_EQ(dvp_failed_rules(validate_ownership_all(q)), (std::vector<int>{4}));
  q.merkle_root = dvp::merkle_root(q.leaf, q.index, q.path);
  EXPECT_TRUE(validate_ownership_all(q).empty());
}

TEST(OwnershipValidate, O7CannotFail) {
  const OwnershipRequest q = test::load_ownership("ownership-721.json");
  EXPECT_EQ(ownership_break_variants(7), 0u);
  EXPECT_FALSE(break_ownership_rule(q, 7, 0).ok());
  OwnershipRequest other = q;
  other.payment_commitment = Fr::from_u64(1);
  other.tree_number = Fr::from_u64(12);
  EXPECT_TRUE(validate_ownership_all(other).empty());
}

void check_breaker(const OwnershipRequest& valid, unsigned seeds_per_variant) {
  ASSERT_TRUE(validate_ownership_all(valid).empty());
  for (int rule = 1; rule <= 6; ++rule) {
    const unsigned variants = ownership_break_variants(rule);
    ASSERT_GT(variants, 0u);
    for (uint64_t seed = 0; seed < variants * seeds_per_variant; ++seed) {
      auto broken = break_ownership_rule(valid, rule, seed);
      ASSERT_TRUE(broken.ok()) << "O" << rule << " seed " << seed << ": " << broken.error().message;
      const Status st = validate_ownership(broken->request);
      ASSERT_FALSE(st.ok());
      EXPECT_EQ(st.error().rule, std::string("O").append(std::to_string(rule))) << broken->how;
      EXPECT_EQ(st.error().message.rfind(st.error().rule + ": " + st.error().field, 0), 0u);
    }
  }
}

TEST(OwnershipValidate, TheRuleBreakerBreaksExactlyOneRule) {
  const unsigned seeds = test::full_sweep() ? 8 : 2;
  check_breaker(test::load_ownership("ownership-721.json"), seeds);
  for (uint64_t s = 0; s < (test::full_sweep() ? 20u : 4u); ++s) {
    check_breaker(ownership_request_from_seed(100 + s), seeds);
  }
}

}  // namespace
}  // namespace enygma
