// A transfer request: the reference service's JSON (POST /generateProofTransfer-{k}), parsed
// into field elements. Its fields are exactly the payment fields that deposit and withdraw
// requests share (core/payment/request.hpp). Rules R1..R15 of
// ../shared/docs/transfer-relation.md and the project's R16 are checked by validate.hpp; this file
// only checks the format (fields present, array lengths, canonical decimal strings) and names the
// offending field.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/payment/request.hpp"

namespace enygma {

struct TransferRequest : PaymentRequest {
  // The 8k + 2 public inputs in the documented order: hs, pk, pc (x0,y0,...), tc (x0,y0,...),
  // nullifier, block_number, anonymity_set, message_tags.
  std::vector<Fr> public_inputs() const { return payment_public_inputs(); }
  // Overwrite every private value with zeros (sodium_memzero).
  void wipe_secrets() { wipe_payment_secrets(); }
};

// Parse the reference JSON for anonymity-set size k (kMinK..kMaxK). Errors use rule "input" and
// name the field, e.g. field "tx_values[3]" with "tx_values[3] is not a canonical field element
// (a decimal string below p)".
Result<TransferRequest> parse_transfer_request(std::string_view json_text, unsigned k);

// The reference JSON of a request (all numbers as decimal strings, reference field order).
std::string transfer_request_to_json(const TransferRequest& req);

}  // namespace enygma
