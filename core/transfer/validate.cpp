// R1..R15 in numeric order, each the shared payment rule of core/payment/rules.hpp in its
// transfer form (R2 debit, R9 over every member, R15 with total v).
#include "core/transfer/validate.hpp"

#include "core/payment/rules.hpp"

namespace enygma {

namespace {

using payment::Check;
using payment::Rule;

Check shape(const TransferRequest& q) {
  return payment::check_payment_shape(q);
}

constexpr Rule<TransferRequest> kRules[kNumRules] = {
    {"R1", false, [](const TransferRequest& q, unsigned) { return payment::check_r1(q); }},
    {"R2", true,
     [](const TransferRequest& q, unsigned j) { return payment::check_r2_debit(q, j); }},
    {"R3", false, [](const TransferRequest& q, unsigned) { return payment::check_r3(q); }},
    {"R4", true, [](const TransferRequest& q, unsigned j) { return payment::check_r4(q, j); }},
    {"R5", false, [](const TransferRequest& q, unsigned) { return payment::check_r5(q); }},
    {"R6", true, [](const TransferRequest& q, unsigned j) { return payment::check_r6(q, j); }},
    {"R7", true, [](const TransferRequest& q, unsigned j) { return payment::check_r7(q, j); }},
    {"R8", false, [](const TransferRequest& q, unsigned) { return payment::check_r8(q); }},
    {"R9", false, [](const TransferRequest& q, unsigned) { return payment::check_r9(q); }},
    {"R10", false, [](const TransferRequest& q, unsigned) { return payment::check_r10(q); }},
    {"R11", false, [](const TransferRequest& q, unsigned) { return payment::check_r11(q); }},
    {"R12", true, [](const TransferRequest& q, unsigned j) { return payment::check_r12(q, j); }},
    {"R13", false, [](const TransferRequest& q, unsigned) { return payment::check_r13(q); }},
    {"R14", true, [](const TransferRequest& q, unsigned j) { return payment::check_r14(q, j); }},
    {"R15", true, [](const TransferRequest& q, unsigned j) { return payment::check_r15(q, j); }},
};

}  // namespace

bool rule_needs_sender_index(int rule) {
  return rule >= 1 && rule <= kNumRules && kRules[rule - 1].needs_sender;
}

std::optional<unsigned> sender_index(const TransferRequest& req) {
  return payment::sender_index(req);
}

Status validate_transfer(const TransferRequest& req) {
  std::vector<Error> errors = payment::check_rules<TransferRequest>(req, &shape, kRules, true);
  if (!errors.empty()) return std::move(errors[0]);
  return ok_status();
}

std::vector<Error> validate_transfer_all(const TransferRequest& req) {
  return payment::check_rules<TransferRequest>(req, &shape, kRules, false);
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
