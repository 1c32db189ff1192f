// A withdraw request: the reference's JSON for POST /generateProofWithdraw-{k} (the Go struct
// WithdrawEnygmak{k}Request, ../shared/docs/withdraw-relation.md, "Inputs"): every transfer
// field (sender_tx_value is here the amount added) plus ten note slots, the consumed notes'
// hashes (public, "0" in unused slots) and their openings (private), and the token address.
// Only the format is checked here; the rules are in validate.hpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/payment/request.hpp"

namespace enygma {

// D: the note slots of every withdraw request, for every k.
inline constexpr unsigned kNoteSlots = 10;

struct WithdrawRequest : PaymentRequest {
  std::vector<Fr> hashes;         // "hashes" (public): the consumed notes; 0 in unused slots
  std::vector<Fr> sk_deposits;    // "sk_deposits": each note's spend secret sk_d
  std::vector<Fr> v_per_deposit;  // "v_per_deposit": each note's amount v_d
  std::vector<Fr> salts_in;       // "saltsIn": each note's salt
  Fr address;                     // "address": the token contract's address as an integer

  WithdrawRequest() = default;
  WithdrawRequest(const WithdrawRequest&) = default;
  WithdrawRequest& operator=(const WithdrawRequest&) = default;
  WithdrawRequest(WithdrawRequest&&) = default;
  WithdrawRequest& operator=(WithdrawRequest&&) = default;
  ~WithdrawRequest() { wipe_note_secrets(); }

  // The 8k + 12 public inputs in the documented order: the 8k + 2 payment inputs, then
  // hashes[0..10).
  std::vector<Fr> public_inputs() const;
  // Overwrite every private value with zeros (sodium_memzero).
  void wipe_secrets();
  // The payment arrays have k entries and the note arrays kNoteSlots.
  bool shape_ok() const;

 private:
  void wipe_note_secrets();
};

// Parse the reference JSON for anonymity-set size k (kMinK..kMaxK). Errors use rule "input" and
// name the field ("saltsIn has 9 entries, expected 10").
Result<WithdrawRequest> parse_withdraw_request(std::string_view json_text, unsigned k);

// The reference JSON of a request (decimal strings, the Go struct's field order).
std::string withdraw_request_to_json(const WithdrawRequest& req);

}  // namespace enygma
