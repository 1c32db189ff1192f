// R1..R15, each in its own function, exactly as the relation document states them. Integer
// statements ("mod l", "< 2^250", sums over the integers) are evaluated on canonical
// representatives; see relation.hpp for the shared formulas.
#include "core/transfer/validate.hpp"

#include <string>

#include "core/transfer/relation.hpp"

namespace enygma {

namespace {

namespace bjj = babyjubjub;
using Check = std::optional<Error>;

std::string at(const char* name, unsigned i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

Check fail(int rule, const std::string& field, const std::string& what) {
  std::string id("R");  // not "R" + to_string(): g++ 12 -Wrestrict false positive (PR 105651)
  id += std::to_string(rule);
  return make_error(id + ": " + field + " " + what, id, field);
}

Check check_shape(const TransferRequest& q) {
  const unsigned k = q.k;
  if (k < kMinK || k > kMaxK) {
    return make_error("k = " + std::to_string(k) + " is not a supported anonymity-set size",
                      "input", "k");
  }
  auto size_error = [&](const char* name, size_t n) -> Check {
    if (n == k) return std::nullopt;
    return make_error(
        std::string(name) + " has " + std::to_string(n) + " entries, expected " + std::to_string(k),
        "input", name);
  };
  for (const auto& [name, n] : {std::pair{"shared_secrets", q.shared_secrets.size()},
                                {"tx_values", q.tx_values.size()},
                                {"tx_random_values", q.tx_random_values.size()},
                                {"hashed_shared_secrets", q.hashed_shared_secrets.size()},
                                {"public_keys", q.public_keys.size()},
                                {"previous_commits", q.previous_commits.size()},
                                {"tx_commits", q.tx_commits.size()},
                                {"anonymity_set", q.anonymity_set.size()},
                                {"message_tags", q.message_tags.size()}}) {
    if (auto e = size_error(name, n)) return e;
  }
  return std::nullopt;
}

// R1: exactly one j has as[j] == sender_id.
Check r1(const TransferRequest& q, unsigned) {
  int first = -1;
  for (unsigned i = 0; i < q.k; ++i) {
    if (q.anonymity_set[i] != q.sender_id) continue;
    if (first >= 0) {
      return fail(1, at("anonymity_set", i),
                  "repeats sender_id (also at anonymity_set[" + std::to_string(first) + "])");
    }
    first = int(i);
  }
  if (first < 0) return fail(1, "sender_id", "is not in anonymity_set");
  return std::nullopt;
}

// R2: v < 2^252, tv[j] < 2^252, tv[j] == (l - v) mod l.
Check r2(const TransferRequest& q, unsigned j) {
  if (!relation::below_pow2(q.sender_tx_value, 252)) {
    return fail(2, "sender_tx_value", "is not below 2^252");
  }
  const std::string tvj = at("tx_values", j);
  if (!relation::below_pow2(q.tx_values[j], 252)) return fail(2, tvj, "is not below 2^252");
  if (q.tx_values[j] != relation::sender_tx_value_entry(q.sender_tx_value)) {
    return fail(2, tvj, "is not (l - sender_tx_value) mod l");
  }
  return std::nullopt;
}

// R3: every pc[i] and tc[i] is on Baby Jubjub.
Check r3(const TransferRequest& q, unsigned) {
  for (unsigned i = 0; i < q.k; ++i) {
    if (!bjj::on_curve(q.previous_commits[i])) {
      return fail(3, at("previous_commits", i), "is not on Baby Jubjub");
    }
  }
  for (unsigned i = 0; i < q.k; ++i) {
    if (!bjj::on_curve(q.tx_commits[i])) {
      return fail(3, at("tx_commits", i), "is not on Baby Jubjub");
    }
  }
  return std::nullopt;
}

// R4: ss[j] == Poseidon(R, sk) mod l.
Check r4(const TransferRequest& q, unsigned j) {
  if (q.shared_secrets[j] !=
      relation::shared_secret(q.previous_sender_random_value, q.secret_key)) {
    return fail(4, at("shared_secrets", j),
                "is not Poseidon(previous_sender_random_value, secret_key) mod l");
  }
  return std::nullopt;
}

// R5: hs[i] == Poseidon(ss[i], ss[i]) mod l.
Check r5(const TransferRequest& q, unsigned) {
  for (unsigned i = 0; i < q.k; ++i) {
    if (q.hashed_shared_secrets[i] != relation::hashed_shared_secret(q.shared_secrets[i])) {
      return fail(5, at("hashed_shared_secrets", i),
                  "is not Poseidon(" + at("shared_secrets", i) + ", " + at("shared_secrets", i) +
                      ") mod l");
    }
  }
  return std::nullopt;
}

// R6: pk[j] == Poseidon(sk, sk) mod l.
Check r6(const TransferRequest& q, unsigned j) {
  if (q.public_keys[j] != relation::public_key(q.secret_key)) {
    return fail(6, at("public_keys", j), "is not Poseidon(secret_key, secret_key) mod l");
  }
  return std::nullopt;
}

// R7: pc[j] == Pedersen(V, R).
Check r7(const TransferRequest& q, unsigned j) {
  if (q.previous_commits[j] !=
      bjj::pedersen(q.previous_sender_balance, q.previous_sender_random_value)) {
    return fail(7, at("previous_commits", j),
                "is not Pedersen(previous_sender_balance, previous_sender_random_value)");
  }
  return std::nullopt;
}

// R8: mt[i] == Poseidon(T, ss[i], b) mod l.
Check r8(const TransferRequest& q, unsigned) {
  for (unsigned i = 0; i < q.k; ++i) {
    if (q.message_tags[i] != relation::message_tag(q.shared_secrets[i], q.block_number)) {
      return fail(8, at("message_tags", i),
                  "is not Poseidon(T, " + at("shared_secrets", i) + ", block_number) mod l");
    }
  }
  return std::nullopt;
}

// R9 (project): sum(tv) = 0 and sum(tr) = 0 modulo l, over the integers.
Check r9(const TransferRequest& q, unsigned) {
  if (!relation::sum_mod_l(q.tx_values).is_zero()) {
    return fail(9, "tx_values", "do not sum to 0 modulo l");
  }
  if (!relation::sum_mod_l(q.tx_random_values).is_zero()) {
    return fail(9, "tx_random_values", "do not sum to 0 modulo l");
  }
  return std::nullopt;
}

// R10: tc[0] + ... + tc[k-1] == (0, 1).
Check r10(const TransferRequest& q, unsigned) {
  BjjPoint sum = bjj::identity();
  for (const BjjPoint& p : q.tx_commits) sum = bjj::add(sum, p);
  if (sum != bjj::identity()) return fail(10, "tx_commits", "do not sum to the identity (0, 1)");
  return std::nullopt;
}

// R11 (project): V < 2^250 and v <= V.
Check r11(const TransferRequest& q, unsigned) {
  if (!relation::below_pow2(q.previous_sender_balance, 250)) {
    return fail(11, "previous_sender_balance", "is not below 2^250");
  }
  if (cmp(q.sender_tx_value.to_u256(), q.previous_sender_balance.to_u256()) > 0) {
    return fail(11, "sender_tx_value", "exceeds previous_sender_balance");
  }
  return std::nullopt;
}

// R12: nf == Poseidon(hs[j], b), no reduction.
Check r12(const TransferRequest& q, unsigned j) {
  if (q.nullifier != relation::nullifier(q.hashed_shared_secrets[j], q.block_number)) {
    return fail(12, "nullifier",
                "is not Poseidon(" + at("hashed_shared_secrets", j) + ", block_number)");
  }
  return std::nullopt;
}

// R13: tc[i] == Pedersen(tv[i], tr[i]).
Check r13(const TransferRequest& q, unsigned) {
  for (unsigned i = 0; i < q.k; ++i) {
    if (q.tx_commits[i] != bjj::pedersen(q.tx_values[i], q.tx_random_values[i])) {
      return fail(13, at("tx_commits", i),
                  "is not Pedersen(" + at("tx_values", i) + ", " + at("tx_random_values", i) + ")");
    }
  }
  return std::nullopt;
}

// R14: with h[i] = Poseidon(U, ss[i], b) mod l: tr[i] == l - h[i] for i != j, and
// tr[j] == (sum over i != j of h[i]) mod l.
Check r14(const TransferRequest& q, unsigned j) {
  std::vector<Fr> h(q.k);
  for (unsigned i = 0; i < q.k; ++i) {
    if (i != j) h[i] = relation::random_factor(q.shared_secrets[i], q.block_number);
  }
  const std::vector<Fr> expected = relation::tx_random_values(h, j);
  for (unsigned i = 0; i < q.k; ++i) {
    if (q.tx_random_values[i] == expected[i]) continue;
    if (i == j) {
      return fail(14, at("tx_random_values", i),
                  "is not the sum modulo l of the other participants' Poseidon(U, "
                  "shared_secrets[i], block_number) mod l");
    }
    return fail(14, at("tx_random_values", i),
                "is not l - (Poseidon(U, " + at("shared_secrets", i) + ", block_number) mod l)");
  }
  return std::nullopt;
}

// R15 (project): for i != j, 0 <= tv[i] < 2^250, and the sum over i != j of tv[i] == v, as
// integers.
Check r15(const TransferRequest& q, unsigned j) {
  U256 sum;
  for (unsigned i = 0; i < q.k; ++i) {
    if (i == j) continue;
    if (!relation::below_pow2(q.tx_values[i], 250)) {
      return fail(15, at("tx_values", i), "is not a non-negative amount below 2^250");
    }
    add_carry(sum, sum, q.tx_values[i].to_u256());  // at most 15 terms below 2^250: no carry
  }
  if (sum != q.sender_tx_value.to_u256()) {
    return fail(15, "tx_values",
                "of the other members add up to " + to_decimal(sum) + ", not sender_tx_value " +
                    q.sender_tx_value.to_decimal());
  }
  return std::nullopt;
}

// Rule n on q; j is the sender index (absent when R1 fails, then j-rules are not evaluated).
Check check_rule(const TransferRequest& q, int n, std::optional<unsigned> j) {
  if (rule_needs_sender_index(n) && !j) return std::nullopt;
  using RuleCheck = Check (*)(const TransferRequest&, unsigned);
  static constexpr RuleCheck kRules[kNumRules + 1] = {
      nullptr, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15};
  return kRules[n](q, j.value_or(0));
}

}  // namespace

bool rule_needs_sender_index(int rule) {
  return rule == 2 || rule == 4 || rule == 6 || rule == 7 || rule == 12 || rule == 14 ||
         rule == 15;
}

std::optional<unsigned> sender_index(const TransferRequest& req) {
  if (req.anonymity_set.size() != req.k) return std::nullopt;
  std::optional<unsigned> j;
  for (unsigned i = 0; i < req.k; ++i) {
    if (req.anonymity_set[i] != req.sender_id) continue;
    if (j) return std::nullopt;
    j = i;
  }
  return j;
}

Status validate_transfer(const TransferRequest& req) {
  if (auto e = check_shape(req)) return *e;
  const std::optional<unsigned> j = sender_index(req);
  for (int n = 1; n <= kNumRules; ++n) {
    if (auto e = check_rule(req, n, j)) return *e;
  }
  return ok_status();
}

std::vector<Error> validate_transfer_all(const TransferRequest& req) {
  if (auto e = check_shape(req)) return {*e};
  const std::optional<unsigned> j = sender_index(req);
  std::vector<Error> errors;
  for (int n = 1; n <= kNumRules; ++n) {
    if (auto e = check_rule(req, n, j)) errors.push_back(std::move(*e));
  }
  return errors;
}

std::vector<int> failed_rules(const std::vector<Error>& errors) {
  std::vector<int> rules;
  for (const Error& e : errors) {
    int n = 0;
    if (e.rule.size() > 1 && e.rule[0] == 'R') {
      for (size_t i = 1; i < e.rule.size() && e.rule[i] >= '0' && e.rule[i] <= '9'; ++i) {
        n = 10 * n + (e.rule[i] - '0');
      }
    }
    rules.push_back(n);
  }
  return rules;
}

}  // namespace enygma
