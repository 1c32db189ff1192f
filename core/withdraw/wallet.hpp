// What a wallet computes to build a valid withdraw request ("What a wallet computes" in
// ../shared/docs/withdraw-relation.md): the consumed notes' hashes from their openings,
// tv[j] = v = the sum of their amounts, every other tv[i] = 0, unused slots all 0; and
// deterministic wallet inputs from a seed.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/payment/wallet.hpp"
#include "core/util/result.hpp"
#include "core/util/secure_vector.hpp"
#include "core/withdraw/request.hpp"

namespace enygma {

// One consumed note: its slot (0..kNoteSlots-1) and its opening.
struct NoteOpening {
  unsigned slot = 0;
  Fr secret_key;  // sk_d: the note's owner key is PK(sk_d) = Poseidon(sk_d, sk_d) mod l
  Fr salt;        // salt_d
  Fr amount;      // v_d < 10^36 (may be 0: a real note of amount 0)
};

struct WithdrawWalletInputs : SenderInputs {
  Fr address;                       // the token contract's address as an integer
  SecureVector<NoteOpening> notes;  // 0..kNoteSlots notes, distinct slots

  WithdrawWalletInputs() = default;
  WithdrawWalletInputs(const WithdrawWalletInputs&) = default;
  WithdrawWalletInputs& operator=(const WithdrawWalletInputs&) = default;
  WithdrawWalletInputs(WithdrawWalletInputs&&) = default;
  WithdrawWalletInputs& operator=(WithdrawWalletInputs&&) = default;
  ~WithdrawWalletInputs() { wipe_secrets(); }
  void wipe_secrets();
};

// The sender's inputs (payment::check_sender_inputs), at most kNoteSlots notes in distinct slots
// below kNoteSlots, every amount below 10^36 (W2), and distinct non-zero note hashes (W5, W1);
// errors use rule "wallet" and name the input ("notes[2]").
Status check_withdraw_wallet_inputs(const WithdrawWalletInputs& in);

// The request for `in`, or the reason check_withdraw_wallet_inputs gives.
Result<WithdrawRequest> make_withdraw_checked(const WithdrawWalletInputs& in);

// From the seed (BLAKE2b as for the transfer wallet, the same labels for the shared inputs):
// the sender's side with V < 2^250, a 160-bit address, and `notes` notes (0..kNoteSlots) in
// seed-chosen slots, each with sk_d and salt_d uniform mod l and v_d below 10^36 (among the
// seeds, the edges v_d = 0 and v_d = 10^36 - 1).
WithdrawWalletInputs withdraw_inputs_from_seed(unsigned k, const std::array<uint8_t, 32>& seed,
                                               unsigned notes);

}  // namespace enygma
