// The rules of ../shared/docs/withdraw-relation.md evaluated natively on a parsed request, in
// this order: R1, R2w, R3, R4, R5, R6, R7, R8, R9w, R12, R13, R14, R15w, R16, W1, W2, W3, W4, W5
// (transfer rules R1, R3..R8 and R12..R14 unchanged; R10 and R11 do not apply; R16, the
// project's, core/payment/rules.hpp). R1 defines the
// sender index j; when it fails, the rules that need j are skipped. Errors: "<id>: <field> ...",
// rule "<id>" as the document writes it ("R15w", "W3").
#pragma once

#include <string_view>
#include <vector>

#include "core/util/result.hpp"
#include "core/withdraw/request.hpp"

namespace enygma {

// The rule ids of the withdraw relation, in the order they are checked.
std::vector<std::string_view> withdraw_rule_ids();

// ok, or the first failing rule (after the shape: k, array sizes, rule "input").
Status validate_withdraw(const WithdrawRequest& req);
// Every failing rule (at most one Error per rule, in rule order); empty when valid.
std::vector<Error> validate_withdraw_all(const WithdrawRequest& req);

}  // namespace enygma
