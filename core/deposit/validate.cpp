// The deposit forms: R2 is the transfer's debit (tv[j] == (l - v) mod l), R9d and R15d take the
// sums over the other members with total 0, and D1 ties the note to the amount debited.
#include "core/deposit/validate.hpp"

#include "core/payment/relation.hpp"
#include "core/payment/rules.hpp"

namespace enygma {

namespace {

using payment::Check;
using Q = DepositRequest;

Check shape(const Q& q) {
  return payment::check_payment_shape(q);
}

// D1: hash == Note(pk, saltOut, v, address), no reduction.
Check check_d1(const Q& q) {
  if (q.hash != relation::note_hash(q.note_public_key, q.salt_out, q.sender_tx_value, q.address)) {
    return payment::rule_error("D1", "hash", "is not Note(pk, saltOut, sender_tx_value, address)");
  }
  return std::nullopt;
}

constexpr payment::Rule<Q> kRules[] = {
    payment::kR1<Q>,
    payment::kR2Debit<Q>,
    payment::kR3<Q>,
    payment::kR4<Q>,
    payment::kR5<Q>,
    payment::kR6<Q>,
    payment::kR7<Q>,
    payment::kR8<Q>,
    {"R9d", true, [](const Q& q, unsigned j) { return payment::check_r9_others(q, j, "R9d"); }},
    payment::kR11<Q>,
    payment::kR12<Q>,
    payment::kR13<Q>,
    payment::kR14<Q>,
    {"R15d", true,
     [](const Q& q, unsigned j) {
       return payment::check_r15_nothing_to_others(q, j, "R15d", "a deposit pays no other member");
     }},
    payment::kR16<Q>,
    {"D1", false, [](const Q& q, unsigned) { return check_d1(q); }},
};

}  // namespace

std::vector<std::string_view> deposit_rule_ids() {
  return payment::rule_ids<Q>(kRules);
}

Status validate_deposit(const DepositRequest& req) {
  return payment::first_failure<Q>(req, &shape, kRules);
}

std::vector<Error> validate_deposit_all(const DepositRequest& req) {
  return payment::check_rules<Q>(req, &shape, kRules, false);
}

}  // namespace enygma
