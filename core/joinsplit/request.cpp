// Parsing and printing of the join-split request JSON. The reference's handler crashes (500,
// empty body) on a short saltsIn or treeNumbers, on any decimal that does not parse, and on a
// value >= p entering its native Poseidon; it reduces the witness-only values mod p silently.
// Here every one of these is an "input" error naming the field, and the public signals are
// computed from the canonical values (so they equal the witness's public inputs).
#include "core/joinsplit/request.hpp"

#include <sodium.h>

#include <nlohmann/json.hpp>

#include "core/dvp/json.hpp"

namespace enygma {

namespace {

using dvp::indexed;
using dvp::input_error;
using dvp::Json;
using dvp::read_scalar;

struct Reader {
  const Json& doc;
  NoteFormat format;

  // A required field for both routes, or one that only the ERC-1155 struct binds as required
  // (the ERC-20 input arrays are optional "to allow 0 enygma swap"); nullptr when absent and
  // optional.
  Result<const Json*> array_field(const char* key, bool required) const {
    if (required) {
      auto m = dvp::required_member(doc, key, key);
      if (!m) return m.error();
      if (Status st = dvp::check_array(**m, key); !st) return st.error();
      return *m;
    }
    auto member = dvp::optional_member(doc, key, key);
    if (!member) return member.error();
    const Json* m = *member;
    if (m) {
      if (Status st = dvp::check_array(*m, key); !st) return st.error();
    }
    return m;
  }
  bool inputs_required() const { return format == NoteFormat::kErc1155; }
};

size_t size_of(const Json* arr) {
  return arr ? arr->size() : 0;
}

Status exactly(const Json* arr, const char* name, size_t n, const char* why) {
  if (size_of(arr) == n) return ok_status();
  return input_error(name, "has " + std::to_string(size_of(arr)) + " entries, expected " +
                               std::to_string(n) + " (" + why + ")");
}

// Every entry of an array of decimals (all are checked; the first `limit` are stored).
Status read_decimals(const Json* arr, const char* name, Fr* out, size_t limit) {
  for (size_t i = 0; i < size_of(arr); ++i) {
    auto f = dvp::decimal((*arr)[i], indexed(name, i));
    if (!f) return f.error();
    if (i < limit) out[i] = *f;
  }
  return ok_status();
}

Status parse_fields(const Json& doc, JoinSplitRequest& q) {
  const NoteFormat format = q.format;
  const Reader r{doc, format};
  constexpr unsigned N = kJoinSplitInputs, M = kJoinSplitOutputs;
  if (Status st = read_scalar(doc, "nftCommitment", q.nft_commitment); !st) return st;

  // valuesIn fixes n; the other input arrays must match it (the handler's validate*Inputs).
  auto values_in = r.array_field("valuesIn", r.inputs_required());
  if (!values_in) return values_in.error();
  if (size_of(*values_in) > N) {
    return input_error("valuesIn", "has " + std::to_string(size_of(*values_in)) +
                                       " entries, at most " + std::to_string(N));
  }
  q.n = unsigned(size_of(*values_in));
  if (Status st = read_decimals(*values_in, "valuesIn", q.values_in.data(), N); !st) return st;

  auto values_out = r.array_field("valuesOut", true);
  if (!values_out) return values_out.error();
  if (Status st = exactly(*values_out, "valuesOut", M, "2 outputs"); !st) return st;
  if (Status st = read_decimals(*values_out, "valuesOut", q.values_out.data(), M); !st) return st;

  auto key_pairs = r.array_field("keyPairsIn", r.inputs_required());
  if (!key_pairs) return key_pairs.error();
  if (Status st = exactly(*key_pairs, "keyPairsIn", q.n, "one per valuesIn entry"); !st) return st;
  for (unsigned i = 0; i < q.n; ++i) {
    Status st = dvp::read_key_pair((**key_pairs)[i], indexed("keyPairsIn", i), true, false,
                                   q.secret_keys[i]);
    if (!st) return st;
  }

  auto recipients = r.array_field("pubKeysOut", true);
  if (!recipients) return recipients.error();
  if (Status st = exactly(*recipients, "pubKeysOut", M, "2 outputs"); !st) return st;
  for (unsigned o = 0; o < M; ++o) {
    Status st = dvp::read_key_pair((**recipients)[o], indexed("pubKeysOut", o), false, false,
                                   q.recipient_keys[o]);
    if (!st) return st;
  }

  if (Status st = dvp::check_merkle_depth(doc); !st) return st;

  auto proofs = r.array_field("merkleProofs", r.inputs_required());
  if (!proofs) return proofs.error();
  if (Status st = exactly(*proofs, "merkleProofs", q.n, "one per valuesIn entry"); !st) return st;
  for (unsigned i = 0; i < q.n; ++i) {
    Status st = dvp::read_merkle_proof((**proofs)[i], indexed("merkleProofs", i), false,
                                       q.indices[i], q.paths[i]);
    if (!st) return st;
  }

  auto roots = r.array_field("merkleRoots", r.inputs_required());
  if (!roots) return roots.error();
  if (Status st = exactly(*roots, "merkleRoots", q.n, "one per valuesIn entry"); !st) return st;
  if (Status st = read_decimals(*roots, "merkleRoots", q.merkle_roots.data(), N); !st) return st;

  // treeNumbers: at least n (the reference indexes it for every input), at most N; public
  // signals take them in order and pad with 0 from their own length.
  auto trees = r.array_field("treeNumbers", r.inputs_required());
  if (!trees) return trees.error();
  if (size_of(*trees) < q.n || size_of(*trees) > N) {
    return input_error("treeNumbers", "has " + std::to_string(size_of(*trees)) +
                                          " entries, expected " + std::to_string(q.n) + ".." +
                                          std::to_string(N) + " (at least one per valuesIn entry)");
  }
  for (size_t i = 0; i < size_of(*trees); ++i) {
    auto t = dvp::tree_number((**trees)[i], indexed("treeNumbers", i));
    if (!t) return t.error();
    q.tree_numbers[i] = *t;
  }

  const char* address_key = format == NoteFormat::kErc20 ? "erc20Address" : "erc1155Address";
  auto address = dvp::required_member(doc, address_key, address_key);
  if (!address) return address.error();
  auto token = dvp::hex_address(**address, address_key);
  if (!token) return token.error();
  q.token = *token;
  q.token_id = Fr::zero();
  if (format == NoteFormat::kErc1155) {
    // Go field Erc1155TokenId without a struct tag: its key is matched ignoring case. Not
    // required by the binding, but "" does not parse (the reference crashes): refused.
    const dvp::Json* id = dvp::member_ignoring_case(doc, "erc1155TokenId");
    if (id == nullptr) return make_error("missing field erc1155TokenId", "input", "erc1155TokenId");
    auto value = dvp::decimal(*id, "erc1155TokenId");
    if (!value) return value.error();
    q.token_id = *value;
  }

  auto salts_in = r.array_field("saltsIn", false);
  if (!salts_in) return salts_in.error();
  if (size_of(*salts_in) < q.n) {
    return input_error("saltsIn", "has " + std::to_string(size_of(*salts_in)) +
                                      " entries, expected at least " + std::to_string(q.n) +
                                      " (one per valuesIn entry)");
  }
  if (Status st = read_decimals(*salts_in, "saltsIn", q.salts_in.data(), q.n); !st) return st;

  auto salts_out = r.array_field("saltsOut", true);
  if (!salts_out) return salts_out.error();
  if (Status st = exactly(*salts_out, "saltsOut", M, "2 outputs"); !st) return st;
  if (Status st = read_decimals(*salts_out, "saltsOut", q.salts_out.data(), M); !st) return st;
  if (Status st = read_scalar(doc, "revertSalt", q.revert_salt); !st) return st;

  // (The reference hashes sum(valuesIn) natively for the revert commitment: a sum >= p crashes
  // it. Here such a sum needs an amount of 10^36 or more: J1 refuses the request, naming it.)
  for (unsigned i = q.n; i < N; ++i) set_dummy_slot(q, i);  // needs the token
  return ok_status();
}

Fr sum_in(const JoinSplitRequest& q) {
  Fr s = Fr::zero();
  for (const Fr& a : q.values_in) s += a;
  return s;
}

}  // namespace

Fr joinsplit_note(const JoinSplitRequest& q, const Fr& pk, const Fr& salt, const Fr& amount) {
  return q.format == NoteFormat::kErc20 ? dvp::note_erc20(pk, salt, amount, q.token)
                                        : dvp::note_erc1155(pk, salt, amount, q.token, q.token_id);
}

std::string_view joinsplit_family_name(NoteFormat format) {
  return format == NoteFormat::kErc20 ? "joinsplit-enygma" : "joinsplit-1155";
}

void set_dummy_slot(JoinSplitRequest& q, unsigned i) {
  static const Fr dummy_key = dvp::spend_public_key(Fr::zero());
  q.values_in[i] = q.secret_keys[i] = q.salts_in[i] = q.indices[i] = Fr::zero();
  q.paths[i].fill(Fr::zero());
  q.merkle_roots[i] = Fr::zero();
  q.nullifiers[i] = dvp::dummy_nullifier();
  q.input_keys[i] = dummy_key;
  q.leaves[i] = joinsplit_note(q, dummy_key, Fr::zero(), Fr::zero());
}

void JoinSplitRequest::derive_public_values() {
  for (unsigned i = 0; i < n && i < kJoinSplitInputs; ++i) {
    input_keys[i] = dvp::spend_public_key(secret_keys[i]);
    leaves[i] = joinsplit_note(*this, input_keys[i], salts_in[i], values_in[i]);
    nullifiers[i] = dvp::nullifier(secret_keys[i], indices[i]);
  }
  for (unsigned o = 0; o < kJoinSplitOutputs; ++o) {
    commitments_out[o] = joinsplit_note(*this, recipient_keys[o], salts_out[o], values_out[o]);
  }
  Fr total = sum_in(*this);
  revert_commitment = joinsplit_note(*this, input_keys[0], revert_salt, total);
  sodium_memzero(&total, sizeof total);
}

std::vector<Fr> JoinSplitRequest::public_inputs() const {
  std::vector<Fr> out;
  out.reserve(kJoinSplitPublicInputs);
  out.push_back(nft_commitment);
  out.insert(out.end(), merkle_roots.begin(), merkle_roots.end());
  out.insert(out.end(), nullifiers.begin(), nullifiers.end());
  out.insert(out.end(), tree_numbers.begin(), tree_numbers.end());
  out.insert(out.end(), commitments_out.begin(), commitments_out.end());
  out.push_back(revert_commitment);
  return out;
}

void JoinSplitRequest::wipe_secrets() {
  for (auto* a : {&values_in, &secret_keys, &salts_in, &indices, &input_keys, &leaves}) {
    sodium_memzero(a->data(), a->size() * sizeof(Fr));
  }
  sodium_memzero(paths.data(), paths.size() * sizeof(dvp::MerklePath));
  for (auto* a : {&values_out, &recipient_keys, &salts_out}) {
    sodium_memzero(a->data(), a->size() * sizeof(Fr));
  }
  sodium_memzero(&revert_salt, sizeof(Fr));
  sodium_memzero(&token, sizeof(Fr));
  sodium_memzero(&token_id, sizeof(Fr));
}

Result<JoinSplitRequest> parse_joinsplit_request(std::string_view json_text, NoteFormat format) {
  JoinSplitRequest q;
  q.format = format;
  return dvp::parse_request(json_text, std::move(q), &parse_fields);
}

std::string joinsplit_request_to_json(const JoinSplitRequest& q) {
  using OJson = nlohmann::ordered_json;
  const unsigned n = q.n;
  auto decimals = [](auto begin, auto end) {
    OJson a = OJson::array();
    for (auto it = begin; it != end; ++it) a.push_back(it->to_decimal());
    return a;
  };
  OJson o = object_with_room<OJson>(kRequestMembers);  // members never copied: wiped once
  o["nftCommitment"] = q.nft_commitment.to_decimal();
  o["valuesIn"] = decimals(q.values_in.begin(), q.values_in.begin() + n);
  o["valuesOut"] = decimals(q.values_out.begin(), q.values_out.end());
  OJson pairs = OJson::array();
  for (unsigned i = 0; i < n; ++i) {
    pairs.push_back(object_of<OJson>("publicKey", q.input_keys[i].to_decimal(), "privateKey",
                                     q.secret_keys[i].to_decimal()));
  }
  o["keyPairsIn"] = std::move(pairs);
  OJson recipients = OJson::array();
  for (const Fr& rpk : q.recipient_keys) {
    recipients.push_back(object_of<OJson>("publicKey", rpk.to_decimal(), "privateKey", ""));
  }
  o["pubKeysOut"] = std::move(recipients);
  o["merkleDepth"] = dvp::kMerkleDepth;
  OJson proofs = OJson::array();
  for (unsigned i = 0; i < n; ++i) {
    proofs.push_back(object_of<OJson>("indices", q.indices[i].to_decimal(), "elements",
                                      decimals(q.paths[i].begin(), q.paths[i].end())));
  }
  o["merkleProofs"] = std::move(proofs);
  o["merkleRoots"] = decimals(q.merkle_roots.begin(), q.merkle_roots.begin() + n);
  unsigned trees = n;
  for (unsigned i = n; i < kJoinSplitInputs; ++i) {
    if (!q.tree_numbers[i].is_zero()) trees = i + 1;
  }
  OJson tree_numbers = OJson::array();
  for (unsigned i = 0; i < trees; ++i) tree_numbers.push_back(q.tree_numbers[i].to_u256().w[0]);
  o["treeNumbers"] = std::move(tree_numbers);
  if (q.format == NoteFormat::kErc20) {
    o["erc20Address"] = dvp::address_hex(q.token);
  } else {
    o["erc1155Address"] = dvp::address_hex(q.token);
    o["erc1155TokenId"] = q.token_id.to_decimal();
  }
  o["saltsIn"] = decimals(q.salts_in.begin(), q.salts_in.begin() + n);
  o["saltsOut"] = decimals(q.salts_out.begin(), q.salts_out.end());
  o["revertSalt"] = q.revert_salt.to_decimal();
  return dvp::dump_wiped(o);
}

}  // namespace enygma
