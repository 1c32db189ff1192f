#include "core/deposit/request.hpp"

#include <sodium.h>

namespace enygma {

namespace {

// The note's fields after the payment ones, in the Go struct's order.
Status read_note_fields(const payment::RequestJson& doc, DepositRequest& req) {
  Status st = doc.read_scalar("hash", req.hash);
  if (st) st = doc.read_scalar("pk", req.note_public_key);
  if (st) st = doc.read_scalar("address", req.address);
  if (st) st = doc.read_scalar("saltOut", req.salt_out);
  return st;
}

}  // namespace

std::vector<Fr> DepositRequest::public_inputs() const {
  std::vector<Fr> out = payment_public_inputs();
  out.push_back(hash);
  return out;
}

void DepositRequest::wipe_note_secrets() {
  sodium_memzero(&note_public_key, sizeof(Fr));
  sodium_memzero(&address, sizeof(Fr));
  sodium_memzero(&salt_out, sizeof(Fr));
}

void DepositRequest::wipe_secrets() {
  wipe_payment_secrets();
  wipe_note_secrets();
}

Result<DepositRequest> parse_deposit_request(std::string_view json_text, unsigned k) {
  return payment::parse_request<DepositRequest>(json_text, k, &read_note_fields);
}

std::string deposit_request_to_json(const DepositRequest& req) {
  payment::RequestJsonWriter doc;
  payment::write_payment_fields(doc, req);
  doc.add("hash", req.hash);
  doc.add("pk", req.note_public_key);
  doc.add("address", req.address);
  doc.add("saltOut", req.salt_out);
  return doc.dump();
}

}  // namespace enygma
