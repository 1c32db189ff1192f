// Parsing and printing of the reference request JSON. Every check names its field; nothing is
// converted before an array's length is known, so a hostile request costs no more than the
// JSON parse itself (and that is bounded by kMaxRequestJsonBytes).
#include "core/payment/request.hpp"

#include <sodium.h>

#include <nlohmann/json.hpp>

#include "core/util/json_parse.hpp"

namespace enygma {

namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

// A k = 16 withdraw request is about 14 KB; anything much larger is not a request.
constexpr size_t kMaxRequestJsonBytes = size_t(1) << 20;

std::string indexed(const std::string& name, size_t i) {
  std::string out = name;
  out += '[';
  out += std::to_string(i);
  out += ']';
  return out;
}

Error input_error(const std::string& field, const std::string& what) {
  return make_error(field + " " + what, "input", field);
}

Result<Fr> to_fr(const json& v, const std::string& field) {
  if (!v.is_string()) {
    return input_error(field, std::string("must be a decimal string, not a JSON ") + v.type_name());
  }
  auto f = Fr::from_decimal(v.get_ref<const std::string&>());
  if (!f) return input_error(field, "is not a canonical field element (a decimal string below p)");
  return *f;
}

Status check_array(const json& v, const std::string& field, size_t n) {
  if (!v.is_array()) {
    return input_error(field, std::string("must be an array, not a JSON ") + v.type_name());
  }
  if (v.size() != n) {
    return input_error(
        field, "has " + std::to_string(v.size()) + " entries, expected " + std::to_string(n));
  }
  return ok_status();
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

std::vector<Fr> PaymentRequest::payment_public_inputs() const {
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

void PaymentRequest::wipe_payment_secrets() {
  sodium_memzero(&sender_id, sizeof(Fr));
  sodium_memzero(&secret_key, sizeof(Fr));
  sodium_memzero(&previous_sender_balance, sizeof(Fr));
  sodium_memzero(&previous_sender_random_value, sizeof(Fr));
  sodium_memzero(&sender_tx_value, sizeof(Fr));
  for (std::vector<Fr>* v : {&shared_secrets, &tx_values, &tx_random_values}) {
    if (!v->empty()) sodium_memzero(v->data(), v->size() * sizeof(Fr));
  }
}

bool PaymentRequest::payment_shape_ok() const {
  return shared_secrets.size() == k && tx_values.size() == k && tx_random_values.size() == k &&
         hashed_shared_secrets.size() == k && public_keys.size() == k &&
         previous_commits.size() == k && tx_commits.size() == k && anonymity_set.size() == k &&
         message_tags.size() == k;
}

namespace payment {

struct RequestJson::Doc {
  json value;
  ~Doc() { wipe_json_values(value); }
};

RequestJson::RequestJson(std::unique_ptr<Doc> doc) : doc_(std::move(doc)) {}
RequestJson::RequestJson(RequestJson&&) noexcept = default;
RequestJson& RequestJson::operator=(RequestJson&&) noexcept = default;
RequestJson::~RequestJson() = default;

Result<RequestJson> RequestJson::parse(std::string_view text) {
  if (text.size() > kMaxRequestJsonBytes) {
    return make_error("request is larger than " + std::to_string(kMaxRequestJsonBytes) + " bytes",
                      "input", "");
  }
  try {
    auto doc = std::make_unique<Doc>();
    ParsedJson parsed = parse_json(text);
    doc->value = std::move(parsed.value);
    if (doc->value.is_discarded())
      return make_error(not_json_message("request", parsed), "input", parsed.bad_value_field);
    if (!parsed.duplicate.empty()) {
      return make_error(parsed.duplicate_message, "input", parsed.duplicate);
    }
    if (!doc->value.is_object()) {
      return make_error(
          std::string("request must be a JSON object, not a JSON ") + doc->value.type_name(),
          "input", "");
    }
    return RequestJson(std::move(doc));
  } catch (const std::exception& e) {  // e.g. std::bad_alloc; nlohmann itself is told not to
    return make_error(std::string("request could not be parsed: ") + e.what(), "input", "");
  }
}

Status RequestJson::read_scalar(const char* name, Fr& out) const {
  auto it = doc_->value.find(name);
  if (it == doc_->value.end())
    return make_error(missing_field_message(doc_->value, name, name), "input", name);
  auto f = to_fr(*it, name);
  if (!f) return f.error();
  out = *f;
  return ok_status();
}

Status RequestJson::read_vector(const char* name, size_t n, std::vector<Fr>& out,
                                bool zero_padding) const {
  auto it = doc_->value.find(name);
  if (it == doc_->value.end())
    return make_error(missing_field_message(doc_->value, name, name), "input", name);
  const bool padded = zero_padding && it->is_array() && it->size() > n;
  if (!padded) {
    if (auto st = check_array(*it, name, n); !st) return st;
  }
  out.assign(n, Fr::zero());
  // The n entries read; those past n (a padded list) must each be 0.
  for (size_t i = 0; i < (padded ? it->size() : n); ++i) {
    auto f = to_fr((*it)[i], indexed(name, i));
    if (!f) return f.error();
    if (i < n) {
      out[i] = *f;
    } else if (!f->is_zero()) {
      return input_error(indexed(name, i), "is not 0: " + std::string(name) + " has " +
                                               std::to_string(it->size()) +
                                               " entries, and those past " + std::to_string(n) +
                                               " may only pad it with unused slots (\"0\")");
    }
  }
  return ok_status();
}

Status RequestJson::read_points(const char* name, size_t n, std::vector<BjjPoint>& out) const {
  auto it = doc_->value.find(name);
  if (it == doc_->value.end())
    return make_error(missing_field_message(doc_->value, name, name), "input", name);
  if (auto st = check_array(*it, name, n); !st) return st;
  out.assign(n, BjjPoint{});
  for (size_t i = 0; i < n; ++i) {
    const std::string field = indexed(name, i);
    const json& pair = (*it)[i];
    if (auto st = check_array(pair, field, 2); !st) return st;
    auto x = to_fr(pair[0], field + "[0]");
    if (!x) return x.error();
    auto y = to_fr(pair[1], field + "[1]");
    if (!y) return y.error();
    out[i] = {*x, *y};
  }
  return ok_status();
}

struct RequestJsonWriter::Doc {
  ordered_json value = object_with_room<ordered_json>(kRequestMembers);
  ~Doc() { wipe_json_values(value); }
};

RequestJsonWriter::RequestJsonWriter() : doc_(std::make_unique<Doc>()) {}
RequestJsonWriter::~RequestJsonWriter() = default;

void RequestJsonWriter::add(const char* name, const Fr& x) {
  doc_->value[name] = x.to_decimal();
}
void RequestJsonWriter::add(const char* name, const std::vector<Fr>& xs) {
  doc_->value[name] = decimal_array<ordered_json>(xs);
}
void RequestJsonWriter::add(const char* name, const std::vector<BjjPoint>& ps) {
  doc_->value[name] = point_array<ordered_json>(ps);
}
std::string RequestJsonWriter::dump() const {
  return dump_wiping(doc_->value, 2);
}

void zero_payment_fields(PaymentRequest& r, unsigned k) {
  r.k = k;
  r.sender_id = r.secret_key = r.previous_sender_balance = r.previous_sender_random_value =
      r.sender_tx_value = r.nullifier = r.block_number = Fr::zero();
  r.shared_secrets = r.tx_values = r.tx_random_values = r.hashed_shared_secrets = r.public_keys =
      r.anonymity_set = r.message_tags = std::vector<Fr>(k, Fr::zero());
  r.previous_commits = r.tx_commits = std::vector<BjjPoint>(k, BjjPoint{Fr::zero(), Fr::zero()});
}

Error unsupported_k(unsigned k) {
  return make_error("k = " + std::to_string(k) + " is not a supported anonymity-set size (" +
                        std::to_string(kMinK) + ".." + std::to_string(kMaxK) + ")",
                    "input", "k");
}

Status read_payment_fields(const RequestJson& doc, unsigned k, PaymentRequest& req) {
  req.k = k;
  Status st = doc.read_scalar("sender_id", req.sender_id);
  if (st) st = doc.read_scalar("secret_key", req.secret_key);
  if (st) st = doc.read_scalar("sender_tx_value", req.sender_tx_value);
  if (st) st = doc.read_vector("public_keys", k, req.public_keys);
  if (st) st = doc.read_points("previous_commits", k, req.previous_commits);
  if (st) st = doc.read_scalar("previous_sender_balance", req.previous_sender_balance);
  if (st) st = doc.read_scalar("previous_sender_random_value", req.previous_sender_random_value);
  if (st) st = doc.read_points("tx_commits", k, req.tx_commits);
  if (st) st = doc.read_vector("tx_values", k, req.tx_values);
  if (st) st = doc.read_vector("tx_random_values", k, req.tx_random_values);
  if (st) st = doc.read_vector("shared_secrets", k, req.shared_secrets);
  if (st) st = doc.read_vector("hashed_shared_secrets", k, req.hashed_shared_secrets);
  if (st) st = doc.read_vector("message_tags", k, req.message_tags);
  if (st) st = doc.read_scalar("block_number", req.block_number);
  if (st) st = doc.read_scalar("nullifier", req.nullifier);
  if (st) st = doc.read_vector("anonymity_set", k, req.anonymity_set);
  return st;
}

void write_payment_fields(RequestJsonWriter& doc, const PaymentRequest& req) {
  doc.add("sender_id", req.sender_id);
  doc.add("secret_key", req.secret_key);
  doc.add("sender_tx_value", req.sender_tx_value);
  doc.add("public_keys", req.public_keys);
  doc.add("previous_commits", req.previous_commits);
  doc.add("previous_sender_balance", req.previous_sender_balance);
  doc.add("previous_sender_random_value", req.previous_sender_random_value);
  doc.add("tx_commits", req.tx_commits);
  doc.add("tx_values", req.tx_values);
  doc.add("tx_random_values", req.tx_random_values);
  doc.add("shared_secrets", req.shared_secrets);
  doc.add("hashed_shared_secrets", req.hashed_shared_secrets);
  doc.add("message_tags", req.message_tags);
  doc.add("block_number", req.block_number);
  doc.add("nullifier", req.nullifier);
  doc.add("anonymity_set", req.anonymity_set);
}

}  // namespace payment
}  // namespace enygma
