// R1..R16 in numeric order, each the shared payment rule of core/payment/rules.hpp in its
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

using Q = TransferRequest;

constexpr Rule<Q> kRules[kNumRules] = {
    payment::kR1<Q>,
    payment::kR2Debit<Q>,
    payment::kR3<Q>,
    payment::kR4<Q>,
    payment::kR5<Q>,
    payment::kR6<Q>,
    payment::kR7<Q>,
    payment::kR8<Q>,
    {"R9", false, [](const Q& q, unsigned) { return payment::check_r9(q); }},
    {"R10", false, [](const Q& q, unsigned) { return payment::check_r10(q); }},
    payment::kR11<Q>,
    payment::kR12<Q>,
    payment::kR13<Q>,
    payment::kR14<Q>,
    {"R15", true, [](const Q& q, unsigned j) { return payment::check_r15(q, j); }},
    payment::kR16<Q>,
};

}  // namespace

bool rule_needs_sender_index(int rule) {
  return rule >= 1 && rule <= kNumRules && kRules[rule - 1].needs_sender;
}

std::optional<unsigned> sender_index(const TransferRequest& req) {
  return payment::sender_index(req);
}

Status validate_transfer(const TransferRequest& req) {
  return payment::first_failure<Q>(req, &shape, kRules);
}

std::vector<Error> validate_transfer_all(const TransferRequest& req) {
  return payment::check_rules<Q>(req, &shape, kRules, false);
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
