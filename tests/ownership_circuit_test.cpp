// The ownership circuit: the vector's witness satisfies the R1CS and its public inputs, as
// decimal strings, equal ownership-721.public_signal.json; the -bad vector is refused (O4) and
// its witness fails at O4's constraint; wallet requests satisfy; the modes agree; every
// constraint names its rule; the size is pinned; the family is registered.
//
// ENYGMA_SWEEP=full: 50 wallet requests (default 8).
#include "core/ownership/ownership_circuit.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/ownership/ownership_family.hpp"
#include "core/ownership/request.hpp"
#include "core/ownership/validate.hpp"
#include "core/ownership/wallet.hpp"
#include "core/registry/registry.hpp"
#include "support/dvp_circuits.hpp"
#include "support/sweep.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

void expect_satisfying_witness(const OwnershipRequest& q) {
  ASSERT_TRUE(validate_ownership(q).ok()) << validate_ownership(q).error().message;
  const std::vector<Fr> w = ownership_witness(q);
  ASSERT_EQ(w.size(), test::ownership_r1cs().num_wires);
  EXPECT_EQ(w[0], Fr::one());
  const std::vector<Fr> pub = q.public_inputs();
  for (size_t i = 0; i < pub.size(); ++i) EXPECT_EQ(w[1 + i], pub[i]) << i;
  EXPECT_EQ(test::ownership_r1cs().first_unsatisfied(w), std::nullopt)
      << ownership_first_violation(q);
}

TEST(OwnershipCircuit, TheVectorSatisfiesAndPublishesItsPublicSignal) {
  const std::string text = test::read_vector("ownership-721.json");
  auto q = parse_ownership_request(text);
  ASSERT_TRUE(q.ok()) << q.error().message;
  expect_satisfying_witness(*q);
  const CircuitFamily* fam = find_circuit_family("ownership-721");
  ASSERT_NE(fam, nullptr);
  auto w = fam->witness(text, 0);
  ASSERT_TRUE(w.ok()) << w.error().message;
  const auto expected = nlohmann::json::parse(test::read_vector("ownership-721.public_signal.json"))
                            .get<std::vector<std::string>>();
  ASSERT_EQ(expected.size(), 6u);
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ((*w)[1 + i].to_decimal(), expected[i]);
}

TEST(OwnershipCircuit, TheBadVectorIsRefusedAndItsWitnessFailsAtO4) {
  const std::string text = test::read_vector("ownership-721-bad.json");
  const CircuitFamily* fam = find_circuit_family("ownership-721");
  auto w = fam->witness(text, 0);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().rule, "O4");
  EXPECT_EQ(w.error().field, "merkleRoot");
  auto unchecked = fam->witness_unchecked(text, 0);
  ASSERT_TRUE(unchecked.ok());
  EXPECT_TRUE(test::ownership_r1cs().first_unsatisfied(*unchecked).has_value());
  EXPECT_EQ(*fam->first_violation(text, 0), "O4 root/Root == merkleRoot");
}

TEST(OwnershipCircuit, WalletRequestsSatisfy) {
  for (uint64_t seed = 0; seed < (test::full_sweep() ? 50u : 8u); ++seed) {
    SCOPED_TRACE(seed);
    expect_satisfying_witness(ownership_request_from_seed(seed));
  }
}

TEST(OwnershipCircuit, ModesAgreeAndEveryConstraintNamesItsRule) {
  const OwnershipRequest q = ownership_request_from_seed(5);
  circuit::CircuitBuilder both(circuit::BuildMode::kShapeAndWitness);
  define_ownership_circuit(both, &q);
  EXPECT_EQ(both.first_violation(), std::nullopt);
  const R1cs r = both.take_r1cs();
  EXPECT_EQ(r.digest(), test::ownership_r1cs().digest());  // a second build: deterministic
  EXPECT_EQ(both.take_witness(), ownership_witness(q));
  ASSERT_EQ(r.labels.size(), r.num_constraints());
  for (const std::string& label : r.labels) {
    ASSERT_EQ(label[0], 'O') << label;
    ASSERT_TRUE(label[1] >= '1' && label[1] <= '7') << label;
  }
}

// Pinned so that a change in any gadget is noticed (update with the reason when intended).
TEST(OwnershipCircuit, SizeIsPinnedAndWithinTheGoal) {
  // 16 Poseidon-2 (3,840), the exact reduction (445), 8 index bits, 8 path selections, 4
  // equalities (nullifier, root, commitmentOut, revertCommitment), 2 bindings (O7).
  const CircuitInfo info = circuit_info(*find_circuit("ownership-721", 0));
  EXPECT_EQ(info.constraints, 4307u);
  EXPECT_LE(info.constraints, 5000u);
  EXPECT_EQ(info.public_inputs, 6u);
  EXPECT_EQ(info.fft_log_domain, 13u);
  const auto hint = ownership_r1cs_size_hint();
  const R1cs& r = test::ownership_r1cs();
  const size_t real[5] = {r.num_wires, r.num_constraints(), r.a.terms.size(), r.b.terms.size(),
                          r.c.terms.size()};
  const size_t hinted[5] = {hint.wires, hint.constraints, hint.terms_a, hint.terms_b, hint.terms_c};
  for (int m = 0; m < 5; ++m) {
    EXPECT_GE(hinted[m], real[m]) << m;
    EXPECT_LE(hinted[m], real[m] + real[m] / 8) << m;
  }
}

TEST(OwnershipCircuit, FamilyAndRoutes) {
  const CircuitFamily& fam = ownership_721_family();
  EXPECT_EQ(fam.name, "ownership-721");
  EXPECT_EQ(fam.prove_route, "/ownership-721");
  EXPECT_EQ(fam.verify_route, "/verifyProof/ownership-721");
  EXPECT_FALSE(fam.has_k());
  EXPECT_EQ(find_circuit_family("ownership-721"), &fam);
  std::array<uint8_t, 32> seed{};
  seed[3] = 1;
  auto text = fam.make_request(0, seed, 0);
  ASSERT_TRUE(text.ok());
  EXPECT_TRUE(fam.validate_all(*text, 0).empty());
  EXPECT_EQ(*fam.make_request(0, seed, 0), *text);
}

}  // namespace
}  // namespace enygma
