// Parsing and printing of the reference request JSON. Every check names its field; nothing is
// converted before the array lengths are known to be k, so a hostile request costs no more
// than the JSON parse itself (and that is bounded by kMaxRequestJsonBytes).
#include "core/transfer/request.hpp"

#include <sodium.h>

#include <nlohmann/json.hpp>

namespace enygma {

namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

// A k = 16 request is about 12 KB; anything much larger is not a request.
constexpr size_t kMaxRequestJsonBytes = size_t(1) << 20;

const char* type_name(const json& v) {
  return v.type_name();
}

std::string indexed(const char* name, size_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

// Zero the string values of a parsed or printed request (they hold the secrets as decimal
// text) down to the depth of a request's arrays of pairs; deeper content is no request field.
template <class J>
void wipe_strings(J& v, int depth_left) {
  if (v.is_string()) {
    auto& s = v.template get_ref<std::string&>();
    if (!s.empty()) sodium_memzero(s.data(), s.size());
  } else if (depth_left > 0 && (v.is_array() || v.is_object())) {
    for (auto& e : v) wipe_strings(e, depth_left - 1);
  }
}

Error input_error(const std::string& field, const std::string& what) {
  return make_error(field + " " + what, "input", field);
}

Result<Fr> to_fr(const json& v, const std::string& field) {
  if (!v.is_string()) {
    return input_error(field, std::string("must be a decimal string, not a JSON ") + type_name(v));
  }
  const std::string& s = v.get_ref<const std::string&>();
  auto f = Fr::from_decimal(s);
  if (!f) return input_error(field, "is not a canonical field element (a decimal string below p)");
  return *f;
}

// The member `name` of the object `obj`, or an error naming it.
Result<const json*> member(const json& obj, const char* name) {
  auto it = obj.find(name);
  if (it == obj.end()) return make_error(std::string("missing field ") + name, "input", name);
  return &*it;
}

Status read_scalar(const json& obj, const char* name, Fr& out) {
  auto m = member(obj, name);
  if (!m) return m.error();
  auto f = to_fr(**m, name);
  if (!f) return f.error();
  out = *f;
  return ok_status();
}

Status check_array(const json& v, const std::string& field, size_t n) {
  if (!v.is_array()) {
    return input_error(field, std::string("must be an array, not a JSON ") + type_name(v));
  }
  if (v.size() != n) {
    return input_error(
        field, "has " + std::to_string(v.size()) + " entries, expected " + std::to_string(n));
  }
  return ok_status();
}

Status read_vector(const json& obj, const char* name, unsigned k, std::vector<Fr>& out) {
  auto m = member(obj, name);
  if (!m) return m.error();
  const json& arr = **m;
  if (auto st = check_array(arr, name, k); !st) return st;
  out.assign(k, Fr::zero());
  for (unsigned i = 0; i < k; ++i) {
    auto f = to_fr(arr[i], indexed(name, i));
    if (!f) return f.error();
    out[i] = *f;
  }
  return ok_status();
}

Status read_points(const json& obj, const char* name, unsigned k, std::vector<BjjPoint>& out) {
  auto m = member(obj, name);
  if (!m) return m.error();
  const json& arr = **m;
  if (auto st = check_array(arr, name, k); !st) return st;
  out.assign(k, BjjPoint{});
  for (unsigned i = 0; i < k; ++i) {
    const std::string field = indexed(name, i);
    if (auto st = check_array(arr[i], field, 2); !st) return st;
    auto x = to_fr(arr[i][0], field + "[0]");
    if (!x) return x.error();
    auto y = to_fr(arr[i][1], field + "[1]");
    if (!y) return y.error();
    out[i] = {*x, *y};
  }
  return ok_status();
}

Result<TransferRequest> parse_object(const json& doc, unsigned k) {
  if (!doc.is_object()) {
    return make_error(std::string("request must be a JSON object, not a JSON ") + type_name(doc),
                      "input", "");
  }
  TransferRequest req;
  req.k = k;
  // Checked in the reference field order, so the first error is the same on every run.
  Status st = read_scalar(doc, "sender_id", req.sender_id);
  if (st) st = read_scalar(doc, "secret_key", req.secret_key);
  if (st) st = read_scalar(doc, "sender_tx_value", req.sender_tx_value);
  if (st) st = read_vector(doc, "public_keys", k, req.public_keys);
  if (st) st = read_points(doc, "previous_commits", k, req.previous_commits);
  if (st) st = read_scalar(doc, "previous_sender_balance", req.previous_sender_balance);
  if (st) st = read_scalar(doc, "previous_sender_random_value", req.previous_sender_random_value);
  if (st) st = read_points(doc, "tx_commits", k, req.tx_commits);
  if (st) st = read_vector(doc, "tx_values", k, req.tx_values);
  if (st) st = read_vector(doc, "tx_random_values", k, req.tx_random_values);
  if (st) st = read_vector(doc, "shared_secrets", k, req.shared_secrets);
  if (st) st = read_vector(doc, "hashed_shared_secrets", k, req.hashed_shared_secrets);
  if (st) st = read_vector(doc, "message_tags", k, req.message_tags);
  if (st) st = read_scalar(doc, "block_number", req.block_number);
  if (st) st = read_scalar(doc, "nullifier", req.nullifier);
  if (st) st = read_vector(doc, "anonymity_set", k, req.anonymity_set);
  if (!st) return st.error();  // req's destructor wipes what was read
  return req;
}

template <class J>
J decimal_array(const std::vector<Fr>& xs) {
  J a = J::array();
  for (const Fr& x : xs) a.push_back(x.to_decimal());
  return a;
}

template <class J>
J point_array(const std::vector<BjjPoint>& ps) {
  J a = J::array();
  for (const BjjPoint& p : ps) a.push_back(J::array({p.x.to_decimal(), p.y.to_decimal()}));
  return a;
}

}  // namespace

std::vector<Fr> TransferRequest::public_inputs() const {
  std::vector<Fr> out;
  out.reserve(8 * size_t(k) + 2);
  for (const Fr& x : hashed_shared_secrets) out.push_back(x);
  for (const Fr& x : public_keys) out.push_back(x);
  for (const BjjPoint& p : previous_commits) {
    out.push_back(p.x);
    out.push_back(p.y);
  }
  for (const BjjPoint& p : tx_commits) {
    out.push_back(p.x);
    out.push_back(p.y);
  }
  out.push_back(nullifier);
  out.push_back(block_number);
  for (const Fr& x : anonymity_set) out.push_back(x);
  for (const Fr& x : message_tags) out.push_back(x);
  return out;
}

void TransferRequest::wipe_secrets() {
  sodium_memzero(&sender_id, sizeof(Fr));
  sodium_memzero(&secret_key, sizeof(Fr));
  sodium_memzero(&previous_sender_balance, sizeof(Fr));
  sodium_memzero(&previous_sender_random_value, sizeof(Fr));
  sodium_memzero(&sender_tx_value, sizeof(Fr));
  for (std::vector<Fr>* v : {&shared_secrets, &tx_values, &tx_random_values}) {
    if (!v->empty()) sodium_memzero(v->data(), v->size() * sizeof(Fr));
  }
}

Result<TransferRequest> parse_transfer_request(std::string_view json_text, unsigned k) {
  if (k < kMinK || k > kMaxK) {
    return make_error("k = " + std::to_string(k) + " is not a supported anonymity-set size (" +
                          std::to_string(kMinK) + ".." + std::to_string(kMaxK) + ")",
                      "input", "k");
  }
  if (json_text.size() > kMaxRequestJsonBytes) {
    return make_error("request is larger than " + std::to_string(kMaxRequestJsonBytes) + " bytes",
                      "input", "");
  }
  try {
    json doc = json::parse(json_text.begin(), json_text.end(), nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) return make_error("request is not valid JSON", "input", "");
    Result<TransferRequest> req = parse_object(doc, k);
    wipe_strings(doc, 3);
    return req;
  } catch (const std::exception& e) {  // e.g. std::bad_alloc; nlohmann itself is told not to
    return make_error(std::string("request could not be parsed: ") + e.what(), "input", "");
  }
}

std::string transfer_request_to_json(const TransferRequest& req) {
  ordered_json o;
  o["sender_id"] = req.sender_id.to_decimal();
  o["secret_key"] = req.secret_key.to_decimal();
  o["sender_tx_value"] = req.sender_tx_value.to_decimal();
  o["public_keys"] = decimal_array<ordered_json>(req.public_keys);
  o["previous_commits"] = point_array<ordered_json>(req.previous_commits);
  o["previous_sender_balance"] = req.previous_sender_balance.to_decimal();
  o["previous_sender_random_value"] = req.previous_sender_random_value.to_decimal();
  o["tx_commits"] = point_array<ordered_json>(req.tx_commits);
  o["tx_values"] = decimal_array<ordered_json>(req.tx_values);
  o["tx_random_values"] = decimal_array<ordered_json>(req.tx_random_values);
  o["shared_secrets"] = decimal_array<ordered_json>(req.shared_secrets);
  o["hashed_shared_secrets"] = decimal_array<ordered_json>(req.hashed_shared_secrets);
  o["message_tags"] = decimal_array<ordered_json>(req.message_tags);
  o["block_number"] = req.block_number.to_decimal();
  o["nullifier"] = req.nullifier.to_decimal();
  o["anonymity_set"] = decimal_array<ordered_json>(req.anonymity_set);
  std::string text = o.dump(2);
  wipe_strings(o, 3);
  return text;
}

}  // namespace enygma
