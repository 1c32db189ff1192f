// The withdraw forms: R2w credits v to the sender (tv[j] == v), R9w and R15w take the sums over
// the other members with total 0, and W1..W5 tie v to the consumed notes.
#include "core/withdraw/validate.hpp"

#include "core/payment/relation.hpp"
#include "core/payment/rules.hpp"

namespace enygma {

namespace {

using payment::at;
using payment::Check;
using payment::rule_error;
using Q = WithdrawRequest;

Check shape(const Q& q) {
  if (Check e = payment::check_payment_shape(q)) return e;
  for (const auto& [name, n] : {std::pair{"hashes", q.hashes.size()},
                                {"sk_deposits", q.sk_deposits.size()},
                                {"v_per_deposit", q.v_per_deposit.size()},
                                {"saltsIn", q.salts_in.size()}}) {
    if (n != kNoteSlots) {
      return make_error(std::string(name) + " has " + std::to_string(n) + " entries, expected " +
                            std::to_string(kNoteSlots),
                        "input", name);
    }
  }
  return std::nullopt;
}

// W1 (project form): every used slot (hashes[d] != 0) opens to its hash with the exact PK.
Check check_w1(const Q& q) {
  for (unsigned d = 0; d < kNoteSlots; ++d) {
    if (q.hashes[d].is_zero()) continue;
    const Fr pk = relation::public_key(q.sk_deposits[d]);
    if (q.hashes[d] != relation::note_hash(pk, q.salts_in[d], q.v_per_deposit[d], q.address)) {
      return rule_error("W1", at("hashes", d),
                        "is not Note(PK(" + at("sk_deposits", d) + "), " + at("saltsIn", d) + ", " +
                            at("v_per_deposit", d) + ", address)");
    }
  }
  return std::nullopt;
}

// W2: every v_d below 10^36, as integers.
Check check_w2(const Q& q) {
  const U256 bound = relation::note_amount_bound().to_u256();
  for (unsigned d = 0; d < kNoteSlots; ++d) {
    if (cmp(q.v_per_deposit[d].to_u256(), bound) >= 0) {
      return rule_error("W2", at("v_per_deposit", d), "is not below 10^36");
    }
  }
  return std::nullopt;
}

// W3: v == v_0 + ... + v_9 over the integers (ten values below p: the sum may pass 2^256, which
// `carries` records, and then it is no v).
Check check_w3(const Q& q) {
  U256 sum;
  unsigned carries = 0;
  for (const Fr& v : q.v_per_deposit) carries += unsigned(add_carry(sum, sum, v.to_u256()));
  // The message names the fields, never their values: amounts are private, and a refusal's text
  // reaches clients' logs.
  if (carries != 0 || sum != q.sender_tx_value.to_u256()) {
    return rule_error("W3", "sender_tx_value", "is not the sum of v_per_deposit");
  }
  return std::nullopt;
}

// W4: an unused slot (hashes[d] == 0) carries no amount.
Check check_w4(const Q& q) {
  for (unsigned d = 0; d < kNoteSlots; ++d) {
    if (q.hashes[d].is_zero() && !q.v_per_deposit[d].is_zero()) {
      return rule_error("W4", at("v_per_deposit", d),
                        "is not 0 although " + at("hashes", d) + " is 0 (an unused slot)");
    }
  }
  return std::nullopt;
}

// W5: no note is listed twice.
Check check_w5(const Q& q) {
  for (unsigned d = 1; d < kNoteSlots; ++d) {
    if (q.hashes[d].is_zero()) continue;
    for (unsigned e = 0; e < d; ++e) {
      if (q.hashes[e] == q.hashes[d]) {
        return rule_error("W5", at("hashes", d), "repeats " + at("hashes", e));
      }
    }
  }
  return std::nullopt;
}

constexpr payment::Rule<Q> kRules[] = {
    payment::kR1<Q>,
    {"R2w", true, [](const Q& q, unsigned j) { return payment::check_r2w_credit(q, j); }},
    payment::kR3<Q>,
    payment::kR4<Q>,
    payment::kR5<Q>,
    payment::kR6<Q>,
    payment::kR7<Q>,
    payment::kR8<Q>,
    {"R9w", true, [](const Q& q, unsigned j) { return payment::check_r9_others(q, j, "R9w"); }},
    payment::kR12<Q>,
    payment::kR13<Q>,
    payment::kR14<Q>,
    {"R15w", true,
     [](const Q& q, unsigned j) {
       return payment::check_r15_nothing_to_others(q, j, "R15w",
                                                   "a withdrawal pays no other member");
     }},
    payment::kR16<Q>,
    {"W1", false, [](const Q& q, unsigned) { return check_w1(q); }},
    {"W2", false, [](const Q& q, unsigned) { return check_w2(q); }},
    {"W3", false, [](const Q& q, unsigned) { return check_w3(q); }},
    {"W4", false, [](const Q& q, unsigned) { return check_w4(q); }},
    {"W5", false, [](const Q& q, unsigned) { return check_w5(q); }},
};

}  // namespace

std::vector<std::string_view> withdraw_rule_ids() {
  return payment::rule_ids<Q>(kRules);
}

Status validate_withdraw(const WithdrawRequest& req) {
  return payment::first_failure<Q>(req, &shape, kRules);
}

std::vector<Error> validate_withdraw_all(const WithdrawRequest& req) {
  return payment::check_rules<Q>(req, &shape, kRules, false);
}

}  // namespace enygma
