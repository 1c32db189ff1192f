// What a wallet computes to build a valid deposit request ("What a wallet computes" in
// ../shared/docs/deposit-relation.md): a transfer with no recipient (tv[j] = (l - v) mod l,
// every other tv[i] = 0) and the new note Note(pk, saltOut, v, address); and deterministic
// wallet inputs from a seed.
#pragma once

#include <array>
#include <cstdint>

#include "core/deposit/request.hpp"
#include "core/payment/wallet.hpp"
#include "core/util/result.hpp"

namespace enygma {

struct DepositWalletInputs : SenderInputs {
  Fr amount;           // v, moved from the balance into the note (v <= V)
  Fr note_public_key;  // the note owner's spend key PK(sk') = Poseidon(sk', sk') mod l
  Fr salt;             // saltOut
  Fr address;          // the token contract's address as an integer

  DepositWalletInputs() = default;
  DepositWalletInputs(const DepositWalletInputs&) = default;
  DepositWalletInputs& operator=(const DepositWalletInputs&) = default;
  DepositWalletInputs(DepositWalletInputs&&) = default;
  DepositWalletInputs& operator=(DepositWalletInputs&&) = default;
  ~DepositWalletInputs() { wipe_secrets(); }
  void wipe_secrets();
};

// The sender's inputs (payment::check_sender_inputs), V < 2^250 and v <= V (R11); errors use
// rule "wallet" and name the input.
Status check_deposit_wallet_inputs(const DepositWalletInputs& in);

// The request for `in`, or the reason check_deposit_wallet_inputs gives.
Result<DepositRequest> make_deposit_checked(const DepositWalletInputs& in);

// From the seed (BLAKE2b as for the transfer wallet, the same labels for the shared inputs):
// the sender's side, V < 2^250 and v <= min(V, 10^36 - 1) with the same edges as the transfer
// wallet (v = 0, v = V, V = 0, V = 2^250 - 1; a note above the DvP bound could never be spent,
// deposit-relation.md item 9), the owner's key PK(sk') of a seed-drawn sk' (sometimes the
// sender's own), a salt uniform mod l and a 160-bit address.
DepositWalletInputs deposit_inputs_from_seed(unsigned k, const std::array<uint8_t, 32>& seed);

}  // namespace enygma
