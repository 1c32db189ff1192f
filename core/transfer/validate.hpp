// Rules R1..R15 of ../shared/docs/transfer-relation.md and the project's R16 (R < l,
// core/payment/rules.hpp) evaluated natively on a parsed request
// (the format is checked by parse_transfer_request), with the rule checks the payment families
// share (core/payment/rules.hpp). A request is valid exactly when every rule holds; this is the
// oracle the circuit is tested against.
//
// Order of the checks: first the shape (k in kMinK..kMaxK, every array of length k; rule
// "input"), then R1, R2, ..., R16 in numeric order. R1 comes first because it defines the
// sender index j that R2, R4, R6, R7, R12, R14 and R15 use; R3 precedes R10 (the sum of tx_commits
// is only meaningful for curve points). validate_transfer reports the first failing rule;
// validate_transfer_all reports every failing rule once (its first offending field), and when
// R1 fails it skips the rules that need j.
//
// Error format: message "Rn: <field> ...", rule "Rn", field e.g. "tx_commits[2]".
#pragma once

#include <optional>
#include <vector>

#include "core/transfer/request.hpp"
#include "core/util/result.hpp"

namespace enygma {

// The rules: R1..R15 of transfer-relation.md, and R16.
inline constexpr int kNumRules = 16;

// ok, or the first failing rule in the order above.
Status validate_transfer(const TransferRequest& req);

// Every failing rule (at most one Error per rule, in rule order); empty when valid.
std::vector<Error> validate_transfer_all(const TransferRequest& req);

// The rule numbers (1..16) of errors from validate_transfer_all; 0 for a shape ("input") error.
std::vector<int> failed_rules(const std::vector<Error>& errors);

// The sender index j of R1 (the unique i with anonymity_set[i] == sender_id), if there is one.
std::optional<unsigned> sender_index(const TransferRequest& req);

// The rules that need the sender index j (skipped by validate_transfer_all when R1 fails).
bool rule_needs_sender_index(int rule);

}  // namespace enygma
