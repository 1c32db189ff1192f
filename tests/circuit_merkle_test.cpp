// The Poseidon Merkle path gadget against the native Root of the DvP relations (the path
// convention: bit m of the index, least significant first, puts the sibling on the left when
// 1), against a full tree, its conditional root check (J5), its cost, and pinned wires.
//
// ENYGMA_SWEEP=full checks every one of the 256 leaf positions of a random tree in the
// circuit (by default: 16 positions, among them 0 and 255; natively all 256 always).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "core/circuit/bits.hpp"
#include "core/circuit/merkle.hpp"
#include "core/dvp/merkle_tree.hpp"
#include "core/dvp/relation.hpp"
#include "core/primitives/poseidon.hpp"
#include "support/audit.hpp"
#include "support/sweep.hpp"
#include "support/test_rng.hpp"

namespace enygma::circuit {
namespace {

using test::TestRng;
constexpr unsigned D = dvp::kMerkleDepth;

struct PathRun {
  R1cs r1cs;
  std::vector<Fr> witness;
  Fr root;
  uint32_t enable_wire;  // free by design here (the circuits pin the amount by its bits)
};

// Root(leaf, index, path) in the circuit; the leaf and the path are private wires, the index
// is given by its 8 bits, and the expected root is a public input checked by
// enforce_root_if_nonzero(enable, ...). enable is a private wire.
PathRun run(const Fr& leaf, const Fr& index, const dvp::MerklePath& path, const Fr& expected,
            const Fr& enable) {
  CircuitBuilder b(BuildMode::kShapeAndWitness);
  const Var expected_root = b.public_input(expected);
  const Var leaf_wire = b.private_wire(leaf);
  std::vector<Var> path_wires;
  for (const Fr& e : path) path_wires.push_back(b.private_wire(e));
  const std::vector<Var> bits = alloc_bits(b, index, D, "idx");
  const Var enable_wire = b.private_wire(enable);
  const Lc root = merkle_root(b, leaf_wire, bits, path_wires, "Root");
  enforce_root_if_nonzero(b, enable_wire, root, expected_root, "check");
  const Fr value = root.value();
  return {b.take_r1cs(), b.take_witness(), value, enable_wire.index};
}

dvp::MerklePath random_path(TestRng& rng) {
  dvp::MerklePath p;
  for (Fr& e : p) e = rng.field<Fr>();
  return p;
}

TEST(MerkleGadget, TheConventionBitOnePutsTheSiblingOnTheLeft) {
  TestRng rng(1);
  const Fr leaf = rng.field<Fr>();
  const dvp::MerklePath path = random_path(rng);
  // Index 0b00000101: levels 0 and 2 have the sibling on the left.
  Fr c = leaf;
  for (unsigned m = 0; m < D; ++m)
    c = (m == 0 || m == 2) ? poseidon(path[m], c) : poseidon(c, path[m]);
  EXPECT_EQ(dvp::merkle_root(leaf, Fr::from_u64(5), path), c);
  const PathRun r = run(leaf, Fr::from_u64(5), path, c, Fr::one());
  EXPECT_EQ(r.root, c);
  EXPECT_EQ(r.r1cs.first_unsatisfied(r.witness), std::nullopt);
  // Bits above the depth are not read by Root (J3 bounds the index separately).
  EXPECT_EQ(dvp::merkle_root(leaf, Fr::from_u64(5 + 256), path), c);
}

TEST(MerkleGadget, MatchesAFullTreeAtEveryPosition) {
  TestRng rng(2);
  std::array<Fr, dvp::MerkleTree::kLeaves> leaves;
  for (Fr& l : leaves) l = rng.field<Fr>();
  leaves[200] = Fr::zero();  // empty leaves are plain zeros (no leaf hashing)
  const dvp::MerkleTree tree(leaves);
  for (unsigned idx = 0; idx < dvp::MerkleTree::kLeaves; ++idx) {
    ASSERT_EQ(dvp::merkle_root(leaves[idx], Fr::from_u64(idx), tree.path(idx)), tree.root()) << idx;
  }
  const unsigned step = test::full_sweep() ? 1 : 17;
  for (unsigned idx = 0; idx < dvp::MerkleTree::kLeaves; idx += step) {
    const PathRun r = run(leaves[idx], Fr::from_u64(idx), tree.path(idx), tree.root(), Fr::one());
    EXPECT_EQ(r.root, tree.root()) << idx;
    EXPECT_EQ(r.r1cs.first_unsatisfied(r.witness), std::nullopt) << idx;
  }
  const PathRun last = run(leaves[255], Fr::from_u64(255), tree.path(255), tree.root(), Fr::one());
  EXPECT_EQ(last.r1cs.first_unsatisfied(last.witness), std::nullopt);
  // A neighbour's path, a changed level or a wrong index does not reach the root.
  const PathRun neighbour = run(leaves[7], Fr::from_u64(7), tree.path(6), tree.root(), Fr::one());
  EXPECT_TRUE(neighbour.r1cs.first_unsatisfied(neighbour.witness).has_value());
  dvp::MerklePath changed = tree.path(9);
  changed[4] += Fr::one();
  const PathRun level = run(leaves[9], Fr::from_u64(9), changed, tree.root(), Fr::one());
  EXPECT_TRUE(level.r1cs.first_unsatisfied(level.witness).has_value());
  const PathRun index = run(leaves[9], Fr::from_u64(9 ^ 64), tree.path(9), tree.root(), Fr::one());
  EXPECT_TRUE(index.r1cs.first_unsatisfied(index.witness).has_value());
}

TEST(MerkleGadget, TheRootCheckAppliesExactlyWhenEnabled) {
  TestRng rng(3);
  const Fr leaf = rng.field<Fr>();
  const dvp::MerklePath path = random_path(rng);
  const Fr idx = Fr::from_u64(77);
  const Fr root = dvp::merkle_root(leaf, idx, path);
  const Fr wrong = root + Fr::one();
  for (const Fr& enable : {Fr::one(), Fr::from_u64(110), -Fr::one()}) {
    const PathRun good = run(leaf, idx, path, root, enable);
    EXPECT_EQ(good.r1cs.first_unsatisfied(good.witness), std::nullopt);
    const PathRun bad = run(leaf, idx, path, wrong, enable);
    ASSERT_TRUE(bad.r1cs.first_unsatisfied(bad.witness).has_value());
    EXPECT_EQ(bad.r1cs.labels[*bad.r1cs.first_unsatisfied(bad.witness)], "check");
  }
  // enable == 0 (a dummy input's amount): any root, any path.
  const PathRun off = run(leaf, idx, path, wrong, Fr::zero());
  EXPECT_EQ(off.r1cs.first_unsatisfied(off.witness), std::nullopt);
}

TEST(MerkleGadget, AnIndexOf256OrMoreHasNoWitness) {
  TestRng rng(4);
  const Fr leaf = rng.field<Fr>();
  const dvp::MerklePath path = random_path(rng);
  for (uint64_t idx : {256ull, 257ull, 511ull, 1ull << 40}) {
    const Fr root = dvp::merkle_root(leaf, Fr::from_u64(idx), path);  // reads the low 8 bits
    const PathRun r = run(leaf, Fr::from_u64(idx), path, root, Fr::one());
    EXPECT_TRUE(r.r1cs.first_unsatisfied(r.witness).has_value()) << idx;
  }
}

TEST(MerkleGadget, CostAndNoFreeWire) {
  TestRng rng(5);
  const Fr leaf = rng.field<Fr>();
  const dvp::MerklePath path = random_path(rng);
  for (uint64_t idx : {0ull, 5ull, 170ull, 255ull}) {
    const Fr root = dvp::merkle_root(leaf, Fr::from_u64(idx), path);
    const PathRun r = run(leaf, Fr::from_u64(idx), path, root, Fr::one());
    // 8 index bits, 8 levels of (1 selection + Poseidon-2 240), the check.
    EXPECT_EQ(r.r1cs.num_constraints(), 8u + 8 * 241 + 1);
    // Every wire, the leaf, the path, the bits and every level's S-boxes and selections, is
    // pinned: replacing one Merkle level alone breaks a constraint.
    EXPECT_EQ(audit(r.r1cs, r.witness, 1, r.enable_wire), "") << idx;
    EXPECT_EQ(audit(r.r1cs, r.witness, r.enable_wire + 1, r.r1cs.num_wires), "") << idx;
  }
}

}  // namespace
}  // namespace enygma::circuit
