// A full Poseidon Merkle tree of depth 8 (256 leaves) with the DvP relations' convention
// (dvp::merkle_root): node = Poseidon(left, right), leaves as given (no leaf hashing). For the
// wallets, which place their notes in a tree and prove their paths.
#pragma once

#include <array>

#include "core/dvp/relation.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma::dvp {

class MerkleTree {
 public:
  static constexpr unsigned kLeaves = 1u << kMerkleDepth;

  // 255 Poseidon hashes.
  explicit MerkleTree(const std::array<Fr, kLeaves>& leaves);

  const Fr& root() const { return levels_[kMerkleDepth][0]; }
  // The siblings of leaf `index` (< 256), leaf level first: merkle_root(leaf, index, path) is
  // root().
  MerklePath path(unsigned index) const;

 private:
  // levels_[m] holds the 2^(8-m) nodes of level m (0: the leaves). Wiped when freed: a note's
  // leaf and path tell which note a proof spends.
  std::array<SecureVector<Fr>, kMerkleDepth + 1> levels_;
};

}  // namespace enygma::dvp
