#include "core/payment/wallet.hpp"

#include <sodium.h>

#include <cstring>
#include <string>

#include "core/payment/relation.hpp"

namespace enygma {

namespace bjj = babyjubjub;

void SenderInputs::wipe_sender_secrets() {
  sodium_memzero(&secret_key, sizeof(Fr));
  sodium_memzero(&balance, sizeof(Fr));
  sodium_memzero(&balance_random, sizeof(Fr));
  if (!shared_secrets.empty()) {
    sodium_memzero(shared_secrets.data(), shared_secrets.size() * sizeof(Fr));
  }
}

namespace payment {

Error wallet_error(const std::string& field, const std::string& what) {
  return make_error(field + " " + what, "wallet", field);
}

Status check_wallet_k(unsigned k) {
  if (k >= kMinK && k <= kMaxK) return ok_status();
  return wallet_error("k", "= " + std::to_string(k) + " is not in " + std::to_string(kMinK) + ".." +
                               std::to_string(kMaxK));
}

std::optional<WalletRefusal> sender_inputs_refusal(const SenderInputs& in) {
  const unsigned k = in.k;
  if (Status st = check_wallet_k(k); !st) return WalletRefusal{st.error()};
  auto sized = [&](const char* name, size_t n, bool may_be_empty) -> Status {
    if (n == k || (may_be_empty && n == 0)) return ok_status();
    return wallet_error(name,
                        "has " + std::to_string(n) + " entries, expected " + std::to_string(k));
  };
  for (Status st : {sized("anonymity_set", in.anonymity_set.size(), false),
                    sized("shared_secrets", in.shared_secrets.size(), false),
                    sized("public_keys", in.public_keys.size(), false),
                    sized("previous_commits", in.previous_commits.size(), true)}) {
    if (!st) return WalletRefusal{st.error()};
  }
  if (in.sender_index >= k) return WalletRefusal{wallet_error("sender_index", "is not below k")};
  if (!relation::below_l(in.balance_random)) {
    return WalletRefusal{
        wallet_error("random", "is not below l (R16; R mod l opens the same commitment)")};
  }
  for (unsigned i = 0; i < k; ++i) {
    if (i != in.sender_index && in.anonymity_set[i] == in.anonymity_set[in.sender_index]) {
      return WalletRefusal{
          wallet_error("anonymity_set", "repeats the sender's id at index " + std::to_string(i)),
          WalletFault::kSenderIdRepeated, i};
    }
  }
  return std::nullopt;
}

Status check_sender_inputs(const SenderInputs& in) {
  if (auto refusal = sender_inputs_refusal(in)) return refusal->error;
  return ok_status();
}

void derive_payment_fields(const SenderInputs& in, const Fr& amount, PaymentRequest& q) {
  const unsigned k = in.k, j = in.sender_index;
  const Fr& b = in.block_number;
  q.k = k;
  q.sender_id = in.anonymity_set[j];
  q.secret_key = in.secret_key;
  q.previous_sender_balance = in.balance;
  q.previous_sender_random_value = in.balance_random;
  q.sender_tx_value = amount;
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
  sodium_memzero(h.data(), h.size() * sizeof(Fr));
  q.tx_commits.resize(k);
  for (unsigned i = 0; i < k; ++i) {
    q.tx_commits[i] = bjj::pedersen(q.tx_values[i], q.tx_random_values[i]);  // R13
  }
  q.previous_commits = in.previous_commits;
  if (q.previous_commits.empty()) q.previous_commits.assign(k, bjj::identity());
  q.previous_commits[j] = bjj::pedersen(in.balance, in.balance_random);  // R7
  q.nullifier = relation::nullifier(q.hashed_shared_secrets[j], b);      // R12
}

std::array<uint8_t, 32> seed_from_u64(uint64_t seed) {
  std::array<uint8_t, 32> s{};
  for (int i = 0; i < 8; ++i) s[i] = uint8_t(seed >> (8 * i));
  return s;
}

U256 low_bits(U256 x, unsigned bits) {
  for (unsigned w = 0; w < 4; ++w) {
    if (bits >= 64 * (w + 1)) continue;
    x.w[w] = bits <= 64 * w ? 0 : x.w[w] & ((uint64_t(1) << (bits - 64 * w)) - 1);
  }
  return x;
}

U256 at_most(const U256& x, const U256& bound) {
  U256 r = low_bits(x, bound.bit_length());
  if (cmp(r, bound) > 0) {
    U256 b1;
    add_carry(b1, bound, U256::from_u64(1));
    sub_borrow(r, r, b1);
  }
  return r;
}

void sender_inputs_from_seed(const SeedExpander& ex, unsigned k, SenderInputs& in) {
  in.k = k;
  in.secret_key = ex.mod_l("secret_key");
  in.balance_random = ex.mod_l("balance_random");
  in.sender_index = unsigned(ex.u64("sender_index") % k);
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
}

void balance_and_amount_from_seed(const SeedExpander& ex, const U256& cap, U256& balance,
                                  U256& amount) {
  const U256 v_bound_bits = ex.u256("balance_bits");
  const U256 r_balance = ex.u256("balance"), r_amount = ex.u256("amount");
  const unsigned shape = unsigned(ex.u64("shape") % 8);
  balance = U256{};
  amount = U256{};
  if (shape == 1) {  // the largest balance, as much of it sent as allowed
    balance = low_bits(U256{{~0ull, ~0ull, ~0ull, ~0ull}}, 250);
    amount = cmp(balance, cap) <= 0 ? balance : cap;
  } else if (shape != 0) {  // shape 0: V = v = 0, like the k = 2 reference request
    balance = low_bits(r_balance, unsigned(v_bound_bits.w[0] % 251));
    const U256 most = cmp(balance, cap) <= 0 ? balance : cap;
    if (shape == 2) {
      amount = most;
    } else if (shape == 3) {
      amount = U256{};
    } else {  // below 2^bitlen(most) <= 2 (most + 1), folded once into [0, most]
      amount = at_most(r_amount, most);
    }
  }
}

}  // namespace payment
}  // namespace enygma
