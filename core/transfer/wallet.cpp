#include "core/transfer/wallet.hpp"

#include <sodium.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/primitives/babyjubjub.hpp"
#include "core/transfer/relation.hpp"
#include "core/transfer/validate.hpp"

namespace enygma {

namespace {

namespace bjj = babyjubjub;

void wipe(std::vector<Fr>& v) {
  if (!v.empty()) sodium_memzero(v.data(), v.size() * sizeof(Fr));
}

Error wallet_error(const std::string& field, const std::string& what) {
  return make_error(field + " " + what, "wallet", field);
}

// The seed expander: 64 bytes of BLAKE2b keyed by the seed per (label, index).
class Expander {
 public:
  explicit Expander(const std::array<uint8_t, 32>& seed) : seed_(seed) {}
  ~Expander() { sodium_memzero(seed_.data(), seed_.size()); }

  void bytes(const char* label, uint32_t index, uint8_t out[64]) const {
    uint8_t msg[64] = {};
    const size_t n = std::strlen(label);  // labels are short literals
    std::memcpy(msg, label, n);
    for (int b = 0; b < 4; ++b) msg[n + b] = uint8_t(index >> (8 * b));
    crypto_generichash(out, 64, msg, n + 4, seed_.data(), seed_.size());
  }
  // Uniform below l (512 bits reduced: bias below 2^-260).
  Fr mod_l(const char* label, uint32_t index = 0) const {
    uint8_t b[64];
    bytes(label, index, b);
    Fr r = *Fr::from_canonical(BjjScalar::from_wide_le_bytes(b).to_u256());
    sodium_memzero(b, sizeof(b));
    return r;
  }
  U256 u256(const char* label, uint32_t index = 0) const {
    uint8_t b[64];
    bytes(label, index, b);
    U256 r = u256_from_le_bytes(b);
    sodium_memzero(b, sizeof(b));
    return r;
  }
  uint64_t u64(const char* label, uint32_t index = 0) const { return u256(label, index).w[0]; }

 private:
  std::array<uint8_t, 32> seed_;
};

// The low `bits` bits of x.
U256 low_bits(U256 x, unsigned bits) {
  for (unsigned w = 0; w < 4; ++w) {
    if (bits >= 64 * (w + 1)) continue;
    x.w[w] = bits <= 64 * w ? 0 : x.w[w] & ((uint64_t(1) << (bits - 64 * w)) - 1);
  }
  return x;
}

// x folded once into [0, bound]: its low bit_length(bound) bits, less bound + 1 when above.
U256 at_most(const U256& x, const U256& bound) {
  U256 r = low_bits(x, bound.bit_length());
  if (cmp(r, bound) > 0) {
    U256 b1;
    add_carry(b1, bound, U256::from_u64(1));
    sub_borrow(r, r, b1);
  }
  return r;
}

}  // namespace

void WalletInputs::wipe_secrets() {
  sodium_memzero(&secret_key, sizeof(Fr));
  sodium_memzero(&balance, sizeof(Fr));
  sodium_memzero(&balance_random, sizeof(Fr));
  sodium_memzero(&amount, sizeof(Fr));
  for (Payee& p : payees) sodium_memzero(&p.amount, sizeof(Fr));
  wipe(shared_secrets);
}

Status check_wallet_inputs(const WalletInputs& in) {
  const unsigned k = in.k;
  if (k < kMinK || k > kMaxK) {
    return wallet_error("k", "= " + std::to_string(k) + " is not in " + std::to_string(kMinK) +
                                 ".." + std::to_string(kMaxK));
  }
  auto sized = [&](const char* name, size_t n, bool may_be_empty) -> Status {
    if (n == k || (may_be_empty && n == 0)) return ok_status();
    return wallet_error(name,
                        "has " + std::to_string(n) + " entries, expected " + std::to_string(k));
  };
  for (Status st : {sized("anonymity_set", in.anonymity_set.size(), false),
                    sized("shared_secrets", in.shared_secrets.size(), false),
                    sized("public_keys", in.public_keys.size(), false),
                    sized("previous_commits", in.previous_commits.size(), true)}) {
    if (!st) return st;
  }
  if (in.sender_index >= k) return wallet_error("sender_index", "is not below k");
  for (unsigned i = 0; i < k; ++i) {
    if (i != in.sender_index && in.anonymity_set[i] == in.anonymity_set[in.sender_index]) {
      return wallet_error("anonymity_set", "repeats the sender's id at index " + std::to_string(i));
    }
  }
  if (!relation::below_pow2(in.balance, 250)) {
    return wallet_error("balance", "is not below 2^250 (R11)");
  }
  if (cmp(in.amount.to_u256(), in.balance.to_u256()) > 0) {
    return wallet_error("amount", "exceeds the balance (R11)");
  }
  U256 paid;
  for (size_t p = 0; p < in.payees.size(); ++p) {
    const std::string field = "payees[" + std::to_string(p) + "]";
    const Payee& payee = in.payees[p];
    if (payee.index >= k) return wallet_error(field, "index is not below k");
    if (payee.index == in.sender_index) return wallet_error(field, "is the sender's index");
    for (size_t q = 0; q < p; ++q) {
      if (in.payees[q].index == payee.index) {
        return wallet_error(field, "repeats the index of payees[" + std::to_string(q) + "]");
      }
    }
    if (!relation::below_pow2(payee.amount, 250)) {
      return wallet_error(field, "amount is not below 2^250 (R15)");
    }
    add_carry(paid, paid, payee.amount.to_u256());  // at most 15 terms below 2^250
  }
  if (paid != in.amount.to_u256()) {
    return wallet_error("payees", "amounts add up to " + to_decimal(paid) + ", not the amount " +
                                      in.amount.to_decimal() + " (R15)");
  }
  return ok_status();
}

Result<TransferRequest> make_transfer_checked(const WalletInputs& in) {
  if (Status st = check_wallet_inputs(in); !st) return st.error();
  const unsigned k = in.k, j = in.sender_index;
  const Fr& b = in.block_number;
  TransferRequest q;
  q.k = k;
  q.sender_id = in.anonymity_set[j];
  q.secret_key = in.secret_key;
  q.previous_sender_balance = in.balance;
  q.previous_sender_random_value = in.balance_random;
  q.sender_tx_value = in.amount;
  q.block_number = b;
  q.anonymity_set = in.anonymity_set;

  q.public_keys = in.public_keys;
  q.public_keys[j] = relation::public_key(in.secret_key);  // R6
  q.shared_secrets = in.shared_secrets;
  q.shared_secrets[j] = relation::shared_secret(in.balance_random, in.secret_key);  // R4
  q.hashed_shared_secrets.resize(k);
  q.message_tags.resize(k);
  std::vector<Fr> h(k, Fr::zero());
  for (unsigned i = 0; i < k; ++i) {
    q.hashed_shared_secrets[i] = relation::hashed_shared_secret(q.shared_secrets[i]);  // R5
    q.message_tags[i] = relation::message_tag(q.shared_secrets[i], b);                 // R8
    if (i != j) h[i] = relation::random_factor(q.shared_secrets[i], b);                // R14
  }
  q.tx_random_values = relation::tx_random_values(h, j);  // R14
  wipe(h);
  q.tx_values.assign(k, Fr::zero());
  q.tx_values[j] = relation::sender_tx_value_entry(in.amount);  // R2
  for (const Payee& payee : in.payees) q.tx_values[payee.index] = payee.amount;  // R15
  q.tx_commits.resize(k);
  for (unsigned i = 0; i < k; ++i) {
    q.tx_commits[i] = bjj::pedersen(q.tx_values[i], q.tx_random_values[i]);  // R13
  }
  q.previous_commits = in.previous_commits;
  if (q.previous_commits.empty()) q.previous_commits.assign(k, bjj::identity());
  q.previous_commits[j] = bjj::pedersen(in.balance, in.balance_random);  // R7
  q.nullifier = relation::nullifier(q.hashed_shared_secrets[j], b);      // R12
  return q;
}

TransferRequest make_transfer(const WalletInputs& in) {
  Result<TransferRequest> q = make_transfer_checked(in);
  if (!q) std::abort();  // documented precondition: check_wallet_inputs(in) passes
  return std::move(q).value();
}

WalletInputs wallet_inputs_from_seed(unsigned k, const std::array<uint8_t, 32>& seed,
                                     unsigned payees) {
  const Expander ex(seed);
  WalletInputs in;
  in.k = k;
  in.secret_key = ex.mod_l("secret_key");
  in.balance_random = ex.mod_l("balance_random");

  // Balance and amount: mostly random sizes, sometimes the edges of R11.
  const U256 v_bound_bits = ex.u256("balance_bits");
  U256 balance, amount;
  const U256 r_balance = ex.u256("balance"), r_amount = ex.u256("amount");
  const unsigned shape = unsigned(ex.u64("shape") % 8);
  if (shape == 1) {  // the largest balance, all of it sent
    balance = low_bits(U256{{~0ull, ~0ull, ~0ull, ~0ull}}, 250);
    amount = balance;
  } else if (shape != 0) {  // shape 0: V = v = 0, like the k = 2 reference request
    balance = low_bits(r_balance, unsigned(v_bound_bits.w[0] % 251));
    if (shape == 2) {
      amount = balance;
    } else if (shape == 3) {
      amount = U256{};
    } else {  // below 2^bitlen(V) <= 2 (V + 1), folded once into [0, V]
      amount = at_most(r_amount, balance);
    }
  }
  in.balance = *Fr::from_canonical(balance);
  in.amount = *Fr::from_canonical(amount);

  in.sender_index = unsigned(ex.u64("sender_index") % k);
  // The payees: from the recipient the seed picks, the next members in order (skipping j),
  // each given a random part of what is left; the last one the rest.
  payees = std::max(1u, std::min(payees, k - 1));
  unsigned index = unsigned((in.sender_index + 1 + ex.u64("recipient_index") % (k - 1)) % k);
  U256 left = amount;
  for (unsigned p = 0; p < payees; ++p) {
    U256 part = left;
    if (p + 1 < payees) part = at_most(ex.u256("payee_amount", p), left);
    sub_borrow(left, left, part);
    in.payees.push_back({index, *Fr::from_canonical(part)});
    sodium_memzero(&part, sizeof(part));
    do index = (index + 1) % k;
    while (index == in.sender_index);
  }
  in.block_number = Fr::from_u64(ex.u64("block_number") & 0xffffffffu);

  in.anonymity_set.resize(k);
  for (unsigned i = 0; i < k; ++i) {
    for (uint32_t attempt = 0;; ++attempt) {
      Fr id = Fr::from_u64(ex.u64("anonymity_set", i * 1024 + attempt));
      bool fresh = true;
      for (unsigned e = 0; e < i; ++e) fresh = fresh && in.anonymity_set[e] != id;
      if (fresh) {
        in.anonymity_set[i] = id;
        break;
      }
    }
  }
  in.shared_secrets.resize(k);
  in.public_keys.resize(k);
  in.previous_commits.resize(k);
  for (unsigned i = 0; i < k; ++i) {
    in.shared_secrets[i] = ex.mod_l("shared_secret", i);
    Fr other_sk = ex.mod_l("other_secret_key", i);
    in.public_keys[i] = relation::public_key(other_sk);
    sodium_memzero(&other_sk, sizeof(other_sk));
    in.previous_commits[i] = bjj::pedersen(Fr::from_u64(ex.u64("other_balance", i) >> 16),
                                           ex.mod_l("other_balance_random", i));
  }
  sodium_memzero(&balance, sizeof(balance));
  sodium_memzero(&amount, sizeof(amount));
  return in;
}

WalletInputs wallet_inputs_from_seed(unsigned k, uint64_t seed, unsigned payees) {
  std::array<uint8_t, 32> s{};
  for (int i = 0; i < 8; ++i) s[i] = uint8_t(seed >> (8 * i));
  return wallet_inputs_from_seed(k, s, payees);
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
