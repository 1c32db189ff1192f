// Soundness of the join-split circuit (both formats) against invalid requests (validation
// bypassed) and forged hints:
//  - for every rule J1..J9 and J11 and every kind of breakage the rule breaker knows, the witness
//  of the
//    broken request does not satisfy the R1CS, and the first violated constraint belongs to the
//    rule that catches it (J2 and J4 have no wire a prover chooses: a wrong key or leaf shows as
//    a root mismatch, J5, or for slot 0 a revert mismatch, J7);
//  - the reference's attacks by name: a nullifier or a Merkle level replaced, two inputs with
//    one nullifier, an amount of 10^36;
//  - changing any single wire of an honest witness alone breaks satisfaction (every bit,
//    quotient, remainder, run, inverse, S-box, selection and product; the public inputs too,
//    except the roots of zero-amount slots, about which J5 states nothing);
//  - J10: nftCommitment and every tree number appear in a constraint, and with a development
//    Groth16 key a proof does not verify once one of them (or any other public input) changes,
//    while the original does.
//
// ENYGMA_SWEEP=full: 4 seeds per variant, inputs 0..10, both formats in the audit and the
// Groth16 test (default: 1 seed; inputs 0, 1, 10 for ERC-20 and 10 for ERC-1155; the audit of
// both vectors and of 10 ERC-20 inputs; Groth16 on ERC-20).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "core/groth16/prover.hpp"
#include "core/groth16/setup.hpp"
#include "core/groth16/verifier.hpp"
#include "core/joinsplit/joinsplit_circuit.hpp"
#include "core/joinsplit/request.hpp"
#include "core/joinsplit/validate.hpp"
#include "core/joinsplit/wallet.hpp"
#include "core/registry/registry.hpp"
#include "support/audit.hpp"
#include "support/dvp_circuits.hpp"
#include "support/joinsplit_rule_breaker.hpp"
#include "support/sweep.hpp"
#include "support/vectors.hpp"

namespace enygma {
namespace {

constexpr unsigned N = kJoinSplitInputs;

bool satisfies(const JoinSplitRequest& q) {
  return !test::joinsplit_r1cs(q.format).first_unsatisfied(joinsplit_witness(q)).has_value();
}

// The label of the first constraint the request's witness violates, from the cached (labelled)
// R1CS: what joinsplit_first_violation computes, without a labelled build per request.
std::string first_violation(const JoinSplitRequest& q) {
  const R1cs& r1cs = test::joinsplit_r1cs(q.format);
  const auto bad = r1cs.first_unsatisfied(joinsplit_witness(q));
  return bad ? r1cs.labels[*bad] : std::string();
}

// The rule prefix of a constraint label ("J5 root[0]/..." -> "J5", "J8/sum ..." -> "J8").
// Which rule's constraints catch a breakage of each rule first.
const std::map<int, std::set<std::string>> kJoinSplitCaughtBy = {
    {1, {"J1"}}, {2, {"J5", "J7"}}, {3, {"J3"}}, {4, {"J5"}}, {5, {"J5"}},
    {6, {"J6"}}, {7, {"J7"}},       {8, {"J8"}}, {9, {"J9"}}, {11, {"J11"}}};

// Every variant of J1..J9 and J11 on `valid`: the witness fails, first at a constraint of the rule
// that catches the breakage.
void check_every_breakage(const JoinSplitRequest& valid, unsigned seeds_per_variant) {
  for (int rule = 1; rule <= kJoinSplitRules; ++rule) {  // every rule that can break, mapped
    EXPECT_EQ(joinsplit_break_variants(rule) > 0, kJoinSplitCaughtBy.count(rule) == 1) << rule;
  }
  ASSERT_TRUE(validate_joinsplit_all(valid).empty());
  ASSERT_TRUE(satisfies(valid));
  for (const auto& [rule, caught_by] : kJoinSplitCaughtBy) {
    const unsigned variants = joinsplit_break_variants(rule);
    for (uint64_t seed = 0; seed < variants * seeds_per_variant; ++seed) {
      Result<BrokenJoinSplit> broken = break_joinsplit_rule_minimal(valid, rule, seed);
      ASSERT_TRUE(broken.ok()) << "J" << rule << " seed " << seed << ": " << broken.error().message;
      SCOPED_TRACE(testing::Message()
                   << "J" << rule << " variant " << seed % variants << ": " << broken->how);
      const std::vector<Fr> w = joinsplit_witness(broken->request);
      const R1cs& r1cs = test::joinsplit_r1cs(valid.format);
      ASSERT_EQ(w.size(), r1cs.num_wires);
      const auto bad = r1cs.first_unsatisfied(w);
      ASSERT_TRUE(bad.has_value()) << "the witness of an invalid request satisfies the circuit";
      EXPECT_TRUE(caught_by.count(test::rule_of(r1cs.labels[*bad]))) << r1cs.labels[*bad];
    }
  }
}

TEST(JoinSplitSoundness, EveryRuleBreakerRequestFailsOnTheVectors) {
  const unsigned seeds = test::full_sweep() ? 4 : 1;
  check_every_breakage(test::load_joinsplit("joinsplit-enygma.json", NoteFormat::kErc20), seeds);
  check_every_breakage(test::load_joinsplit("joinsplit-1155.json", NoteFormat::kErc1155), seeds);
}

TEST(JoinSplitSoundness, EveryRuleBreakerRequestFailsOnWalletRequests) {
  const unsigned seeds = test::full_sweep() ? 4 : 1;
  std::vector<unsigned> counts = {0, 1, 10};
  if (test::full_sweep()) counts = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  for (NoteFormat f : {NoteFormat::kErc20, NoteFormat::kErc1155}) {
    for (unsigned n : counts) {
      if (!test::full_sweep() && f == NoteFormat::kErc1155 && n != 10) continue;
      SCOPED_TRACE(testing::Message() << "format " << int(f) << " inputs " << n);
      check_every_breakage(joinsplit_request_from_seed(f, 300 + n, n), seeds);
    }
  }
}

// The reference accepts every one of these (its nullifiers, Merkle levels and commitments are
// unconstrained hints, joinsplit-relation.md item 1; it has no J9).
TEST(JoinSplitSoundness, TheReferencesAttacksByName) {
  const JoinSplitRequest valid = joinsplit_request_from_seed(NoteFormat::kErc20, 17, 3);
  ASSERT_TRUE(satisfies(valid));
  // A nullifier replaced by a fresh one (the same note spent again under a new nullifier).
  JoinSplitRequest fresh = valid;
  fresh.nullifiers[0] = dvp::nullifier(fresh.secret_keys[0] + Fr::one(), fresh.indices[0]);
  EXPECT_FALSE(satisfies(fresh));
  EXPECT_EQ(test::rule_of(first_violation(fresh)), "J3");
  // Two inputs with the same nullifier: the vector's note (110) twice, counted twice.
  JoinSplitRequest twice = test::load_joinsplit("joinsplit-enygma.json", NoteFormat::kErc20);
  const unsigned i = 0, j = 5;  // slot 5 is padding
  twice.n = 6;
  twice.values_in[j] = twice.values_in[i];
  twice.secret_keys[j] = twice.secret_keys[i];
  twice.salts_in[j] = twice.salts_in[i];
  twice.indices[j] = twice.indices[i];
  twice.paths[j] = twice.paths[i];
  twice.merkle_roots[j] = twice.merkle_roots[i];
  twice.derive_public_values();
  EXPECT_EQ(twice.nullifiers[j], twice.nullifiers[i]);
  EXPECT_EQ(dvp_failed_rules(validate_joinsplit_all(twice)), (std::vector<int>{8, 9}));
  // The outputs take the doubled amount (220 = 210 + 10): only J9 remains.
  twice.values_out[0] += twice.values_in[i];
  twice.derive_public_values();
  EXPECT_EQ(dvp_failed_rules(validate_joinsplit_all(twice)), (std::vector<int>{9}));
  EXPECT_FALSE(satisfies(twice));
  EXPECT_EQ(test::rule_of(first_violation(twice)), "J9");
  // An amount of 10^36 (the ERC-1155 bad vector is another).
  JoinSplitRequest big = valid;
  big.values_in[0] = *Fr::from_canonical(dvp::amount_bound());
  big.derive_public_values();
  big.merkle_roots[0] = dvp::merkle_root(big.leaves[0], big.indices[0], big.paths[0]);
  EXPECT_EQ(dvp_failed_rules(validate_joinsplit_all(big)), (std::vector<int>{1, 8}));
  EXPECT_FALSE(satisfies(big));
  EXPECT_EQ(test::rule_of(first_violation(big)), "J1");
  EXPECT_FALSE(satisfies(test::load_joinsplit("joinsplit-1155-bad.json", NoteFormat::kErc1155)));
}

// J11: a note sent to PK(0) at leaf 0 of a fresh tree (anyone can send one; sk = 0 is no
// secret) spent with privateKey 0 at index 0 publishes Z = Poseidon(0, 0), which the contract
// ignores as a dummy slot's: spent in one proof, it would be spendable again in every later one.
// J1..J10 all hold for it; validation and the circuit both refuse it by J11.
TEST(JoinSplitSoundness, ANoteSpentUnderTheDummyNullifierIsRefused) {
  for (NoteFormat f : {NoteFormat::kErc20, NoteFormat::kErc1155}) {
    JoinSplitRequest q = test::load_joinsplit(
        f == NoteFormat::kErc20 ? "joinsplit-enygma.json" : "joinsplit-1155.json", f);
    ASSERT_LT(q.n, N);
    const unsigned j = q.n;  // the first padding slot: a = sk = idx = 0 already
    q.n = j + 1;
    q.values_in[j] = Fr::from_u64(1000);
    q.salts_in[j] = Fr::from_u64(77);
    for (unsigned m = 0; m < dvp::kMerkleDepth; ++m) q.paths[j][m] = Fr::from_u64(900 + m);
    q.values_out[0] += q.values_in[j];
    q.derive_public_values();
    q.merkle_roots[j] = dvp::merkle_root(q.leaves[j], q.indices[j], q.paths[j]);
    ASSERT_EQ(q.nullifiers[j], dvp::dummy_nullifier());
    EXPECT_EQ(dvp_failed_rules(validate_joinsplit_all(q)), (std::vector<int>{11}));
    const Status st = validate_joinsplit(q);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().field, "nullifiers[" + std::to_string(j) + "]");
    EXPECT_FALSE(satisfies(q));
    EXPECT_EQ(test::rule_of(first_violation(q)), "J11");
    // The same note under any other key or index is an ordinary input.
    q.secret_keys[j] = Fr::from_u64(5);
    q.derive_public_values();
    q.merkle_roots[j] = dvp::merkle_root(q.leaves[j], q.indices[j], q.paths[j]);
    EXPECT_TRUE(validate_joinsplit_all(q).empty());
    EXPECT_TRUE(satisfies(q));
  }
}

// Every wire of the Merkle levels of slot 0 (the S-boxes and selections of "J5 root[0]") and of
// its nullifier's hash, replaced alone, breaks a constraint: no level can be forged toward a
// published root, no nullifier chosen.
TEST(JoinSplitSoundness, MerkleLevelsAndNullifiersAreNoHints) {
  const JoinSplitRequest q = test::load_joinsplit("joinsplit-enygma.json", NoteFormat::kErc20);
  const R1cs& r1cs = test::joinsplit_r1cs(q.format);
  std::vector<Fr> w = joinsplit_witness(q);
  const circuit::WireConstraintIndex index(r1cs);
  size_t level_wires = 0, nullifier_wires = 0;
  for (uint32_t wire = 1 + r1cs.num_public; wire < r1cs.num_wires; ++wire) {
    const auto cs = index.constraints_of(wire);
    if (cs.empty()) continue;
    const std::string& label = r1cs.labels[cs[0]];
    const bool level = label.rfind("J5 root[0]/Root/level[", 0) == 0;
    const bool nullifier = label.rfind("J3 nullifier[0]/", 0) == 0;
    if (!level && !nullifier) continue;
    (level ? level_wires : nullifier_wires) += 1;
    EXPECT_FALSE(circuit::holds_with(r1cs, index, w, wire, w[wire] + Fr::one())) << label;
    EXPECT_FALSE(circuit::holds_with(r1cs, index, w, wire, Fr::from_u64(12345))) << label;
  }
  // Per level: the path element (first used by the level's selection), the left child and the
  // 240 S-box wires of Poseidon(left, right).
  EXPECT_EQ(level_wires, 8u * (1 + 1 + 240));
  EXPECT_EQ(nullifier_wires, 240u);
  // The published root and nullifier of slot 0 themselves (public wires 2 and 2 + N).
  EXPECT_FALSE(circuit::holds_with(r1cs, index, w, 2, w[2] + Fr::one()));
  EXPECT_FALSE(circuit::holds_with(r1cs, index, w, 2 + N, w[2 + N] + Fr::one()));
}

// Every wire pinned. Public wires first: a changed public input alone must break a constraint,
// except merkleRoots[i] of a slot whose amount is 0 (J5 requires nothing of it; Groth16 still
// binds the proof to its value, see Groth16Binding).
void check_no_free_wire(const JoinSplitRequest& q) {
  const R1cs& r1cs = test::joinsplit_r1cs(q.format);
  const std::vector<Fr> w = joinsplit_witness(q);
  ASSERT_EQ(r1cs.first_unsatisfied(w), std::nullopt);
  uint32_t first = 1;
  for (unsigned i = 0; i < N; ++i) {
    const uint32_t root_wire = 2 + i;  // after nftCommitment
    if (!q.values_in[i].is_zero()) continue;
    EXPECT_EQ(circuit::audit(r1cs, w, first, root_wire), "") << "before root " << i;
    first = root_wire + 1;
  }
  EXPECT_EQ(circuit::audit(r1cs, w, first, r1cs.num_wires), "");
}

TEST(JoinSplitSoundness, NoSingleWireCanChange) {
  check_no_free_wire(test::load_joinsplit("joinsplit-enygma.json", NoteFormat::kErc20));
  check_no_free_wire(test::load_joinsplit("joinsplit-1155.json", NoteFormat::kErc1155));
  check_no_free_wire(joinsplit_request_from_seed(NoteFormat::kErc20, 21, 10));
  if (test::full_sweep()) {
    for (unsigned n : {0u, 4u, 10u}) {
      check_no_free_wire(joinsplit_request_from_seed(NoteFormat::kErc1155, 22 + n, n));
      check_no_free_wire(joinsplit_request_from_seed(NoteFormat::kErc20, 23 + n, n));
    }
  }
}

// J10 in the constraint system: nftCommitment (wire 1) and the tree numbers (wires 22..31)
// each appear in a constraint, and changing one alone breaks it.
TEST(JoinSplitSoundness, NftCommitmentAndTreeNumbersEnterAConstraint) {
  for (NoteFormat f : {NoteFormat::kErc20, NoteFormat::kErc1155}) {
    const R1cs& r1cs = test::joinsplit_r1cs(f);
    const circuit::WireConstraintIndex index(r1cs);
    const JoinSplitRequest q = joinsplit_request_from_seed(f, 5, 2);
    std::vector<Fr> w = joinsplit_witness(q);
    std::vector<uint32_t> wires = {1};
    for (unsigned i = 0; i < N; ++i) wires.push_back(2 + 2 * N + i);
    for (uint32_t wire : wires) {
      const auto cs = index.constraints_of(wire);
      ASSERT_FALSE(cs.empty()) << wire;
      EXPECT_EQ(r1cs.labels[cs[0]].rfind("J10/", 0), 0u) << r1cs.labels[cs[0]];
      EXPECT_FALSE(circuit::holds_with(r1cs, index, w, wire, w[wire] + Fr::one())) << wire;
    }
  }
}

// With a development key (the insecure seeded setup), a proof verifies with its own public
// inputs and with no other: not with another nftCommitment, tree number, root (also of a dummy
// slot), nullifier or commitment. (This project's setup also adds the snarkjs "IC rows",
// core/groth16/keys.hpp, which by themselves give every public input a verifying-key point
// other than the identity; the test that fails without J10's own constraints is
// NftCommitmentAndTreeNumbersEnterAConstraint, together with the audit above.)
void check_groth16_binding(NoteFormat f) {
  const R1cs& r1cs = test::joinsplit_r1cs(f);
  ThreadPool pool(2);
  const uint8_t seed[] = {'d', 'v', 'p'};
  const Groth16Keys keys = groth16_setup_insecure_from_seed(r1cs, seed, pool);
  const PreparedVerifyingKey pvk = prepare_verifying_key(keys.vk);
  const JoinSplitRequest q = joinsplit_request_from_seed(f, 31, 3);
  const std::vector<Fr> w = joinsplit_witness(q);
  auto proof = groth16_prove(keys.pk, r1cs, w, pool);
  ASSERT_TRUE(proof.ok()) << proof.error().message;
  const std::vector<Fr> pub = q.public_inputs();
  Status ok = groth16_verify(pvk, *proof, pub);
  EXPECT_TRUE(ok.ok()) << ok.error().message;
  for (size_t i = 0; i < pub.size(); ++i) {
    std::vector<Fr> changed = pub;
    changed[i] += Fr::one();
    const Status st = groth16_verify(pvk, *proof, changed);
    ASSERT_FALSE(st.ok()) << "public input " << i << " changed: the proof still verifies";
    EXPECT_EQ(st.error().rule, "invalid");
  }
}

TEST(JoinSplitSoundness, Groth16ProofsAreBoundToEveryPublicInput) {
  check_groth16_binding(NoteFormat::kErc20);
  if (test::full_sweep()) check_groth16_binding(NoteFormat::kErc1155);
}

}  // namespace
}  // namespace enygma
