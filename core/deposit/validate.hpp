// The rules of ../shared/docs/deposit-relation.md evaluated natively on a parsed request, in
// this order: R1, R2, R3, R4, R5, R6, R7, R8, R9d, R11, R12, R13, R14, R15d, R16, D1 (transfer
// rules R1..R8 and R11..R14 unchanged, R10 does not apply; R16, the project's,
// core/payment/rules.hpp). R1 defines the sender index j; when it
// fails, the rules that need j are skipped. Errors: "<id>: <field> ...", rule "<id>" as the
// document writes it ("R15d", "D1").
#pragma once

#include <string_view>
#include <vector>

#include "core/deposit/request.hpp"
#include "core/util/result.hpp"

namespace enygma {

// The rule ids of the deposit relation, in the order they are checked.
std::vector<std::string_view> deposit_rule_ids();

// ok, or the first failing rule (after the shape: k, array sizes, rule "input").
Status validate_deposit(const DepositRequest& req);
// Every failing rule (at most one Error per rule, in rule order); empty when valid.
std::vector<Error> validate_deposit_all(const DepositRequest& req);

}  // namespace enygma
