#include "core/dvp/json.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "core/util/json_parse.hpp"

namespace enygma::dvp {

Error input_error(const std::string& field, const std::string& what) {
  std::string message(field);  // appended: g++ 12 -Wrestrict false positive on "x" + string
  message.append(" ").append(what);
  return make_error(std::move(message), "input", field);
}

std::string indexed(std::string_view name, size_t i) {
  std::string out(name);
  out.append("[").append(std::to_string(i)).append("]");
  return out;
}

Status parse_object(std::string_view text, Json& doc) {
  if (text.size() > kMaxDvpRequestJsonBytes) {
    return make_error(
        "request is larger than " + std::to_string(kMaxDvpRequestJsonBytes) + " bytes", "input",
        "");
  }
  std::string duplicate, duplicate_message, not_json, not_json_field;
  try {
    ParsedJson parsed = parse_json(text);
    doc = std::move(parsed.value);
    duplicate = std::move(parsed.duplicate);
    duplicate_message = std::move(parsed.duplicate_message);
    if (doc.is_discarded()) {
      not_json = not_json_message("request", parsed);
      not_json_field = std::move(parsed.bad_value_field);
    }
  } catch (const std::exception& e) {  // e.g. std::bad_alloc; nlohmann itself is told not to
    return make_error(std::string("request could not be parsed: ") + e.what(), "input", "");
  }
  if (doc.is_discarded())
    return make_error(std::move(not_json), "input", std::move(not_json_field));
  if (!duplicate.empty()) return make_error(std::move(duplicate_message), "input", duplicate);
  if (!doc.is_object()) {
    std::string what("request must be a JSON object, not a JSON ");
    what.append(doc.type_name());
    return make_error(std::move(what), "input", "");
  }
  return ok_status();
}

Result<const Json*> required_member(const Json& obj, const char* key, const std::string& field) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) {
    return make_error(missing_field_message(obj, key, field), "input", field);
  }
  return &*it;
}

Result<const Json*> optional_member(const Json& obj, const char* key, const std::string& field) {
  auto it = obj.find(key);
  if (it != obj.end() && !it->is_null()) return &*it;
  if (has_member_in_other_case(obj, key)) {
    return make_error(missing_field_message(obj, key, field), "input", field);
  }
  return nullptr;
}

const Json* member_ignoring_case(const Json& obj, std::string_view key) {
  const std::string folded = fold_member_name(key);
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (fold_member_name(it.key()) == folded) return it->is_null() ? nullptr : &*it;
  }
  return nullptr;
}

Result<Fr> decimal(const Json& v, const std::string& field) {
  if (!v.is_string()) {
    return input_error(field, std::string("must be a decimal string, not a JSON ") + v.type_name());
  }
  auto f = Fr::from_decimal(v.get_ref<const std::string&>());
  if (!f) return input_error(field, "is not a canonical field element (a decimal string below p)");
  return *f;
}

Status check_array(const Json& v, const std::string& field) {
  if (v.is_array()) return ok_status();
  return input_error(field, std::string("must be an array, not a JSON ") + v.type_name());
}

Status check_object(const Json& v, const std::string& field) {
  if (v.is_object()) return ok_status();
  return input_error(field, std::string("must be an object, not a JSON ") + v.type_name());
}

Status check_string(const Json& v, const std::string& field) {
  if (v.is_string()) return ok_status();
  return input_error(field, std::string("must be a string, not a JSON ") + v.type_name());
}

namespace {
// (nlohmann reads an integer above 2^64 - 1 as a double, as it does 1.5 and 1e3)
Error not_a_json_integer(const Json& v, const std::string& field) {
  return input_error(
      field, std::string("must be a JSON integer, not a JSON ") +
                 (v.is_number_float() ? "number with a fraction or an exponent, or above 2^64 - 1"
                                      : v.type_name()));
}
}  // namespace

Result<Fr> tree_number(const Json& v, const std::string& field) {
  constexpr uint64_t kGoIntMax = uint64_t(std::numeric_limits<int64_t>::max());
  if (v.is_number_unsigned()) {
    const uint64_t x = v.get<uint64_t>();
    if (x > kGoIntMax) return input_error(field, "is larger than a Go int (2^63 - 1)");
    return Fr::from_u64(x);
  }
  if (v.is_number_integer()) {
    if (v.get<int64_t>() == 0) return Fr::zero();  // -0, which Go reads as 0
    return input_error(field, "is negative");
  }
  return not_a_json_integer(v, field);
}

Status check_go_int(const Json& v, const std::string& field) {
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max())) {
      return input_error(field, "is larger than a Go int (2^63 - 1)");
    }
    return ok_status();
  }
  if (v.is_number_integer()) return ok_status();  // negative: a Go int
  return not_a_json_integer(v, field);
}

Result<Fr> hex_address(const Json& v, const std::string& field) {
  if (!v.is_string()) {
    return input_error(field, std::string("must be a hex string, not a JSON ") + v.type_name());
  }
  std::string_view s = v.get_ref<const std::string&>();
  if (s.size() >= 2 && s[0] == '0' && s[1] == 'x') s.remove_prefix(2);
  if (s.empty()) return input_error(field, "has no hex digits");
  U256 x;
  for (char c : s) {
    unsigned digit;
    if (c >= '0' && c <= '9') {
      digit = unsigned(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = unsigned(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = unsigned(c - 'A' + 10);
    } else {
      return input_error(field,
                         "is not a hex string (an optional \"0x\", then the digits 0-9, a-f, A-F)");
    }
    if (x.w[3] >> 60 != 0) return input_error(field, "is not below p");
    mul_small_add(x, x, 16, digit);
  }
  auto f = Fr::from_canonical(x);
  if (!f) return input_error(field, "is not below p");
  return *f;
}

Status read_merkle_proof(const Json& v, const std::string& field, bool elements_required, Fr& index,
                         MerklePath& path) {
  if (Status st = check_object(v, field); !st) return st;
  const std::string index_field = field + ".indices";
  auto idx = required_member(v, "indices", index_field);
  if (!idx) return idx.error();
  auto idx_value = decimal(**idx, index_field);
  if (!idx_value) return idx_value.error();
  index = *idx_value;
  path.fill(Fr::zero());
  const std::string elements_field = field + ".elements";
  auto elements_member = optional_member(v, "elements", elements_field);
  if (!elements_member) return elements_member.error();
  const Json* elements = *elements_member;
  if (!elements) {
    if (elements_required)
      return make_error("missing field " + elements_field, "input", elements_field);
    return ok_status();
  }
  if (Status st = check_array(*elements, elements_field); !st) return st;
  for (size_t m = 0; m < elements->size(); ++m) {
    auto e = decimal((*elements)[m], indexed(elements_field, m));
    if (!e) return e.error();
    if (m < kMerkleDepth) path[m] = *e;
  }
  return ok_status();
}

Status read_key_pair(const Json& v, const std::string& field, bool use_private,
                     bool public_key_required, Fr& out) {
  if (Status st = check_object(v, field); !st) return st;
  const std::string pub_field = field + ".publicKey", priv_field = field + ".privateKey";
  const std::string& used_field = use_private ? priv_field : pub_field;
  const std::string& ignored_field = use_private ? pub_field : priv_field;
  auto used = required_member(v, use_private ? "privateKey" : "publicKey", used_field);
  if (!used) return used.error();
  auto value = decimal(**used, used_field);
  if (!value) return value.error();
  auto ignored_member = optional_member(v, use_private ? "publicKey" : "privateKey", ignored_field);
  if (!ignored_member) return ignored_member.error();
  if (const Json* ignored = *ignored_member) {
    if (Status st = check_string(*ignored, ignored_field); !st) return st;
    if (use_private && public_key_required && ignored->get_ref<const std::string&>().empty()) {
      return make_error("missing field " + ignored_field, "input", ignored_field);
    }
  } else if (use_private && public_key_required) {
    return make_error("missing field " + ignored_field, "input", ignored_field);
  }
  out = *value;
  return ok_status();
}

std::string address_hex(const Fr& address) {
  // The digits written once, into the string of their final size (a private field: no shorter
  // copy, no temporary, is freed unwiped).
  std::string hex = to_hex(address.to_u256());  // "0x" + 64 digits
  size_t first = 2;
  while (first < hex.size() - 40 && hex[first] == '0') ++first;
  std::string out(2 + hex.size() - first, '0');
  out[1] = 'x';
  std::copy(hex.begin() + std::ptrdiff_t(first), hex.end(), out.begin() + 2);
  sodium_memzero(hex.data(), hex.size());
  return out;
}

Status read_scalar(const Json& doc, const char* key, Fr& out) {
  auto m = required_member(doc, key, key);
  if (!m) return m.error();
  auto f = decimal(**m, key);
  if (!f) return f.error();
  out = *f;
  return ok_status();
}

Status check_merkle_depth(const Json& doc) {
  auto depth = optional_member(doc, "merkleDepth", "merkleDepth");
  if (!depth) return depth.error();
  if (*depth) return check_go_int(**depth, "merkleDepth");
  return ok_status();
}

std::string dump_wiped(nlohmann::ordered_json& doc) {
  std::string text = dump_wiping(doc, 2);
  wipe_json_values(doc);
  return text;
}

}  // namespace enygma::dvp
