#include "core/dvp/relation.hpp"

#include "core/primitives/babyjubjub.hpp"
#include "core/primitives/poseidon.hpp"

namespace enygma::dvp {

const U256& amount_bound() {
  static constexpr U256 kBound = u256_const("1000000000000000000000000000000000000");
  return kBound;
}

bool below_amount_bound(const Fr& x) {
  return cmp(x.to_u256(), amount_bound()) < 0;
}

Fr spend_public_key(const Fr& sk) {
  return *Fr::from_canonical(babyjubjub::mod_l(poseidon(sk, sk)));  // < l < p
}

Fr nullifier(const Fr& sk, const Fr& idx) {
  return poseidon(sk, idx);
}

const Fr& dummy_nullifier() {
  static const Fr z = poseidon(Fr::zero(), Fr::zero());
  return z;
}

Fr note_erc20(const Fr& pk, const Fr& salt, const Fr& amount, const Fr& token) {
  return poseidon(poseidon(poseidon(pk, salt), amount), token);
}

Fr note_erc1155(const Fr& pk, const Fr& salt, const Fr& amount, const Fr& token,
                const Fr& token_id) {
  return poseidon(poseidon(poseidon(poseidon(pk, salt), token), token_id), amount);
}

Fr note_erc721(const Fr& pk, const Fr& salt, const Fr& uid) {
  return poseidon(poseidon(pk, salt), uid);
}

Fr merkle_root(const Fr& leaf, const Fr& idx, std::span<const Fr, kMerkleDepth> path) {
  const U256 bits = idx.to_u256();
  Fr c = leaf;
  for (unsigned m = 0; m < kMerkleDepth; ++m) {
    c = bits.bit(m) ? poseidon(path[m], c) : poseidon(c, path[m]);
  }
  return c;
}

bool index_in_range(const Fr& idx) {
  return idx.to_u256().bit_length() <= kMerkleDepth;
}

}  // namespace enygma::dvp
