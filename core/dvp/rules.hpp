// The rule checks of the DvP relations (joinsplit-relation.md J1..J10 and this project's J11,
// ownership-relation.md O1..O7), shared by core/joinsplit/validate.cpp and
// core/ownership/validate.cpp: the error of a failing rule and the run over a relation's table of
// checks, in rule order.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/util/result.hpp"

namespace enygma::dvp {

using Check = std::optional<Error>;

// "<letter><rule>", e.g. "J5", "O4".
std::string rule_id(char letter, int rule);

// "<id>: <field> <what>" with rule <id> = rule_id(letter, rule) and field <field>.
Error rule_error(char letter, int rule, const std::string& field, const std::string& what);

// A relation's rule checks, rule 1 first.
template <class Request>
using RuleCheck = Check (*)(const Request& q);

// The first failing rule of `rules`, in order (ok when every rule holds).
template <class Request>
Status first_failure(const Request& q, std::span<const RuleCheck<Request>> rules) {
  for (RuleCheck<Request> check : rules) {
    if (Check e = check(q)) return *e;
  }
  return ok_status();
}

// Every failing rule of `rules` (its first offending field), in order.
template <class Request>
std::vector<Error> every_failure(const Request& q, std::span<const RuleCheck<Request>> rules) {
  std::vector<Error> errors;
  for (RuleCheck<Request> check : rules) {
    if (Check e = check(q)) errors.push_back(std::move(*e));
  }
  return errors;
}

}  // namespace enygma::dvp
