// The join-split circuit (both formats from one definition): the vectors' witnesses satisfy the
// R1CS and their public inputs, as decimal strings, equal <name>.public_signal.json; the -bad
// vectors' witnesses do not (first violation labelled with their rule); wallet requests with
// 0..10 inputs (dummy and real slots mixed, one and two trees) satisfy; the three builder modes
// agree; every constraint is labelled with a rule id; the sizes are pinned; the families are
// registered with their routes and make_request's count.
//
// ENYGMA_SWEEP=full: 8 wallet seeds per input count (default 1, plus 3 for 1 and 10 inputs).
#include "core/joinsplit/joinsplit_circuit.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "core/joinsplit/joinsplit_family.hpp"
#include "core/joinsplit/request.hpp"
#include "core/joinsplit/validate.hpp"
#include "core/joinsplit/wallet.hpp"
#include "core/registry/registry.hpp"
#include "support/dvp_circuits.hpp"
#include "support/sweep.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

const char* family_of(NoteFormat f) {
  return f == NoteFormat::kErc20 ? "joinsplit-enygma" : "joinsplit-1155";
}

void expect_satisfying_witness(const JoinSplitRequest& req) {
  ASSERT_TRUE(validate_joinsplit(req).ok()) << validate_joinsplit(req).error().message;
  const R1cs& r1cs = test::joinsplit_r1cs(req.format);
  const std::vector<Fr> w = joinsplit_witness(req);
  ASSERT_EQ(w.size(), r1cs.num_wires);
  EXPECT_EQ(w[0], Fr::one());
  const std::vector<Fr> pub = req.public_inputs();
  ASSERT_EQ(pub.size(), r1cs.num_public);
  for (size_t i = 0; i < pub.size(); ++i) EXPECT_EQ(w[1 + i], pub[i]) << "public input " << i;
  EXPECT_EQ(r1cs.first_unsatisfied(w), std::nullopt) << joinsplit_first_violation(req);
}

TEST(JoinSplitCircuit, TheVectorsSatisfyAndPublishTheirPublicSignals) {
  for (NoteFormat f : {NoteFormat::kErc20, NoteFormat::kErc1155}) {
    const std::string name = family_of(f);
    SCOPED_TRACE(name);
    const JoinSplitRequest req = test::load_joinsplit(name + ".json", f);
    expect_satisfying_witness(req);
    const std::vector<Fr> w = joinsplit_witness(req);
    const auto expected = nlohmann::json::parse(test::read_vector(name + ".public_signal.json"))
                              .get<std::vector<std::string>>();
    ASSERT_EQ(expected.size(), kJoinSplitPublicInputs);
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(w[1 + i].to_decimal(), expected[i]) << "public_signal[" << i << "]";
    }
    // Through the registered family too.
    const CircuitFamily* fam = find_circuit_family(name);
    ASSERT_NE(fam, nullptr);
    auto fw = fam->witness(test::read_vector(name + ".json"), 0);
    ASSERT_TRUE(fw.ok()) << fw.error().message;
    EXPECT_EQ(*fw, w);
  }
}

TEST(JoinSplitCircuit, TheBadVectorsAreRefusedAndTheirWitnessesFail) {
  for (auto [name, f, rule] : {std::tuple{"joinsplit-enygma-bad", NoteFormat::kErc20, "J5"},
                               std::tuple{"joinsplit-1155-bad", NoteFormat::kErc1155, "J1"}}) {
    SCOPED_TRACE(name);
    const std::string text = test::read_vector(std::string(name) + ".json");
    const CircuitFamily* fam = find_circuit_family(family_of(f));
    auto w = fam->witness(text, 0);
    ASSERT_FALSE(w.ok());
    EXPECT_EQ(w.error().rule, rule);
    const auto all = fam->validate_all(text, 0);
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].rule, rule);
    auto unchecked = fam->witness_unchecked(text, 0);
    ASSERT_TRUE(unchecked.ok());
    EXPECT_TRUE(test::joinsplit_r1cs(f).first_unsatisfied(*unchecked).has_value());
    auto label = fam->first_violation(text, 0);
    ASSERT_TRUE(label.ok());
    EXPECT_EQ(label->rfind(std::string(rule) + " ", 0), 0u) << *label;
  }
}

TEST(JoinSplitCircuit, WalletRequestsOfEveryInputCountSatisfy) {
  for (NoteFormat f : {NoteFormat::kErc20, NoteFormat::kErc1155}) {
    for (unsigned n = 0; n <= kJoinSplitInputs; ++n) {
      const uint64_t seeds = test::full_sweep() ? 8 : (n == 1 || n == kJoinSplitInputs) ? 3 : 1;
      for (uint64_t seed = 0; seed < seeds; ++seed) {
        SCOPED_TRACE(testing::Message() << family_of(f) << " inputs " << n << " seed " << seed);
        expect_satisfying_witness(joinsplit_request_from_seed(f, 1000 * seed + n, n));
      }
    }
  }
}

TEST(JoinSplitCircuit, WalletMixesDummyAndRealSlotsAcrossTrees) {
  // Over a few seeds the wallet produces zero-amount slots among the real ones, inputs in two
  // trees (two roots, two tree numbers) and one key for all inputs: the cases must occur.
  bool zero_among_real = false, two_trees = false, shared_key = false, full_outputs = false;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    const JoinSplitRequest q = joinsplit_request_from_seed(NoteFormat::kErc20, seed, 10);
    for (unsigned i = 1; i < q.n; ++i) {
      zero_among_real = zero_among_real || q.values_in[i].is_zero();
      two_trees = two_trees || (!q.values_in[i].is_zero() && !q.values_in[0].is_zero() &&
                                q.merkle_roots[i] != q.merkle_roots[0]);
      shared_key =
          shared_key || (!q.secret_keys[i].is_zero() && q.secret_keys[i] == q.secret_keys[0]);
    }
    full_outputs = full_outputs || q.values_out[1].is_zero();
  }
  EXPECT_TRUE(zero_among_real);
  EXPECT_TRUE(two_trees);
  EXPECT_TRUE(shared_key);
  EXPECT_TRUE(full_outputs);
}

TEST(JoinSplitCircuit, ModesAgreeAndEveryConstraintNamesItsRule) {
  for (NoteFormat f : {NoteFormat::kErc20, NoteFormat::kErc1155}) {
    const JoinSplitRequest req = joinsplit_request_from_seed(f, 7, 3);
    circuit::CircuitBuilder both(circuit::BuildMode::kShapeAndWitness);
    define_joinsplit_circuit(both, f, &req);
    EXPECT_EQ(both.first_violation(), std::nullopt);
    const R1cs r = both.take_r1cs();
    EXPECT_EQ(r.digest(), test::joinsplit_r1cs(f).digest());  // a second build: deterministic
    EXPECT_EQ(both.take_witness(), joinsplit_witness(req));
    ASSERT_EQ(r.labels.size(), r.num_constraints());
    for (const std::string& label : r.labels) {
      ASSERT_EQ(label[0], 'J') << label;
      ASSERT_TRUE(label[1] >= '1' && label[1] <= '9') << label;
    }
  }
  EXPECT_NE(test::joinsplit_r1cs(NoteFormat::kErc20).digest(),
            test::joinsplit_r1cs(NoteFormat::kErc1155).digest());
}

// Pinned so that a change in any gadget is noticed (update with the reason when intended).
TEST(JoinSplitCircuit, SizesArePinnedAndWithinTheGoals) {
  // Per slot 3,751 (ERC-20) / 3,991 (ERC-1155): PK 685, nullifier 241, note 720 / 960, path
  // 1,928, J5 1, amount 163, index bits 8, J9 zero test 3, J11 2; fixed 2,636 / 3,356: three
  // notes, two output amounts, J6/J7 (3), J8 (1), J9 pairs (135), J10 (11).
  const size_t expected[2] = {40146, 43266};
  const size_t goal[2] = {45000, 48000};
  for (NoteFormat f : {NoteFormat::kErc20, NoteFormat::kErc1155}) {
    const int k = f == NoteFormat::kErc20 ? 0 : 1;
    const CircuitInfo info = circuit_info(*find_circuit(family_of(f), 0));
    EXPECT_EQ(info.constraints, expected[k]) << family_of(f);
    EXPECT_LE(info.constraints, goal[k]);
    EXPECT_EQ(info.public_inputs, 34u);
    EXPECT_EQ(info.wires, info.public_inputs + info.private_wires + 1);
    EXPECT_EQ(info.fft_log_domain, 16u);
    const R1cs& r = test::joinsplit_r1cs(f);
    const auto hint = joinsplit_r1cs_size_hint(f);
    const size_t real[5] = {r.num_wires, r.num_constraints(), r.a.terms.size(), r.b.terms.size(),
                            r.c.terms.size()};
    const size_t hinted[5] = {hint.wires, hint.constraints, hint.terms_a, hint.terms_b,
                              hint.terms_c};
    for (int m = 0; m < 5; ++m) {
      EXPECT_GE(hinted[m], real[m]) << m;
      EXPECT_LE(hinted[m], real[m] + real[m] / 8) << m;
    }
  }
}

TEST(JoinSplitCircuit, FamiliesRoutesAndMakeRequest) {
  const CircuitFamily& erc20 = joinsplit_enygma_family();
  const CircuitFamily& erc1155 = joinsplit_1155_family();
  EXPECT_EQ(erc20.name, "joinsplit-enygma");
  EXPECT_EQ(erc20.prove_route, "/join-split-enygma");
  EXPECT_EQ(erc20.verify_route, "/verifyProof/join-split-enygma");
  EXPECT_EQ(erc1155.name, "joinsplit-1155");
  EXPECT_EQ(erc1155.prove_route, "/join-split-1155");
  EXPECT_EQ(erc1155.verify_route, "/verifyProof/join-split-1155");
  for (const CircuitFamily* fam : {&erc20, &erc1155}) {
    EXPECT_FALSE(fam->has_k());
    EXPECT_EQ(find_circuit_family(fam->name), fam);
    EXPECT_EQ(find_circuit(fam->name, 0)->str(), std::string(fam->name));
    const NoteFormat f = fam == &erc20 ? NoteFormat::kErc20 : NoteFormat::kErc1155;
    std::array<uint8_t, 32> seed{};
    seed[0] = 9;
    for (unsigned count : {0u, 1u, 10u}) {
      auto text = fam->make_request(0, seed, count);
      ASSERT_TRUE(text.ok()) << text.error().message;
      auto req = parse_joinsplit_request(*text, f);
      ASSERT_TRUE(req.ok()) << req.error().message;
      EXPECT_EQ(req->n, count == 0 ? 2u : count);  // 0: the default, 2 inputs
      EXPECT_TRUE(fam->validate_all(*text, 0).empty());
      EXPECT_EQ(*fam->first_violation(*text, 0), "");
    }
    auto too_many = fam->make_request(0, seed, 11);
    ASSERT_FALSE(too_many.ok());
    EXPECT_EQ(too_many.error().rule, "wallet");
    EXPECT_EQ(too_many.error().field, "count");
    EXPECT_EQ(too_many.error().message,
              "count (the inputs) = 11 is not in 1..10 (0: the default, 2)");
  }
}

}  // namespace
}  // namespace enygma
