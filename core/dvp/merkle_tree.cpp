#include "core/dvp/merkle_tree.hpp"

#include <cstdlib>

#include "core/primitives/poseidon.hpp"

namespace enygma::dvp {

MerkleTree::MerkleTree(const std::array<Fr, kLeaves>& leaves) {
  levels_[0].assign(leaves.begin(), leaves.end());
  for (unsigned m = 0; m < kMerkleDepth; ++m) {
    const SecureVector<Fr>& below = levels_[m];
    SecureVector<Fr>& above = levels_[m + 1];
    above.resize(below.size() / 2);
    for (size_t j = 0; j < above.size(); ++j) above[j] = poseidon(below[2 * j], below[2 * j + 1]);
  }
}

MerklePath MerkleTree::path(unsigned index) const {
  if (index >= kLeaves) std::abort();
  MerklePath p;
  for (unsigned m = 0; m < kMerkleDepth; ++m, index >>= 1) p[m] = levels_[m][index ^ 1u];
  return p;
}

}  // namespace enygma::dvp
