// One function per rule. Variants (variant_seed % ownership_break_variants(rule)):
//   O1  0 keyPairIn.privateKey := another key, the note (pk, leaf, root, revert) kept and the
//       nullifier re-derived: the NFT moved without the owner's key;  1 pk := an alias of
//       Poseidon(sk, sk) (r + m*l below p, or a wrapped x - q*l), leaf, root and revert
//       re-derived: the reference's free quotient
//   O2  0 nullifier += 1;  1 merkleProof.indices += 256, nullifier re-derived (the root still
//       matches: Root reads 8 bits);  2 nullifier := Poseidon(another key, idx)
//   O3  0 leaf := another note (another uid) of the same owner;  1 a random leaf; the root
//       re-derived from the claimed leaf
//   O4  0 merkleProof.elements[m] += 1;  1 merkleRoot := a random value;  2 uid := 0 with
//       the leaf and both commitments re-derived, the root kept (the reference skips the check
//       for uid 0);  3 uid with one decimal digit changed, as ownership-721-bad.json
//   O5  0 commitmentOut += 1;  1 saltOut += 1;  2 pubKeyOut.publicKey := another key
//       (commitment kept)
//   O6  0 revertCommitment += 1;  1 revertSalt += 1;  2 revertCommitment := the recipient's
//       note Note(rpk, revertSalt, uid) (the revert note given away)
#include "support/ownership_rule_breaker.hpp"

#include "core/dvp/relation.hpp"
#include "core/joinsplit/validate.hpp"
#include "core/ownership/validate.hpp"
#include "support/dvp_rule_breaker.hpp"

namespace enygma {

namespace {

constexpr unsigned kVariants[kOwnershipRules + 1] = {0, 2, 3, 2, 4, 3, 3, 0};

struct Breaking : test::DvpBreak {
  OwnershipRequest q;

  void refresh_leaf_and_root() {
    q.leaf = dvp::note_erc721(q.public_key, q.salt_in, q.uid);
    q.merkle_root = dvp::merkle_root(q.leaf, q.index, q.path);
  }
};

void break_o1(Breaking& b) {
  OwnershipRequest& q = b.q;
  if (b.variant == 0) {
    q.secret_key += b.nonzero_field();
    q.nullifier = dvp::nullifier(q.secret_key, q.index);
    b.how = "keyPairIn.privateKey := another key, the note kept";
    return;
  }
  const std::vector<Fr> aliases = test::spend_key_aliases(q.secret_key);
  q.public_key = aliases[b.below(unsigned(aliases.size()))];
  b.refresh_leaf_and_root();
  q.revert_commitment = dvp::note_erc721(q.public_key, q.revert_salt, q.uid);
  b.how = "pk := an alias of Poseidon(sk, sk) mod l";
}

void break_o2(Breaking& b) {
  OwnershipRequest& q = b.q;
  if (b.variant == 0) {
    q.nullifier += Fr::one();
    b.how = "nullifier += 1";
  } else if (b.variant == 1) {
    q.index += Fr::from_u64(256);
    q.nullifier = dvp::nullifier(q.secret_key, q.index);
    b.how = "merkleProof.indices += 256";
  } else {
    q.nullifier = dvp::nullifier(b.nonzero_field(), q.index);
    b.how = "nullifier := Poseidon(another key, idx)";
  }
}

void break_o3(Breaking& b) {
  OwnershipRequest& q = b.q;
  q.leaf = b.variant == 0 ? dvp::note_erc721(q.public_key, q.salt_in, b.nonzero_field())
                          : b.nonzero_field();
  q.merkle_root = dvp::merkle_root(q.leaf, q.index, q.path);
  b.how = b.variant == 0 ? "leaf := the owner's note of another uid" : "leaf := a random leaf";
}

void break_o4(Breaking& b) {
  OwnershipRequest& q = b.q;
  if (b.variant == 0) {
    const unsigned m = b.below(dvp::kMerkleDepth);
    q.path[m] += Fr::one();
    b.how = "merkleProof.elements[" + std::to_string(m) + "] += 1";
  } else if (b.variant == 1) {
    q.merkle_root = b.nonzero_field();
    b.how = "merkleRoot := a random value";
  } else {
    if (b.variant == 2) {
      q.uid = Fr::zero();
      b.how = "uid := 0, the root kept";
    } else {
      // One decimal digit of uid changed (by +-1 at a random position): still below p.
      std::string digits = q.uid.to_decimal();
      const size_t pos = b.below(unsigned(digits.size()));
      digits[pos] = digits[pos] == '9' ? '8' : char(digits[pos] + 1);
      auto changed = Fr::from_decimal(digits);
      q.uid = changed ? *changed : q.uid + Fr::one();
      b.how = "uid with one digit changed";
    }
    q.leaf = dvp::note_erc721(q.public_key, q.salt_in, q.uid);
    q.commitment_out = dvp::note_erc721(q.recipient_key, q.salt_out, q.uid);
    q.revert_commitment = dvp::note_erc721(q.public_key, q.revert_salt, q.uid);
  }
}

void break_o5(Breaking& b) {
  OwnershipRequest& q = b.q;
  if (b.variant == 0) {
    q.commitment_out += Fr::one();
    b.how = "commitmentOut += 1";
  } else if (b.variant == 1) {
    q.salt_out += Fr::one();
    b.how = "saltOut += 1, commitment kept";
  } else {
    q.recipient_key = dvp::spend_public_key(b.nonzero_field());
    b.how = "pubKeyOut.publicKey := another key, commitment kept";
  }
}

void break_o6(Breaking& b) {
  OwnershipRequest& q = b.q;
  if (b.variant == 0) {
    q.revert_commitment += Fr::one();
    b.how = "revertCommitment += 1";
  } else if (b.variant == 1) {
    q.revert_salt += Fr::one();
    b.how = "revertSalt += 1, revertCommitment kept";
  } else {
    q.revert_commitment = dvp::note_erc721(q.recipient_key, q.revert_salt, q.uid);
    b.how = "revertCommitment := the recipient's note";
  }
}

}  // namespace

unsigned ownership_break_variants(int rule) {
  return rule >= 1 && rule <= kOwnershipRules ? kVariants[rule] : 0;
}

Result<BrokenOwnership> break_ownership_rule(const OwnershipRequest& valid, int rule,
                                             uint64_t variant_seed) {
  if (ownership_break_variants(rule) == 0) return test::unbreakable_dvp_rule('O', rule);
  if (!validate_ownership_all(valid).empty()) {
    return make_error("the request to break is not valid", "input", "request");
  }
  test::TestRng rng(test::dvp_break_seed(variant_seed, rule));
  Breaking b{{unsigned(variant_seed % kVariants[rule]), rng, {}}, valid};
  using Breaker = void (*)(Breaking&);
  static constexpr Breaker kBreakers[kOwnershipRules + 1] = {nullptr,  break_o1, break_o2, break_o3,
                                                             break_o4, break_o5, break_o6, nullptr};
  kBreakers[rule](b);
  const std::vector<int> failed = dvp_failed_rules(validate_ownership_all(b.q));
  if (Status st = test::check_dvp_claim('O', rule, b.variant, b.how, failed, {rule}); !st) {
    return st.error();
  }
  return BrokenOwnership{std::move(b.q), std::move(b.how)};
}

}  // namespace enygma
