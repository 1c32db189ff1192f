// Parsing and printing of the ownership request JSON. Required as the reference's binding
// requires: every field except merkleDepth, treeNumber and pubKeyOut.privateKey, and the nested
// keyPairIn.publicKey although it is ignored. The reference crashes (500, empty body) on a
// decimal that does not parse or a value >= p entering its native Poseidon, and reduces the
// witness-only values silently; here each is an "input" error naming the field.
#include "core/ownership/request.hpp"

#include <sodium.h>

#include <nlohmann/json.hpp>

#include "core/dvp/json.hpp"

namespace enygma {

namespace {

using dvp::Json;
using dvp::read_scalar;

Status parse_fields(const Json& doc, OwnershipRequest& q) {
  // In the Go struct's field order, so that the first error is the same on every run.
  if (Status st = read_scalar(doc, "paymentCommitment", q.payment_commitment); !st) return st;
  if (Status st = read_scalar(doc, "uid", q.uid); !st) return st;
  if (Status st = read_scalar(doc, "saltIn", q.salt_in); !st) return st;
  if (Status st = read_scalar(doc, "saltOut", q.salt_out); !st) return st;
  if (Status st = read_scalar(doc, "revertSalt", q.revert_salt); !st) return st;
  auto key_pair = dvp::required_member(doc, "keyPairIn", "keyPairIn");
  if (!key_pair) return key_pair.error();
  if (Status st = dvp::read_key_pair(**key_pair, "keyPairIn", true, true, q.secret_key); !st) {
    return st;
  }
  auto recipient = dvp::required_member(doc, "pubKeyOut", "pubKeyOut");
  if (!recipient) return recipient.error();
  if (Status st = dvp::read_key_pair(**recipient, "pubKeyOut", false, false, q.recipient_key);
      !st) {
    return st;
  }
  if (Status st = dvp::check_merkle_depth(doc); !st) return st;
  auto proof = dvp::required_member(doc, "merkleProof", "merkleProof");
  if (!proof) return proof.error();
  if (Status st = dvp::read_merkle_proof(**proof, "merkleProof", true, q.index, q.path); !st) {
    return st;
  }
  if (Status st = read_scalar(doc, "merkleRoot", q.merkle_root); !st) return st;
  q.tree_number = Fr::zero();
  auto tree_member = dvp::optional_member(doc, "treeNumber", "treeNumber");
  if (!tree_member) return tree_member.error();
  if (const Json* tree = *tree_member) {
    auto t = dvp::tree_number(*tree, "treeNumber");
    if (!t) return t.error();
    q.tree_number = *t;
  }
  return ok_status();
}

}  // namespace

void OwnershipRequest::derive_public_values() {
  public_key = dvp::spend_public_key(secret_key);
  leaf = dvp::note_erc721(public_key, salt_in, uid);
  nullifier = dvp::nullifier(secret_key, index);
  commitment_out = dvp::note_erc721(recipient_key, salt_out, uid);
  revert_commitment = dvp::note_erc721(public_key, revert_salt, uid);
}

std::vector<Fr> OwnershipRequest::public_inputs() const {
  return {payment_commitment, merkle_root,    nullifier,
          tree_number,        commitment_out, revert_commitment};
}

void OwnershipRequest::wipe_secrets() {
  for (Fr* x : {&secret_key, &uid, &salt_in, &salt_out, &revert_salt, &recipient_key, &index,
                &public_key, &leaf}) {
    sodium_memzero(x, sizeof(Fr));
  }
  sodium_memzero(path.data(), path.size() * sizeof(Fr));
}

Result<OwnershipRequest> parse_ownership_request(std::string_view json_text) {
  return dvp::parse_request(json_text, OwnershipRequest{}, &parse_fields);
}

std::string ownership_request_to_json(const OwnershipRequest& q) {
  using OJson = nlohmann::ordered_json;
  OJson o = object_with_room<OJson>(kRequestMembers);  // members never copied: wiped once
  o["paymentCommitment"] = q.payment_commitment.to_decimal();
  o["uid"] = q.uid.to_decimal();
  o["keyPairIn"] = object_of<OJson>("publicKey", q.public_key.to_decimal(), "privateKey",
                                    q.secret_key.to_decimal());
  o["pubKeyOut"] = object_of<OJson>("publicKey", q.recipient_key.to_decimal(), "privateKey", "");
  o["merkleDepth"] = dvp::kMerkleDepth;
  OJson elements = OJson::array();
  for (const Fr& e : q.path) elements.push_back(e.to_decimal());
  o["merkleProof"] =
      object_of<OJson>("indices", q.index.to_decimal(), "elements", std::move(elements));
  o["merkleRoot"] = q.merkle_root.to_decimal();
  o["treeNumber"] = q.tree_number.to_u256().w[0];
  o["saltIn"] = q.salt_in.to_decimal();
  o["saltOut"] = q.salt_out.to_decimal();
  o["revertSalt"] = q.revert_salt.to_decimal();
  return dvp::dump_wiped(o);
}

}  // namespace enygma
