#include "core/ownership/wallet.hpp"

#include <sodium.h>

#include <memory>

#include "core/dvp/merkle_tree.hpp"
#include "core/primitives/seed_expander.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma {

OwnershipRequest ownership_request_from_seed(const std::array<uint8_t, 32>& seed) {
  constexpr unsigned kLeaves = dvp::MerkleTree::kLeaves;
  const SeedExpander ex(seed);
  OwnershipRequest q;
  q.payment_commitment = ex.field("payment_commitment");
  q.tree_number = Fr::from_u64(ex.u64("tree_number") % 1000);
  q.secret_key = ex.mod_l("secret_key");
  q.uid = ex.field("uid");
  q.salt_in = ex.field("salt_in");
  q.salt_out = ex.field("salt_out");
  q.revert_salt = ex.field("revert_salt");
  Fr recipient_sk = ex.mod_l("recipient_key");
  q.recipient_key = dvp::spend_public_key(recipient_sk);
  const unsigned index = ex.below(kLeaves, "index");
  q.index = Fr::from_u64(index);
  const unsigned fill = index + 1 + ex.below(kLeaves - index, "fill");
  // Wiped when freed, as the tree's levels: the leaves tell which note is the owner's.
  SecureVector<std::array<Fr, kLeaves>> leaves_box(1);
  std::array<Fr, kLeaves>& leaves = leaves_box[0];
  for (unsigned j = 0; j < kLeaves; ++j) {
    leaves[j] = j < fill ? ex.field("other_note", j) : Fr::zero();
  }
  q.derive_public_values();
  leaves[index] = q.leaf;
  const dvp::MerkleTree tree(leaves);
  q.path = tree.path(index);
  q.merkle_root = tree.root();
  sodium_memzero(&recipient_sk, sizeof recipient_sk);
  return q;
}

OwnershipRequest ownership_request_from_seed(uint64_t seed) {
  std::array<uint8_t, 32> s{};
  for (int i = 0; i < 8; ++i) s[i] = uint8_t(seed >> (8 * i));
  return ownership_request_from_seed(s);
}

}  // namespace enygma
