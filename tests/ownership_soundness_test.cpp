// Soundness of the ownership circuit against invalid requests (validation bypassed) and forged
// hints:
//  - for every rule O1..O6 and every kind of breakage the rule breaker knows, the witness of the
//    broken request does not satisfy the R1CS, first failing at the rule that catches it (O1
//    and O3 have no wire a prover chooses: a wrong key or leaf shows as a root mismatch, O4);
//  - uid = 0 with a wrong root (the reference skips the membership check then) fails at O4;
//  - changing any single wire of an honest witness alone breaks satisfaction (public inputs
//    included: paymentCommitment and treeNumber through O7's constraints);
//  - O7: with a development Groth16 key a proof does not verify once paymentCommitment, the tree
//    number or any other public input changes, while the original does.
//
// ENYGMA_SWEEP=full: 8 seeds per variant on 6 requests, the audit of 10 wallet requests
// (default 2 seeds on 2 requests, the audit of the vector and 2 wallet requests).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

#include "core/dvp/relation.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/setup.hpp"
#include "core/groth16/verifier.hpp"
#include "core/joinsplit/validate.hpp"  // dvp_failed_rules
#include "core/ownership/ownership_circuit.hpp"
#include "core/ownership/validate.hpp"
#include "core/ownership/wallet.hpp"
#include "core/registry/registry.hpp"
#include "support/audit.hpp"
#include "support/dvp_circuits.hpp"
#include "support/ownership_rule_breaker.hpp"
#include "support/sweep.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

bool satisfies(const OwnershipRequest& q) {
  return !test::ownership_r1cs().first_unsatisfied(ownership_witness(q)).has_value();
}

std::string first_violation(const OwnershipRequest& q) {
  const auto bad = test::ownership_r1cs().first_unsatisfied(ownership_witness(q));
  return bad ? test::ownership_r1cs().labels[*bad] : std::string();
}

const std::map<int, std::set<std::string>> kOwnershipCaughtBy = {
    {1, {"O4"}}, {2, {"O2"}}, {3, {"O4"}}, {4, {"O4"}}, {5, {"O5"}}, {6, {"O6"}}};

void check_every_breakage(const OwnershipRequest& valid, unsigned seeds_per_variant) {
  ASSERT_TRUE(satisfies(valid));
  for (int rule = 1; rule <= 6; ++rule) {
    const unsigned variants = ownership_break_variants(rule);
    for (uint64_t seed = 0; seed < variants * seeds_per_variant; ++seed) {
      auto broken = break_ownership_rule(valid, rule, seed);
      ASSERT_TRUE(broken.ok()) << broken.error().message;
      SCOPED_TRACE(testing::Message() << "O" << rule << ": " << broken->how);
      EXPECT_FALSE(satisfies(broken->request));
      const std::string label = first_violation(broken->request);
      EXPECT_TRUE(kOwnershipCaughtBy.at(rule).count(test::rule_of(label))) << label;
    }
  }
}

TEST(OwnershipSoundness, EveryRuleBreakerRequestFails) {
  const unsigned seeds = test::full_sweep() ? 8 : 2;
  check_every_breakage(test::load_ownership("ownership-721.json"), seeds);
  for (uint64_t s = 0; s < (test::full_sweep() ? 5u : 1u); ++s) {
    check_every_breakage(ownership_request_from_seed(40 + s), seeds);
  }
}

TEST(OwnershipSoundness, UidZeroWithAWrongRootFails) {
  OwnershipRequest q = test::load_ownership("ownership-721.json");
  q.uid = Fr::zero();
  q.derive_public_values();  // leaf and commitments for uid 0; the root is the old one
  ASSERT_EQ(dvp_failed_rules(validate_ownership_all(q)), (std::vector<int>{4}));
  EXPECT_FALSE(satisfies(q));
  EXPECT_EQ(first_violation(q), "O4 root/Root == merkleRoot");
  // A note of uid 0 that IS in the tree proves.
  q.merkle_root = dvp::merkle_root(q.leaf, q.index, q.path);
  EXPECT_TRUE(satisfies(q));
}

void check_no_free_wire(const OwnershipRequest& q) {
  const std::vector<Fr> w = ownership_witness(q);
  EXPECT_EQ(circuit::audit(test::ownership_r1cs(), w, 1, test::ownership_r1cs().num_wires), "");
}

TEST(OwnershipSoundness, NoSingleWireCanChange) {
  check_no_free_wire(test::load_ownership("ownership-721.json"));
  for (uint64_t s = 0; s < (test::full_sweep() ? 10u : 2u); ++s) {
    check_no_free_wire(ownership_request_from_seed(60 + s));
  }
}

// (As for the join-split, the setup's snarkjs IC rows alone would bind every public input; the
// audit above is what fails without O7's constraints: paymentCommitment and treeNumber would be
// free wires.)
TEST(OwnershipSoundness, Groth16ProofsAreBoundToPaymentCommitmentAndTreeNumber) {
  ThreadPool pool(2);
  const uint8_t seed[] = {'o', 'w', 'n'};
  const Groth16Keys keys = groth16_setup_insecure_from_seed(test::ownership_r1cs(), seed, pool);
  const PreparedVerifyingKey pvk = prepare_verifying_key(keys.vk);
  for (const OwnershipRequest& q :
       {test::load_ownership("ownership-721.json"), ownership_request_from_seed(7)}) {
    const std::vector<Fr> w = ownership_witness(q);
    auto proof = groth16_prove(keys.pk, test::ownership_r1cs(), w, pool);
    ASSERT_TRUE(proof.ok()) << proof.error().message;
    const std::vector<Fr> pub = q.public_inputs();
    EXPECT_TRUE(groth16_verify(pvk, *proof, pub).ok());
    // 0 paymentCommitment, 3 treeNumber, and every other public input.
    for (size_t i = 0; i < pub.size(); ++i) {
      for (const Fr& other : {pub[i] + Fr::one(), Fr::zero(), Fr::from_u64(1) - pub[i]}) {
        if (other == pub[i]) continue;
        std::vector<Fr> changed = pub;
        changed[i] = other;
        const Status st = groth16_verify(pvk, *proof, changed);
        ASSERT_FALSE(st.ok()) << "public input " << i << " changed: the proof still verifies";
        EXPECT_EQ(st.error().rule, "invalid");
      }
    }
  }
}

}  // namespace
}  // namespace enygma
