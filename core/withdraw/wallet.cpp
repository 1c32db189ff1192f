#include "core/withdraw/wallet.hpp"

#include <sodium.h>

#include <string>
#include <utility>

#include "core/payment/relation.hpp"

namespace enygma {

namespace {

std::string note_field(size_t n) {
  return std::string("notes[").append(std::to_string(n)).append("]");
}

Fr note_hash_of(const NoteOpening& n, const Fr& address) {
  return relation::note_hash(relation::public_key(n.secret_key), n.salt, n.amount, address);
}

}  // namespace

void WithdrawWalletInputs::wipe_secrets() {
  wipe_sender_secrets();
  sodium_memzero(&address, sizeof(Fr));
  // (the notes: a SecureVector, wiped whenever its memory is released)
}

Status check_withdraw_wallet_inputs(const WithdrawWalletInputs& in) {
  if (Status st = payment::check_sender_inputs(in); !st) return st;
  if (in.notes.size() > kNoteSlots) {
    return payment::wallet_error("notes", "has " + std::to_string(in.notes.size()) +
                                              " entries, at most " + std::to_string(kNoteSlots));
  }
  const U256 bound = relation::note_amount_bound().to_u256();
  std::vector<Fr> hashes;
  for (size_t n = 0; n < in.notes.size(); ++n) {
    const NoteOpening& note = in.notes[n];
    if (note.slot >= kNoteSlots)
      return payment::wallet_error(note_field(n), "slot is not below 10");
    for (size_t m = 0; m < n; ++m) {
      if (in.notes[m].slot == note.slot) {
        return payment::wallet_error(note_field(n), "repeats the slot of " + note_field(m));
      }
    }
    if (cmp(note.amount.to_u256(), bound) >= 0) {
      return payment::wallet_error(note_field(n), "amount is not below 10^36 (W2)");
    }
    const Fr h = note_hash_of(note, in.address);
    if (h.is_zero()) return payment::wallet_error(note_field(n), "has the hash 0 (W1)");
    for (size_t m = 0; m < hashes.size(); ++m) {
      if (hashes[m] == h) {
        return payment::wallet_error(note_field(n),
                                     "is the same note as " + note_field(m) + " (W5)");
      }
    }
    hashes.push_back(h);
  }
  return ok_status();
}

Result<WithdrawRequest> make_withdraw_checked(const WithdrawWalletInputs& in) {
  if (Status st = check_withdraw_wallet_inputs(in); !st) return st.error();
  WithdrawRequest q;
  q.hashes = q.sk_deposits = q.v_per_deposit = q.salts_in = std::vector<Fr>(kNoteSlots, Fr::zero());
  q.address = in.address;
  Fr amount = Fr::zero();  // W3: below 10^37, no wrap
  for (const NoteOpening& note : in.notes) {
    q.hashes[note.slot] = note_hash_of(note, in.address);  // W1
    q.sk_deposits[note.slot] = note.secret_key;
    q.salts_in[note.slot] = note.salt;
    q.v_per_deposit[note.slot] = note.amount;
    amount += note.amount;
  }
  q.tx_values.assign(in.k, Fr::zero());   // R15w
  q.tx_values[in.sender_index] = amount;  // R2w
  payment::derive_payment_fields(in, amount, q);
  sodium_memzero(&amount, sizeof(amount));
  return q;
}

WithdrawWalletInputs withdraw_inputs_from_seed(unsigned k, const std::array<uint8_t, 32>& seed,
                                               unsigned notes) {
  const SeedExpander ex(seed);
  WithdrawWalletInputs in;
  payment::sender_inputs_from_seed(ex, k, in);
  U256 balance, unused;  // V is only opened: any committed balance
  payment::balance_and_amount_from_seed(ex, U256{}, balance, unused);
  in.balance = *Fr::from_canonical(balance);
  sodium_memzero(&balance, sizeof(balance));
  in.address = *Fr::from_canonical(payment::low_bits(ex.u256("address"), 160));

  // The slots: a seed-driven shuffle of 0..9 (Fisher-Yates), its first `notes` entries.
  unsigned slots[kNoteSlots];
  for (unsigned d = 0; d < kNoteSlots; ++d) slots[d] = d;
  for (unsigned d = kNoteSlots - 1; d > 0; --d) {
    std::swap(slots[d], slots[ex.u64("note_slot", d) % (d + 1)]);
  }
  const U256 max_amount = relation::note_amount_max();  // 10^36 - 1
  for (unsigned n = 0; n < notes && n < kNoteSlots; ++n) {
    NoteOpening note;
    note.slot = slots[n];
    note.secret_key = ex.mod_l("note_secret_key", n);
    note.salt = ex.mod_l("note_salt", n);
    const unsigned shape = unsigned(ex.u64("note_shape", n) % 8);
    U256 amount = shape == 0   ? U256{}
                  : shape == 1 ? max_amount
                               : payment::at_most(ex.u256("note_amount", n), max_amount);
    note.amount = *Fr::from_canonical(amount);
    sodium_memzero(&amount, sizeof(amount));
    in.notes.push_back(note);
    sodium_memzero(&note.secret_key, sizeof(Fr));
    sodium_memzero(&note.salt, sizeof(Fr));
    sodium_memzero(&note.amount, sizeof(Fr));
  }
  return in;
}

}  // namespace enygma
