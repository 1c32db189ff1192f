// What the three payment requests (transfer, deposit, withdraw) share: the fields of the
// reference's transfer request (../shared/docs/transfer-relation.md, "Inputs"), their parsing
// with errors that name the field, their 8k + 2 public inputs, and the JSON reader and writer
// the three families build their own fields with. Only the format is checked here (fields
// present, array lengths, canonical decimal strings); the rules are in rules.hpp.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/field/fr.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "core/util/result.hpp"

namespace enygma {

// Anonymity-set sizes one circuit definition serves (every payment family).
inline constexpr unsigned kMinK = 2;
inline constexpr unsigned kMaxK = 16;
// The payment circuits (transfer, deposit, withdraw) never take the transfer random values as
// wires: they enter only through the commitments, derived by R14 (CircuitFamily's
// fields_derived_by_circuit).
inline constexpr std::string_view kPaymentFieldsDerivedByCircuit[] = {"tx_random_values"};

// The transfer request's fields, which deposit and withdraw requests carry unchanged.
struct PaymentRequest {
  unsigned k = 0;
  // private
  Fr sender_id, secret_key, previous_sender_balance, previous_sender_random_value, sender_tx_value;
  std::vector<Fr> shared_secrets, tx_values, tx_random_values;
  // public (the order of payment_public_inputs() below)
  std::vector<Fr> hashed_shared_secrets, public_keys;
  std::vector<BjjPoint> previous_commits, tx_commits;
  Fr nullifier, block_number;
  std::vector<Fr> anonymity_set, message_tags;

  PaymentRequest() = default;
  PaymentRequest(const PaymentRequest&) = default;
  PaymentRequest& operator=(const PaymentRequest&) = default;
  PaymentRequest(PaymentRequest&&) = default;
  PaymentRequest& operator=(PaymentRequest&&) = default;
  ~PaymentRequest() { wipe_payment_secrets(); }

  // The 8k + 2 public inputs every payment statement starts with, in the documented order: hs,
  // pk, pc (x0,y0,...), tc (x0,y0,...), nullifier, block_number, anonymity_set, message_tags.
  std::vector<Fr> payment_public_inputs() const;
  // Overwrite every private value of these fields with zeros (sodium_memzero).
  void wipe_payment_secrets();
  // Every array has k entries (what the circuits and the rules index by).
  bool payment_shape_ok() const;
};

namespace payment {

// A request document: a JSON object of at most 1 MiB, read field by field. Every error names
// its field (rule "input", field e.g. "tx_values[3]"); the document's strings, which hold
// secrets as decimal text, are wiped when it is destroyed.
class RequestJson {
 public:
  static Result<RequestJson> parse(std::string_view text);
  RequestJson(RequestJson&&) noexcept;
  RequestJson& operator=(RequestJson&&) noexcept;
  ~RequestJson();

  // A canonical decimal field element (a string of digits below p).
  Status read_scalar(const char* name, Fr& out) const;
  // An array of exactly n of them. With zero_padding, entries past n are taken when each is
  // zero (a "0" decimal string: the relayer pads a note list to its configured length, and the
  // reference, whose Go arrays have n entries, drops what follows) and left out.
  Status read_vector(const char* name, size_t n, std::vector<Fr>& out,
                     bool zero_padding = false) const;
  // An array of exactly n pairs [x, y].
  Status read_points(const char* name, size_t n, std::vector<BjjPoint>& out) const;

 private:
  struct Doc;
  explicit RequestJson(std::unique_ptr<Doc> doc);
  std::unique_ptr<Doc> doc_;
};

// A request document written in the order fields are added (decimal strings, 2-space indent);
// its strings are wiped when it is destroyed.
class RequestJsonWriter {
 public:
  RequestJsonWriter();
  ~RequestJsonWriter();
  RequestJsonWriter(const RequestJsonWriter&) = delete;
  RequestJsonWriter& operator=(const RequestJsonWriter&) = delete;

  void add(const char* name, const Fr& x);
  void add(const char* name, const std::vector<Fr>& xs);
  void add(const char* name, const std::vector<BjjPoint>& ps);
  std::string dump() const;

 private:
  struct Doc;
  std::unique_ptr<Doc> doc_;
};

// k and every payment field set to zeros, the arrays with k entries: the values of a
// shape-only circuit build.
void zero_payment_fields(PaymentRequest& r, unsigned k);

// The error for a k outside kMinK..kMaxK (rule "input", field "k").
Error unsupported_k(unsigned k);

// Reads the transfer fields into `out` (k is set first), in the reference's field order so that
// the first error is the same on every run.
Status read_payment_fields(const RequestJson& doc, unsigned k, PaymentRequest& out);
// Writes them in the reference's field order.
void write_payment_fields(RequestJsonWriter& doc, const PaymentRequest& req);

// A family's parser (Request: TransferRequest, DepositRequest, ...): k checked, the document
// parsed, the payment fields read, then the family's own by `read_own(doc, req)` (a Status, in
// the reference's field order). On an error the request's destructor wipes what was read.
template <class Request, class ReadOwn>
Result<Request> parse_request(std::string_view json_text, unsigned k, ReadOwn read_own) {
  if (k < kMinK || k > kMaxK) return unsupported_k(k);
  auto doc = RequestJson::parse(json_text);
  if (!doc) return doc.error();
  Request req;
  Status st = read_payment_fields(*doc, k, req);
  if (st) st = read_own(*doc, req);
  if (!st) return st.error();
  return req;
}

}  // namespace payment
}  // namespace enygma
