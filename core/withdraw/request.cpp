#include "core/withdraw/request.hpp"

#include <sodium.h>

namespace enygma {

namespace {

// The note slots' fields and the address after the payment ones, in the Go struct's order.
// The four lists may be longer, padded with unused slots ("0"): the relayer pads them to its
// NUMBER_OF_JS_PARAMS_IN, which may exceed the ten slots.
Status read_note_fields(const payment::RequestJson& doc, WithdrawRequest& req) {
  constexpr bool kPadding = true;
  Status st = doc.read_vector("hashes", kNoteSlots, req.hashes, kPadding);
  if (st) st = doc.read_vector("sk_deposits", kNoteSlots, req.sk_deposits, kPadding);
  if (st) st = doc.read_vector("v_per_deposit", kNoteSlots, req.v_per_deposit, kPadding);
  if (st) st = doc.read_scalar("address", req.address);
  if (st) st = doc.read_vector("saltsIn", kNoteSlots, req.salts_in, kPadding);
  return st;
}

}  // namespace

std::vector<Fr> WithdrawRequest::public_inputs() const {
  std::vector<Fr> out = payment_public_inputs();
  out.insert(out.end(), hashes.begin(), hashes.end());
  return out;
}

void WithdrawRequest::wipe_note_secrets() {
  for (std::vector<Fr>* v : {&sk_deposits, &v_per_deposit, &salts_in}) {
    if (!v->empty()) sodium_memzero(v->data(), v->size() * sizeof(Fr));
  }
  sodium_memzero(&address, sizeof(Fr));
}

void WithdrawRequest::wipe_secrets() {
  wipe_payment_secrets();
  wipe_note_secrets();
}

bool WithdrawRequest::shape_ok() const {
  return payment_shape_ok() && hashes.size() == kNoteSlots && sk_deposits.size() == kNoteSlots &&
         v_per_deposit.size() == kNoteSlots && salts_in.size() == kNoteSlots;
}

Result<WithdrawRequest> parse_withdraw_request(std::string_view json_text, unsigned k) {
  return payment::parse_request<WithdrawRequest>(json_text, k, &read_note_fields);
}

std::string withdraw_request_to_json(const WithdrawRequest& req) {
  payment::RequestJsonWriter doc;
  payment::write_payment_fields(doc, req);
  doc.add("hashes", req.hashes);
  doc.add("sk_deposits", req.sk_deposits);
  doc.add("v_per_deposit", req.v_per_deposit);
  doc.add("address", req.address);
  doc.add("saltsIn", req.salts_in);
  return doc.dump();
}

}  // namespace enygma
