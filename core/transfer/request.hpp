// A transfer request: the reference service's JSON (POST /generateProofTransfer-{k}), parsed
// into field elements. Rules R1..R15 of ../shared/docs/transfer-relation.md are checked by
// validate.hpp; this file only checks the format (fields present, array lengths, canonical
// decimal strings) and names the offending field.
// (API contract; implemented in request.cpp.)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/field/fr.hpp"
#include "core/primitives/babyjubjub.hpp"
#include "core/util/result.hpp"

namespace enygma {

// Anonymity-set sizes one circuit definition serves.
inline constexpr unsigned kMinK = 2;
inline constexpr unsigned kMaxK = 16;

struct TransferRequest {
  unsigned k = 0;
  // private
  Fr sender_id, secret_key, previous_sender_balance, previous_sender_random_value,
      sender_tx_value;
  std::vector<Fr> shared_secrets, tx_values, tx_random_values;
  // public (the order of public_inputs() below)
  std::vector<Fr> hashed_shared_secrets, public_keys;
  std::vector<BjjPoint> previous_commits, tx_commits;
  Fr nullifier, block_number;
  std::vector<Fr> anonymity_set, message_tags;

  TransferRequest() = default;
  TransferRequest(const TransferRequest&) = default;
  TransferRequest& operator=(const TransferRequest&) = default;
  TransferRequest(TransferRequest&&) = default;
  TransferRequest& operator=(TransferRequest&&) = default;
  ~TransferRequest() { wipe_secrets(); }

  // The 8k + 2 public inputs in the documented order: hs, pk, pc (x0,y0,...), tc (x0,y0,...),
  // nullifier, block_number, anonymity_set, message_tags.
  std::vector<Fr> public_inputs() const;
  // Overwrite every private value with zeros (sodium_memzero).
  void wipe_secrets();
};

// Parse the reference JSON for anonymity-set size k (kMinK..kMaxK). Errors use rule "input" and
// name the field, e.g. field "tx_values[3]" with "tx_values[3] is not a canonical field element
// (a decimal string below p)".
Result<TransferRequest> parse_transfer_request(std::string_view json_text, unsigned k);

// The reference JSON of a request (all numbers as decimal strings, reference field order).
std::string transfer_request_to_json(const TransferRequest& req);

}  // namespace enygma
