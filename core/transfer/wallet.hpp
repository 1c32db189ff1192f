// What a wallet computes to build a valid transfer request ("What a wallet computes" in
// ../shared/docs/transfer-relation.md), and deterministic wallet inputs from a seed for tests
// and the demo.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/payment/wallet.hpp"
#include "core/transfer/request.hpp"
#include "core/util/result.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma {

// A member who receives part of the amount.
struct Payee {
  unsigned index = 1;  // != j
  Fr amount;           // below 2^250
};

// The transfer wallet's inputs: the sender's side shared by every payment wallet
// (core/payment/wallet.hpp) and what the transfer pays to whom.
struct WalletInputs : SenderInputs {
  Fr amount;  // v, sent in total (v <= V)
  // Who receives v: distinct indices other than j whose amounts add up to v (R15); every other
  // member receives 0. Empty only when v = 0. (Wiped when freed, also as it grows.)
  SecureVector<Payee> payees;

  WalletInputs() = default;
  WalletInputs(const WalletInputs&) = default;
  WalletInputs& operator=(const WalletInputs&) = default;
  WalletInputs(WalletInputs&&) = default;
  WalletInputs& operator=(WalletInputs&&) = default;
  ~WalletInputs() { wipe_secrets(); }
  void wipe_secrets();
};

// Whether make_transfer can build a valid request from `in`: k in kMinK..kMaxK, array sizes,
// j in 0..k-1, the payees' indices in 0..k-1, distinct and not j, anonymity_set[j] occurring
// once (R1), V < 2^250 and v <= V (R11), every payee's amount below 2^250 and together v (R15),
// R < l (R16).
// Errors use rule "wallet" and name the input.
Status check_wallet_inputs(const WalletInputs& in);
// The same with why, as data (payment::WalletRefusal); nullopt when the inputs pass.
std::optional<payment::WalletRefusal> wallet_inputs_refusal(const WalletInputs& in);

// The request for `in`, or the reason check_wallet_inputs gives.
Result<TransferRequest> make_transfer_checked(const WalletInputs& in);

// The request for `in`, which must pass check_wallet_inputs (aborts otherwise: for trusted
// inputs such as wallet_inputs_from_seed; the CLI uses make_transfer_checked).
TransferRequest make_transfer(const WalletInputs& in);

// Every secret derived from the seed with BLAKE2b (libsodium crypto_generichash keyed by the
// seed, one labelled 64-byte output per value, reduced mod l or p without noticeable bias):
// sk, R, the other participants' shared secrets and keys uniform mod l; V < 2^250 of a random
// bit length with v <= V (a few seeds give the edges v = 0, v = V, V = 0, V = 2^250 - 1);
// j and `payees` recipients (1 by default; at most k - 1) sharing v in random parts; distinct
// 64-bit anonymity-set ids; a 32-bit block number; the other participants' previous
// commitments as Pedersen commitments of random balances.
WalletInputs wallet_inputs_from_seed(unsigned k, const std::array<uint8_t, 32>& seed,
                                     unsigned payees = 1);
// The same with the seed's 8 little-endian bytes followed by zeros as the 32-byte seed.
WalletInputs wallet_inputs_from_seed(unsigned k, uint64_t seed, unsigned payees = 1);

// The wallet inputs of a valid request: make_transfer of them rebuilds the request (the payees
// are the members i != j with tx_values[i] != 0, in index order).
Result<WalletInputs> wallet_inputs_from_request(const TransferRequest& req);

}  // namespace enygma
