// Each rule in its own function, exactly as the relation documents state it.
#include "core/payment/rules.hpp"

#include <sodium.h>

#include "core/payment/relation.hpp"

namespace enygma::payment {

namespace bjj = babyjubjub;

Error rule_error(std::string_view id, const std::string& field, const std::string& what) {
  std::string message(id);  // appended: g++ 12 -Wrestrict false positive on "x" + string
  message.append(": ").append(field).append(" ").append(what);
  return make_error(std::move(message), std::string(id), field);
}

std::string at(const char* name, unsigned i) {
  return std::string(name).append("[").append(std::to_string(i)).append("]");
}

Check check_payment_shape(const PaymentRequest& q) {
  const unsigned k = q.k;
  if (k < kMinK || k > kMaxK) {
    return make_error("k = " + std::to_string(k) + " is not a supported anonymity-set size",
                      "input", "k");
  }
  for (const auto& [name, n] : {std::pair{"shared_secrets", q.shared_secrets.size()},
                                {"tx_values", q.tx_values.size()},
                                {"tx_random_values", q.tx_random_values.size()},
                                {"hashed_shared_secrets", q.hashed_shared_secrets.size()},
                                {"public_keys", q.public_keys.size()},
                                {"previous_commits", q.previous_commits.size()},
                                {"tx_commits", q.tx_commits.size()},
                                {"anonymity_set", q.anonymity_set.size()},
                                {"message_tags", q.message_tags.size()}}) {
    if (n != k) {
      return make_error(std::string(name) + " has " + std::to_string(n) + " entries, expected " +
                            std::to_string(k),
                        "input", name);
    }
  }
  return std::nullopt;
}

std::optional<unsigned> sender_index(const PaymentRequest& q) {
  if (q.anonymity_set.size() != q.k) return std::nullopt;
  std::optional<unsigned> j;
  for (unsigned i = 0; i < q.k; ++i) {
    if (q.anonymity_set[i] != q.sender_id) continue;
    if (j) return std::nullopt;
    j = i;
  }
  return j;
}

Check check_r1(const PaymentRequest& q) {
  int first = -1;
  for (unsigned i = 0; i < q.k; ++i) {
    if (q.anonymity_set[i] != q.sender_id) continue;
    if (first >= 0) {
      return rule_error("R1", at("anonymity_set", i),
                        "repeats sender_id (also at anonymity_set[" + std::to_string(first) + "])");
    }
    first = int(i);
  }
  if (first < 0) return rule_error("R1", "sender_id", "is not in anonymity_set");
  return std::nullopt;
}

Check check_r2_debit(const PaymentRequest& q, unsigned j) {
  if (!relation::below_pow2(q.sender_tx_value, 252)) {
    return rule_error("R2", "sender_tx_value", "is not below 2^252");
  }
  const std::string tvj = at("tx_values", j);
  if (!relation::below_pow2(q.tx_values[j], 252))
    return rule_error("R2", tvj, "is not below 2^252");
  if (q.tx_values[j] != relation::sender_tx_value_entry(q.sender_tx_value)) {
    return rule_error("R2", tvj, "is not (l - sender_tx_value) mod l");
  }
  return std::nullopt;
}

Check check_r2w_credit(const PaymentRequest& q, unsigned j) {
  if (!relation::below_pow2(q.sender_tx_value, 252)) {
    return rule_error("R2w", "sender_tx_value", "is not below 2^252");
  }
  if (q.tx_values[j] != q.sender_tx_value) {
    return rule_error("R2w", at("tx_values", j), "is not sender_tx_value");
  }
  return std::nullopt;
}

Check check_r3(const PaymentRequest& q) {
  for (unsigned i = 0; i < q.k; ++i) {
    if (!bjj::on_curve(q.previous_commits[i])) {
      return rule_error("R3", at("previous_commits", i), "is not on Baby Jubjub");
    }
  }
  for (unsigned i = 0; i < q.k; ++i) {
    if (!bjj::on_curve(q.tx_commits[i])) {
      return rule_error("R3", at("tx_commits", i), "is not on Baby Jubjub");
    }
  }
  return std::nullopt;
}

Check check_r4(const PaymentRequest& q, unsigned j) {
  if (q.shared_secrets[j] !=
      relation::shared_secret(q.previous_sender_random_value, q.secret_key)) {
    return rule_error("R4", at("shared_secrets", j),
                      "is not Poseidon(previous_sender_random_value, secret_key) mod l");
  }
  return std::nullopt;
}

Check check_r5(const PaymentRequest& q) {
  for (unsigned i = 0; i < q.k; ++i) {
    if (q.hashed_shared_secrets[i] != relation::hashed_shared_secret(q.shared_secrets[i])) {
      const std::string ss = at("shared_secrets", i);
      return rule_error("R5", at("hashed_shared_secrets", i),
                        "is not Poseidon(" + ss + ", " + ss + ") mod l");
    }
  }
  return std::nullopt;
}

Check check_r6(const PaymentRequest& q, unsigned j) {
  if (q.public_keys[j] != relation::public_key(q.secret_key)) {
    return rule_error("R6", at("public_keys", j), "is not Poseidon(secret_key, secret_key) mod l");
  }
  return std::nullopt;
}

Check check_r7(const PaymentRequest& q, unsigned j) {
  if (q.previous_commits[j] !=
      bjj::pedersen(q.previous_sender_balance, q.previous_sender_random_value)) {
    return rule_error("R7", at("previous_commits", j),
                      "is not Pedersen(previous_sender_balance, previous_sender_random_value)");
  }
  return std::nullopt;
}

Check check_r8(const PaymentRequest& q) {
  for (unsigned i = 0; i < q.k; ++i) {
    if (q.message_tags[i] != relation::message_tag(q.shared_secrets[i], q.block_number)) {
      return rule_error("R8", at("message_tags", i),
                        "is not Poseidon(T, " + at("shared_secrets", i) + ", block_number) mod l");
    }
  }
  return std::nullopt;
}

Check check_r9(const PaymentRequest& q) {
  if (!relation::sum_mod_l(q.tx_values).is_zero()) {
    return rule_error("R9", "tx_values", "do not sum to 0 modulo l");
  }
  if (!relation::sum_mod_l(q.tx_random_values).is_zero()) {
    return rule_error("R9", "tx_random_values", "do not sum to 0 modulo l");
  }
  return std::nullopt;
}

Check check_r9_others(const PaymentRequest& q, unsigned j, std::string_view id) {
  Fr others =
      Fr::zero();  // summed in place: a vector of the private amounts would be freed unwiped
  for (unsigned i = 0; i < q.k; ++i) {
    if (i != j) others = relation::add_mod_l(others, q.tx_values[i]);
  }
  if (!others.is_zero()) {
    return rule_error(id, "tx_values", "of the other members do not sum to 0 modulo l");
  }
  if (!relation::sum_mod_l(q.tx_random_values).is_zero()) {
    return rule_error(id, "tx_random_values", "do not sum to 0 modulo l");
  }
  return std::nullopt;
}

Check check_r10(const PaymentRequest& q) {
  BjjPoint sum = bjj::identity();
  for (const BjjPoint& p : q.tx_commits) sum = bjj::add(sum, p);
  if (sum != bjj::identity()) {
    return rule_error("R10", "tx_commits", "do not sum to the identity (0, 1)");
  }
  return std::nullopt;
}

Check check_r11(const PaymentRequest& q) {
  if (!relation::below_pow2(q.previous_sender_balance, 250)) {
    return rule_error("R11", "previous_sender_balance", "is not below 2^250");
  }
  if (cmp(q.sender_tx_value.to_u256(), q.previous_sender_balance.to_u256()) > 0) {
    return rule_error("R11", "sender_tx_value", "exceeds previous_sender_balance");
  }
  return std::nullopt;
}

Check check_r16(const PaymentRequest& q) {
  if (!relation::below_l(q.previous_sender_random_value)) {
    return rule_error("R16", "previous_sender_random_value",
                      "is not below l (it opens the same commitment as its remainder modulo l, "
                      "with another nullifier: reduce it modulo l)");
  }
  return std::nullopt;
}

Check check_r12(const PaymentRequest& q, unsigned j) {
  if (q.nullifier != relation::nullifier(q.hashed_shared_secrets[j], q.block_number)) {
    return rule_error("R12", "nullifier",
                      "is not Poseidon(" + at("hashed_shared_secrets", j) + ", block_number)");
  }
  return std::nullopt;
}

Check check_r13(const PaymentRequest& q) {
  for (unsigned i = 0; i < q.k; ++i) {
    if (q.tx_commits[i] != bjj::pedersen(q.tx_values[i], q.tx_random_values[i])) {
      return rule_error(
          "R13", at("tx_commits", i),
          "is not Pedersen(" + at("tx_values", i) + ", " + at("tx_random_values", i) + ")");
    }
  }
  return std::nullopt;
}

Check check_r14(const PaymentRequest& q, unsigned j) {
  // h and expected are derived from the shared secrets: wiped however the check returns.
  std::vector<Fr> h(q.k);
  for (unsigned i = 0; i < q.k; ++i) {
    if (i != j) h[i] = relation::random_factor(q.shared_secrets[i], q.block_number);
  }
  std::vector<Fr> expected = relation::tx_random_values(h, j);
  struct Wipe {
    std::vector<Fr>& a;
    std::vector<Fr>& b;
    ~Wipe() {
      sodium_memzero(a.data(), a.size() * sizeof(Fr));
      sodium_memzero(b.data(), b.size() * sizeof(Fr));
    }
  } wipe{h, expected};
  for (unsigned i = 0; i < q.k; ++i) {
    if (q.tx_random_values[i] == expected[i]) continue;
    if (i == j) {
      return rule_error("R14", at("tx_random_values", i),
                        "is not the sum modulo l of the other participants' Poseidon(U, "
                        "shared_secrets[i], block_number) mod l");
    }
    return rule_error(
        "R14", at("tx_random_values", i),
        "is not l - (Poseidon(U, " + at("shared_secrets", i) + ", block_number) mod l)");
  }
  return std::nullopt;
}

Check check_r15(const PaymentRequest& q, unsigned j) {
  U256 sum;
  for (unsigned i = 0; i < q.k; ++i) {
    if (i == j) continue;
    if (!relation::below_pow2(q.tx_values[i], 250)) {
      return rule_error("R15", at("tx_values", i), "is not a non-negative amount below 2^250");
    }
    add_carry(sum, sum, q.tx_values[i].to_u256());  // at most 15 terms below 2^250: no carry
  }
  if (sum != q.sender_tx_value.to_u256()) {  // named, not quoted: the amounts are private
    return rule_error("R15", "tx_values",
                      "of the other members do not add up to sender_tx_value (as integers)");
  }
  return std::nullopt;
}

Check check_r15_nothing_to_others(const PaymentRequest& q, unsigned j, std::string_view id,
                                  std::string_view what) {
  // Non-negative amounts with integer sum 0 are all 0, so the range part of R15 needs no check.
  for (unsigned i = 0; i < q.k; ++i) {
    if (i != j && !q.tx_values[i].is_zero()) {
      return rule_error(id, at("tx_values", i), std::string("is not 0: ").append(what));
    }
  }
  return std::nullopt;
}

std::vector<std::string> failed_rule_ids(const std::vector<Error>& errors) {
  std::vector<std::string> ids;
  for (const Error& e : errors) ids.push_back(e.rule);
  return ids;
}

}  // namespace enygma::payment
