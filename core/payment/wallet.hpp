// What the three payment wallets (transfer, deposit, withdraw) compute alike: the sender's side
// of a request ("What a wallet computes" in ../shared/docs/transfer-relation.md, every field but
// the amounts), and the deterministic expansion of a 32-byte seed into wallet inputs for tests,
// the CLI and the demo.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/field/u256.hpp"
#include "core/payment/request.hpp"
#include "core/primitives/seed_expander.hpp"
#include "core/util/result.hpp"

namespace enygma {

// The sender and its anonymity set, as a wallet knows them.
struct SenderInputs {
  unsigned k = 0;
  Fr secret_key;                  // sk
  Fr balance;                     // V, the committed previous balance
  Fr balance_random;              // R, the blinding of the previous commitment Pedersen(V, R)
  unsigned sender_index = 0;      // j
  std::vector<Fr> anonymity_set;  // k ids; anonymity_set[j] is the sender's id
  Fr block_number;
  // k entries each; entry j is ignored (the wallet derives it from sk and R).
  std::vector<Fr> shared_secrets;  // the other participants' shared secrets
  std::vector<Fr> public_keys;     // the other participants' public keys
  // k entries, or empty for all (0, 1); entry j is ignored (Pedersen(V, R)).
  std::vector<BjjPoint> previous_commits;

  SenderInputs() = default;
  SenderInputs(const SenderInputs&) = default;
  SenderInputs& operator=(const SenderInputs&) = default;
  SenderInputs(SenderInputs&&) = default;
  SenderInputs& operator=(SenderInputs&&) = default;
  ~SenderInputs() { wipe_sender_secrets(); }
  void wipe_sender_secrets();
};

namespace payment {

// An Error with rule "wallet" naming the input: "<field> <what>".
Error wallet_error(const std::string& field, const std::string& what);

// Why a wallet refuses its inputs, as data beside the library's words: for a caller that names
// the inputs in its own (the CLI names the options that gave them).
enum class WalletFault {
  kField,                // what the error's field names is wrong, in its message after the field
  kSenderIdRepeated,     // anonymity_set[at] is the sender's id (R1)
  kAmountOverBalance,    // the amount exceeds the balance (R11)
  kPayeeIndexNotBelowK,  // payees[at].index >= k
  kPayeeIsSender,        // payees[at].index is the sender's index
  kPayeeIndexRepeated,   // payees[at].index is payees[other].index
  kPayeeAmountTooLarge,  // payees[at].amount is not below 2^250 (R15)
  kPayeesSumDiffers,     // the payees' amounts, added as integers, are not the amount (R15)
};
struct WalletRefusal {
  Error error;  // rule "wallet", the input's field: "<field> <what>"
  WalletFault fault = WalletFault::kField;
  size_t at = 0;
  size_t other = 0;
};

// k in kMinK..kMaxK: "k = 17 is not in 2..16" otherwise (the payment families' make_request too).
Status check_wallet_k(unsigned k);

// k (check_wallet_k), array sizes, j below k, R < l (R16), anonymity_set[j] occurring once (R1).
std::optional<WalletRefusal> sender_inputs_refusal(const SenderInputs& in);
// The same as a Status.
Status check_sender_inputs(const SenderInputs& in);

// Every payment field of q from `in`, with sender_tx_value = amount and q.tx_values as given
// (the family's R2 and R15 forms, set before): sender_id, sk, V, R, b, as, pk (R6), ss (R4),
// hs (R5), mt (R8), tr (R14), tc (R13), pc (R7), nf (R12). `in` must pass check_sender_inputs.
void derive_payment_fields(const SenderInputs& in, const Fr& amount, PaymentRequest& q);

// The seed's 8 little-endian bytes followed by zeros.
std::array<uint8_t, 32> seed_from_u64(uint64_t seed);

// The low `bits` bits of x.
U256 low_bits(U256 x, unsigned bits);
// x folded once into [0, bound]: its low bit_length(bound) bits, less bound + 1 when above.
U256 at_most(const U256& x, const U256& bound);

// From the seed: sk, R, j, distinct 64-bit anonymity-set ids, a 32-bit block number, the other
// participants' shared secrets and keys uniform mod l and their previous commitments as Pedersen
// commitments of random balances. Leaves V (balance) to the caller.
void sender_inputs_from_seed(const SeedExpander& ex, unsigned k, SenderInputs& in);

// V < 2^250 of a random bit length and v in [0, min(V, cap)], and, among the seeds, the edges
// (shape = the seed's "shape" value mod 8): 0: V = v = 0; 1: V = 2^250 - 1 and v as large as
// allowed; 2: v = min(V, cap); 3: v = 0; otherwise random.
void balance_and_amount_from_seed(const SeedExpander& ex, const U256& cap, U256& balance,
                                  U256& amount);

}  // namespace payment
}  // namespace enygma
