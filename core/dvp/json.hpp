// Reading the DvP requests' JSON (../shared/docs/joinsplit-relation.md and
// ownership-relation.md, "Inputs") as the reference's Go structs bind it, with every value the
// reference would crash on, or reduce silently, refused instead: an Error with rule "input" that
// names the field ("merkleProofs[0].elements[4]"). Shared by core/joinsplit and core/ownership.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/dvp/relation.hpp"
#include "core/field/fr.hpp"
#include "core/util/json_parse.hpp"
#include "core/util/result.hpp"

namespace enygma::dvp {

using Json = nlohmann::json;

// The largest request accepted (a full join-split request is about 10 KB).
inline constexpr size_t kMaxDvpRequestJsonBytes = size_t(1) << 20;

Error input_error(const std::string& field, const std::string& what);

// "name[i]".
std::string indexed(std::string_view name, size_t i);

// Parse the text into `doc`, which must be a JSON object (errors name no field). The caller
// wipes `doc` on every return, an error's included (parse_request's guard does).
Status parse_object(std::string_view text, Json& doc);

// The member `key`; an error "missing field" when absent or null (Go binds null as the zero
// value, which its `required` tag refuses), which names a member spelled like `key` in another
// case if there is one (missing_field_message).
Result<const Json*> required_member(const Json& obj, const char* key, const std::string& field);
// The member `key`, or nullptr when absent or null (an optional field). A member spelled like
// `key` in another case instead ("TreeNumber") is refused, naming `field`: Go's encoding/json
// would bind it, and the request must not read as one without the field here.
Result<const Json*> optional_member(const Json& obj, const char* key, const std::string& field);
// The member whose key equals `key` ignoring case as Go's encoding/json compares names
// (fold_member_name; Go binds a field without a struct tag by its Go name that way), or nullptr
// when absent or null. There is at most one: parse_object refuses two names that fold alike.
const Json* member_ignoring_case(const Json& obj, std::string_view key);

// A canonical field element: a decimal string of digits below p (leading zeros allowed; no
// sign, spaces or 0x).
Result<Fr> decimal(const Json& v, const std::string& field);
// A JSON array (size not checked here).
Status check_array(const Json& v, const std::string& field);
// A JSON object.
Status check_object(const Json& v, const std::string& field);
// A string of any content (a field the reference binds but ignores).
Status check_string(const Json& v, const std::string& field);
// A Go int that the relation publishes (tree numbers): a JSON integer in [0, 2^63 - 1], no
// fraction or exponent; as a field element.
Result<Fr> tree_number(const Json& v, const std::string& field);
// A JSON integer (Go int), value ignored: merkleDepth.
Status check_go_int(const Json& v, const std::string& field);
// A token contract address: an optional "0x" prefix (lower-case x only, as the reference's
// strings.TrimPrefix), then one or more hex digits of either case, big-endian; below p.
Result<Fr> hex_address(const Json& v, const std::string& field);

// The required member `key`, a canonical decimal (a scalar field of the Go struct).
Status read_scalar(const Json& doc, const char* key, Fr& out);
// merkleDepth, which the reference binds and ignores: when present, a Go int (check_go_int).
Status check_merkle_depth(const Json& doc);

// A Merkle proof object {indices, elements} at `field` ("merkleProofs[2]", "merkleProof"):
// indices (the leaf index, a decimal string; its range is rule J3 / O2, not checked here) and
// elements, the siblings leaf level first: missing ones become 0, extra ones are dropped (each
// must still be canonical). `elements_required`: ownership's struct validates the nested field.
Status read_merkle_proof(const Json& v, const std::string& field, bool elements_required, Fr& index,
                         MerklePath& path);

// A key pair object {publicKey, privateKey}: `use_private` reads privateKey into `out` (the
// input's spend key; publicKey must be a string if present, its value is ignored), otherwise
// publicKey (a recipient's key; privateKey ignored). `public_key_required`: ownership's
// keyPairIn.publicKey is required although ignored (a non-empty string).
Status read_key_pair(const Json& v, const std::string& field, bool use_private,
                     bool public_key_required, Fr& out);

// Hex of an address for a request: "0x" and at least 40 lower-case digits.
std::string address_hex(const Fr& address);

// A request from its JSON text: the document parsed (a JSON object), its fields read into `q`
// by `read_fields(doc, q)` (a Status), the document's strings wiped (wipe_json_values), then
// q.derive_public_values(). On an error q's destructor wipes what was read.
template <class Request, class ReadFields>
Result<Request> parse_request(std::string_view text, Request q, ReadFields read_fields) {
  Json doc;
  WipeValuesOnExit wipe(doc);
  if (Status st = parse_object(text, doc); !st) return st.error();
  Status st = read_fields(doc, q);
  if (!st) return st.error();
  q.derive_public_values();
  return q;
}

// A printed request (2-space indent); the document's strings are wiped after.
std::string dump_wiped(nlohmann::ordered_json& doc);

}  // namespace enygma::dvp
