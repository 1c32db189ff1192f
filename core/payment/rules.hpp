// The rules the payment relations share, evaluated natively on a parsed request: the transfer
// rules of ../shared/docs/transfer-relation.md (R1, R3..R8, R10..R14 as stated there) and the
// family forms of R2, R9 and R15 (deposit-relation.md: R9d, R15d; withdraw-relation.md: R2w,
// R9w, R15w). Each family lists its rules, in its order, in a table of Rule entries; check_rules
// runs the table. Integer statements ("mod l", "< 2^250", sums over the integers) are evaluated
// on canonical representatives (relation.hpp).
//
// Error format: message "<id>: <field> ...", rule "<id>" exactly as the documents write it
// ("R15d"), field e.g. "tx_commits[2]" (a whole array by its name).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/payment/request.hpp"
#include "core/util/result.hpp"

namespace enygma::payment {

using Check = std::optional<Error>;

// "<id>: <field> <what>" with rule <id> and field <field>.
Error rule_error(std::string_view id, const std::string& field, const std::string& what);
// "name[i]".
std::string at(const char* name, unsigned i);

// k in kMinK..kMaxK and every array of the payment fields with k entries (rule "input").
Check check_payment_shape(const PaymentRequest& q);

// The sender index j of R1 (the unique i with anonymity_set[i] == sender_id), if there is one.
std::optional<unsigned> sender_index(const PaymentRequest& q);

// ---- the transfer rules (j: the sender index, for the rules that need it) ----
Check check_r1(const PaymentRequest& q);               // exactly one as[j] == sender_id
Check check_r3(const PaymentRequest& q);               // pc[i], tc[i] on Baby Jubjub
Check check_r4(const PaymentRequest& q, unsigned j);   // ss[j] == Poseidon(R, sk) mod l
Check check_r5(const PaymentRequest& q);               // hs[i] == Poseidon(ss[i], ss[i]) mod l
Check check_r6(const PaymentRequest& q, unsigned j);   // pk[j] == Poseidon(sk, sk) mod l
Check check_r7(const PaymentRequest& q, unsigned j);   // pc[j] == Pedersen(V, R)
Check check_r8(const PaymentRequest& q);               // mt[i] == Poseidon(T, ss[i], b) mod l
Check check_r10(const PaymentRequest& q);              // sum of tc == (0, 1)
Check check_r11(const PaymentRequest& q);              // V < 2^250, v <= V
Check check_r12(const PaymentRequest& q, unsigned j);  // nf == Poseidon(hs[j], b)
Check check_r13(const PaymentRequest& q);              // tc[i] == Pedersen(tv[i], tr[i])
Check check_r14(const PaymentRequest& q, unsigned j);  // tr from h[i] = Poseidon(U, ss[i], b)
// R16 (project, every payment family): R < l. R and R + m*l open the same commitment (H has
// order l) but give different ss[j] (R4), hence different nullifiers (R12): up to 8 spends of one
// balance per block otherwise. Honest wallets keep R reduced modulo l (docs/circuits.md).
Check check_r16(const PaymentRequest& q);

// ---- R2 forms ----
// R2 (transfer, deposit): v < 2^252, tv[j] < 2^252, tv[j] == (l - v) mod l.
Check check_r2_debit(const PaymentRequest& q, unsigned j);
// R2w (withdraw): v < 2^252, tv[j] == v.
Check check_r2w_credit(const PaymentRequest& q, unsigned j);

// ---- R9 forms (project: integer sums of canonical values, modulo l) ----
// R9 (transfer): sum(tv) == 0 and sum(tr) == 0 modulo l.
Check check_r9(const PaymentRequest& q);
// R9d, R9w: the sum over i != j of tv[i] == 0 and sum(tr) == 0 modulo l (`id` names the form).
Check check_r9_others(const PaymentRequest& q, unsigned j, std::string_view id);

// ---- R15 forms ----
// R15 (transfer): for i != j, 0 <= tv[i] < 2^250 and their integer sum is v.
Check check_r15(const PaymentRequest& q, unsigned j);
// R15d, R15w: R15 with total 0, i.e. tv[i] == 0 for every i != j (`id` names the form, `what`
// says who, e.g. "a deposit pays no other member").
Check check_r15_nothing_to_others(const PaymentRequest& q, unsigned j, std::string_view id,
                                  std::string_view what);

// A family's rule: its id as the documents write it, whether it needs the sender index (it is
// skipped when R1 fails, since j is then undefined), and its check.
template <class Request>
struct Rule {
  std::string_view id;
  bool needs_sender;
  Check (*check)(const Request& q, unsigned j);
};

// The rules that every payment family states as the transfer relation does, as entries of a
// family's table (`Request`: the family's request): kR1<DepositRequest>, ...
template <class Request>
inline constexpr Rule<Request> kR1{"R1", false,
                                   [](const Request& q, unsigned) { return check_r1(q); }};
// R2 in its debit form (transfer, deposit).
template <class Request>
inline constexpr Rule<Request> kR2Debit{
    "R2", true, [](const Request& q, unsigned j) { return check_r2_debit(q, j); }};
template <class Request>
inline constexpr Rule<Request> kR3{"R3", false,
                                   [](const Request& q, unsigned) { return check_r3(q); }};
template <class Request>
inline constexpr Rule<Request> kR4{"R4", true,
                                   [](const Request& q, unsigned j) { return check_r4(q, j); }};
template <class Request>
inline constexpr Rule<Request> kR5{"R5", false,
                                   [](const Request& q, unsigned) { return check_r5(q); }};
template <class Request>
inline constexpr Rule<Request> kR6{"R6", true,
                                   [](const Request& q, unsigned j) { return check_r6(q, j); }};
template <class Request>
inline constexpr Rule<Request> kR7{"R7", true,
                                   [](const Request& q, unsigned j) { return check_r7(q, j); }};
template <class Request>
inline constexpr Rule<Request> kR8{"R8", false,
                                   [](const Request& q, unsigned) { return check_r8(q); }};
template <class Request>
inline constexpr Rule<Request> kR11{"R11", false,
                                    [](const Request& q, unsigned) { return check_r11(q); }};
template <class Request>
inline constexpr Rule<Request> kR12{"R12", true,
                                    [](const Request& q, unsigned j) { return check_r12(q, j); }};
template <class Request>
inline constexpr Rule<Request> kR13{"R13", false,
                                    [](const Request& q, unsigned) { return check_r13(q); }};
template <class Request>
inline constexpr Rule<Request> kR14{"R14", true,
                                    [](const Request& q, unsigned j) { return check_r14(q, j); }};
template <class Request>
inline constexpr Rule<Request> kR16{"R16", false,
                                    [](const Request& q, unsigned) { return check_r16(q); }};

// The shape check, then every rule of `rules` in order: every failing rule once (its first
// offending field), or only the first when `first_only`.
template <class Request>
std::vector<Error> check_rules(const Request& q, Check (*shape)(const Request&),
                               std::span<const Rule<Request>> rules, bool first_only) {
  if (Check e = shape(q)) return {std::move(*e)};
  const std::optional<unsigned> j = sender_index(q);
  std::vector<Error> errors;
  for (const Rule<Request>& rule : rules) {
    if (rule.needs_sender && !j) continue;
    if (Check e = rule.check(q, j.value_or(0))) {
      errors.push_back(std::move(*e));
      if (first_only) break;
    }
  }
  return errors;
}

// check_rules' first failure (ok when the shape and every rule hold): a family's validate_*.
template <class Request>
Status first_failure(const Request& q, Check (*shape)(const Request&),
                     std::span<const Rule<Request>> rules) {
  std::vector<Error> errors = check_rules<Request>(q, shape, rules, true);
  if (!errors.empty()) return std::move(errors[0]);
  return ok_status();
}

// The ids of a family's table, in its order.
template <class Request>
std::vector<std::string_view> rule_ids(std::span<const Rule<Request>> rules) {
  std::vector<std::string_view> ids;
  for (const Rule<Request>& rule : rules) ids.push_back(rule.id);
  return ids;
}

// The rule ids of errors ("R15d", "W3"; "input" for a shape error), in order.
std::vector<std::string> failed_rule_ids(const std::vector<Error>& errors);

}  // namespace enygma::payment
