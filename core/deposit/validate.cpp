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
    {"R1", false, [](const Q& q, unsigned) { return payment::check_r1(q); }},
    {"R2", true, [](const Q& q, unsigned j) { return payment::check_r2_debit(q, j); }},
    {"R3", false, [](const Q& q, unsigned) { return payment::check_r3(q); }},
    {"R4", true, [](const Q& q, unsigned j) { return payment::check_r4(q, j); }},
    {"R5", false, [](const Q& q, unsigned) { return payment::check_r5(q); }},
    {"R6", true, [](const Q& q, unsigned j) { return payment::check_r6(q, j); }},
    {"R7", true, [](const Q& q, unsigned j) { return payment::check_r7(q, j); }},
    {"R8", false, [](const Q& q, unsigned) { return payment::check_r8(q); }},
    {"R9d", true, [](const Q& q, unsigned j) { return payment::check_r9_others(q, j, "R9d"); }},
    {"R11", false, [](const Q& q, unsigned) { return payment::check_r11(q); }},
    {"R12", true, [](const Q& q, unsigned j) { return payment::check_r12(q, j); }},
    {"R13", false, [](const Q& q, unsigned) { return payment::check_r13(q); }},
    {"R14", true, [](const Q& q, unsigned j) { return payment::check_r14(q, j); }},
    {"R15d", true,
     [](const Q& q, unsigned j) {
       return payment::check_r15_nothing_to_others(q, j, "R15d", "a deposit pays no other member");
     }},
    {"D1", false, [](const Q& q, unsigned) { return check_d1(q); }},
};

}  // namespace

std::vector<std::string_view> deposit_rule_ids() {
  std::vector<std::string_view> ids;
  for (const auto& rule : kRules) ids.push_back(rule.id);
  return ids;
}

Status validate_deposit(const DepositRequest& req) {
  std::vector<Error> errors = payment::check_rules<Q>(req, &shape, kRules, true);
  if (!errors.empty()) return std::move(errors[0]);
  return ok_status();
}

std::vector<Error> validate_deposit_all(const DepositRequest& req) {
  return payment::check_rules<Q>(req, &shape, kRules, false);
}

}  // namespace enygma
