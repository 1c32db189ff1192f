#include "core/deposit/wallet.hpp"

#include <sodium.h>

#include "core/payment/relation.hpp"

namespace enygma {

void DepositWalletInputs::wipe_secrets() {
  wipe_sender_secrets();
  sodium_memzero(&amount, sizeof(Fr));
  sodium_memzero(&note_public_key, sizeof(Fr));
  sodium_memzero(&salt, sizeof(Fr));
  sodium_memzero(&address, sizeof(Fr));
}

Status check_deposit_wallet_inputs(const DepositWalletInputs& in) {
  if (Status st = payment::check_sender_inputs(in); !st) return st;
  if (!relation::below_pow2(in.balance, 250)) {
    return payment::wallet_error("balance", "is not below 2^250 (R11)");
  }
  if (cmp(in.amount.to_u256(), in.balance.to_u256()) > 0) {
    return payment::wallet_error("amount", "exceeds the balance (R11)");
  }
  return ok_status();
}

Result<DepositRequest> make_deposit_checked(const DepositWalletInputs& in) {
  if (Status st = check_deposit_wallet_inputs(in); !st) return st.error();
  DepositRequest q;
  q.tx_values.assign(in.k, Fr::zero());                                       // R15d
  q.tx_values[in.sender_index] = relation::sender_tx_value_entry(in.amount);  // R2
  payment::derive_payment_fields(in, in.amount, q);
  q.note_public_key = in.note_public_key;
  q.salt_out = in.salt;
  q.address = in.address;
  q.hash = relation::note_hash(in.note_public_key, in.salt, in.amount, in.address);  // D1
  return q;
}

DepositWalletInputs deposit_inputs_from_seed(unsigned k, const std::array<uint8_t, 32>& seed) {
  const SeedExpander ex(seed);
  DepositWalletInputs in;
  payment::sender_inputs_from_seed(ex, k, in);
  U256 balance, amount;  // v at most 10^36 - 1
  payment::balance_and_amount_from_seed(ex, relation::note_amount_max(), balance, amount);
  in.balance = *Fr::from_canonical(balance);
  in.amount = *Fr::from_canonical(amount);
  sodium_memzero(&balance, sizeof(balance));
  sodium_memzero(&amount, sizeof(amount));
  // One seed in four deposits to the sender's own key.
  Fr owner_sk = ex.u64("note_owner") % 4 == 0 ? in.secret_key : ex.mod_l("note_owner_secret_key");
  in.note_public_key = relation::public_key(owner_sk);
  sodium_memzero(&owner_sk, sizeof(owner_sk));
  in.salt = ex.mod_l("note_salt");
  in.address = *Fr::from_canonical(payment::low_bits(ex.u256("address"), 160));
  return in;
}

}  // namespace enygma
