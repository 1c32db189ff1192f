// O1..O7, each in its own function, as the relation document states them.
#include "core/ownership/validate.hpp"

#include <optional>
#include <string>

#include "core/dvp/relation.hpp"
#include "core/dvp/rules.hpp"

namespace enygma {

namespace {

using dvp::Check;

Check fail(int rule, const std::string& field, const std::string& what) {
  return dvp::rule_error('O', rule, field, what);
}

// O1: pk = PK(sk) = Poseidon(sk, sk) mod l.
Check o1(const OwnershipRequest& q) {
  if (q.public_key == dvp::spend_public_key(q.secret_key)) return std::nullopt;
  return fail(1, "keyPairIn.publicKey",
              "(the note's spend key) is not PK(keyPairIn.privateKey) = Poseidon(sk, sk) mod l");
}

// O2: 0 <= idx < 2^8 and nullifier == Poseidon(sk, idx).
Check o2(const OwnershipRequest& q) {
  if (!dvp::index_in_range(q.index)) {
    return fail(2, "merkleProof.indices", "is not a leaf index below 2^8");
  }
  if (q.nullifier != dvp::nullifier(q.secret_key, q.index)) {
    return fail(2, "nullifier", "is not Poseidon(keyPairIn.privateKey, merkleProof.indices)");
  }
  return std::nullopt;
}

// O3: leaf = Note(pk, saltIn, uid).
Check o3(const OwnershipRequest& q) {
  if (q.leaf == dvp::note_erc721(q.public_key, q.salt_in, q.uid)) return std::nullopt;
  return fail(3, "leaf", "(the spent note) is not Note(pk, saltIn, uid)");
}

// O4 (project form): Root(leaf, idx, path) == merkleRoot, for every uid.
Check o4(const OwnershipRequest& q) {
  if (dvp::merkle_root(q.leaf, q.index, q.path) == q.merkle_root) return std::nullopt;
  return fail(4, "merkleRoot", "is not the root of the note under merkleProof");
}

// O5: commitmentOut == Note(rpk, saltOut, uid).
Check o5(const OwnershipRequest& q) {
  if (q.commitment_out == dvp::note_erc721(q.recipient_key, q.salt_out, q.uid)) {
    return std::nullopt;
  }
  return fail(5, "commitmentOut", "is not Note(pubKeyOut.publicKey, saltOut, uid)");
}

// O6: revertCommitment == Note(pk, revertSalt, uid).
Check o6(const OwnershipRequest& q) {
  if (q.revert_commitment == dvp::note_erc721(q.public_key, q.revert_salt, q.uid)) {
    return std::nullopt;
  }
  return fail(6, "revertCommitment", "is not Note(pk, revertSalt, uid)");
}

// O7 (project): a property of the circuit, true of every request.
Check o7(const OwnershipRequest&) {
  return std::nullopt;
}

constexpr dvp::RuleCheck<OwnershipRequest> kRules[kOwnershipRules] = {o1, o2, o3, o4, o5, o6, o7};

}  // namespace

Status validate_ownership(const OwnershipRequest& req) {
  return dvp::first_failure<OwnershipRequest>(req, kRules);
}

std::vector<Error> validate_ownership_all(const OwnershipRequest& req) {
  return dvp::every_failure<OwnershipRequest>(req, kRules);
}

}  // namespace enygma
