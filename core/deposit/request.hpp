// A deposit request: the reference's JSON for POST /generateProofDeposit-{k} (the Go struct
// DepositEnygmak{k}Request, ../shared/docs/deposit-relation.md, "Inputs"): every transfer field
// plus the new DvP note (`hash`, public) and its opening (`pk`, `address`, `saltOut`, private).
// Only the format is checked here; the rules are in validate.hpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/payment/request.hpp"

namespace enygma {

struct DepositRequest : PaymentRequest {
  Fr hash;             // "hash" (public): the new note, Note(pk, saltOut, v, address)
  Fr note_public_key;  // "pk": the note owner's spend key PK(sk') (any owner)
  Fr address;          // "address": the token contract's address as an integer (decimal)
  Fr salt_out;         // "saltOut": the note's salt

  DepositRequest() = default;
  DepositRequest(const DepositRequest&) = default;
  DepositRequest& operator=(const DepositRequest&) = default;
  DepositRequest(DepositRequest&&) = default;
  DepositRequest& operator=(DepositRequest&&) = default;
  ~DepositRequest() { wipe_note_secrets(); }

  // The 8k + 3 public inputs in the documented order: the 8k + 2 payment inputs, then hash.
  std::vector<Fr> public_inputs() const;
  // Overwrite every private value with zeros (sodium_memzero).
  void wipe_secrets();

 private:
  void wipe_note_secrets();
};

// Parse the reference JSON for anonymity-set size k (kMinK..kMaxK). Errors use rule "input" and
// name the field ("saltOut is not a canonical field element (a decimal string below p)").
Result<DepositRequest> parse_deposit_request(std::string_view json_text, unsigned k);

// The reference JSON of a request (decimal strings, the Go struct's field order).
std::string deposit_request_to_json(const DepositRequest& req);

}  // namespace enygma
