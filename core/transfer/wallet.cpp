// The transfer wallet: the payees' amounts (R2, R15) on top of the sender's side that every
// payment wallet derives alike (core/payment/wallet.hpp).
#include "core/transfer/wallet.hpp"

#include <sodium.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/payment/relation.hpp"
#include "core/transfer/validate.hpp"

namespace enygma {

using payment::wallet_error;

void WalletInputs::wipe_secrets() {
  wipe_sender_secrets();
  sodium_memzero(&amount, sizeof(Fr));
  for (Payee& p : payees) sodium_memzero(&p.amount, sizeof(Fr));
}

std::optional<payment::WalletRefusal> wallet_inputs_refusal(const WalletInputs& in) {
  using payment::WalletFault;
  using payment::WalletRefusal;
  if (auto refusal = payment::sender_inputs_refusal(in)) return refusal;
  const unsigned k = in.k;
  if (!relation::below_pow2(in.balance, 250)) {
    return WalletRefusal{wallet_error("balance", "is not below 2^250 (R11)")};
  }
  if (cmp(in.amount.to_u256(), in.balance.to_u256()) > 0) {
    return WalletRefusal{wallet_error("amount", "exceeds the balance (R11)"),
                         WalletFault::kAmountOverBalance};
  }
  U256 paid;
  for (size_t p = 0; p < in.payees.size(); ++p) {
    const std::string field = "payees[" + std::to_string(p) + "]";
    const Payee& payee = in.payees[p];
    if (payee.index >= k) {
      return WalletRefusal{wallet_error(field, "index is not below k"),
                           WalletFault::kPayeeIndexNotBelowK, p};
    }
    if (payee.index == in.sender_index) {
      return WalletRefusal{wallet_error(field, "is the sender's index"),
                           WalletFault::kPayeeIsSender, p};
    }
    for (size_t q = 0; q < p; ++q) {
      if (in.payees[q].index == payee.index) {
        return WalletRefusal{
            wallet_error(field, "repeats the index of payees[" + std::to_string(q) + "]"),
            WalletFault::kPayeeIndexRepeated, p, q};
      }
    }
    if (!relation::below_pow2(payee.amount, 250)) {
      return WalletRefusal{wallet_error(field, "amount is not below 2^250 (R15)"),
                           WalletFault::kPayeeAmountTooLarge, p};
    }
    add_carry(paid, paid, payee.amount.to_u256());  // at most 15 terms below 2^250
  }
  if (paid != in.amount.to_u256()) {
    return WalletRefusal{wallet_error("payees", "amounts do not add up to the amount (R15)"),
                         WalletFault::kPayeesSumDiffers};
  }
  return std::nullopt;
}

Status check_wallet_inputs(const WalletInputs& in) {
  if (auto refusal = wallet_inputs_refusal(in)) return refusal->error;
  return ok_status();
}

Result<TransferRequest> make_transfer_checked(const WalletInputs& in) {
  if (Status st = check_wallet_inputs(in); !st) return st.error();
  TransferRequest q;
  q.tx_values.assign(in.k, Fr::zero());
  q.tx_values[in.sender_index] = relation::sender_tx_value_entry(in.amount);     // R2
  for (const Payee& payee : in.payees) q.tx_values[payee.index] = payee.amount;  // R15
  payment::derive_payment_fields(in, in.amount, q);
  return q;
}

TransferRequest make_transfer(const WalletInputs& in) {
  Result<TransferRequest> q = make_transfer_checked(in);
  if (!q) std::abort();  // documented precondition: check_wallet_inputs(in) passes
  return std::move(q).value();
}

WalletInputs wallet_inputs_from_seed(unsigned k, const std::array<uint8_t, 32>& seed,
                                     unsigned payees) {
  const SeedExpander ex(seed);
  WalletInputs in;
  payment::sender_inputs_from_seed(ex, k, in);
  U256 balance, amount;
  payment::balance_and_amount_from_seed(
      ex, payment::low_bits(U256{{~0ull, ~0ull, ~0ull, ~0ull}}, 250), balance, amount);
  in.balance = *Fr::from_canonical(balance);
  in.amount = *Fr::from_canonical(amount);

  // The payees: from the recipient the seed picks, the next members in order (skipping j),
  // each given a random part of what is left; the last one the rest.
  payees = std::max(1u, std::min(payees, k - 1));
  unsigned index = unsigned((in.sender_index + 1 + ex.u64("recipient_index") % (k - 1)) % k);
  U256 left = amount;
  for (unsigned p = 0; p < payees; ++p) {
    U256 part = left;
    if (p + 1 < payees) part = payment::at_most(ex.u256("payee_amount", p), left);
    sub_borrow(left, left, part);
    in.payees.push_back({index, *Fr::from_canonical(part)});
    sodium_memzero(&part, sizeof(part));
    do index = (index + 1) % k;
    while (index == in.sender_index);
  }
  sodium_memzero(&balance, sizeof(balance));
  sodium_memzero(&amount, sizeof(amount));
  return in;
}

WalletInputs wallet_inputs_from_seed(unsigned k, uint64_t seed, unsigned payees) {
  return wallet_inputs_from_seed(k, payment::seed_from_u64(seed), payees);
}

Result<WalletInputs> wallet_inputs_from_request(const TransferRequest& req) {
  if (Status st = validate_transfer(req); !st) return st.error();
  const unsigned j = *sender_index(req);
  WalletInputs in;
  in.k = req.k;
  in.secret_key = req.secret_key;
  in.balance = req.previous_sender_balance;
  in.balance_random = req.previous_sender_random_value;
  in.amount = req.sender_tx_value;
  in.sender_index = j;
  for (unsigned i = 0; i < req.k; ++i) {
    if (i != j && !req.tx_values[i].is_zero()) in.payees.push_back({i, req.tx_values[i]});
  }
  in.anonymity_set = req.anonymity_set;
  in.block_number = req.block_number;
  in.shared_secrets = req.shared_secrets;
  in.public_keys = req.public_keys;
  in.previous_commits = req.previous_commits;
  return in;
}

}  // namespace enygma
