// What an Error means to whoever answers a request: one classification shared by the CLI (exit
// codes), the server (HTTP status) and the WebAssembly module (status codes), so that the three
// never disagree.
#pragma once

#include <string_view>

#include "core/util/result.hpp"

namespace enygma {

enum class ErrorKind {
  kRequest,    // the request's fault: its format ("input"), a malformed proof ("proof"), or a
               // rule of a relation ("R15", "R9d", "W3", "J10", "O4", ...)
  kInvalid,    // a well-formed proof that does not verify ("invalid")
  kCancelled,  // the caller cancelled ("cancelled")
  kOverload,   // no room to take the work now ("overload")
  kInternal,   // anything else: keys, files, the server itself
};

// A relation rule id: an upper-case letter, digits, then at most one lower-case letter
// (R1..R16, R2w, R9d, R9w, R15d, R15w, D1, W1..W5, J1..J11, O1..O7).
constexpr bool is_rule_id(std::string_view rule) {
  if (rule.size() < 2 || rule[0] < 'A' || rule[0] > 'Z') return false;
  size_t i = 1;
  while (i < rule.size() && rule[i] >= '0' && rule[i] <= '9') ++i;
  if (i == 1) return false;
  if (i < rule.size() && rule[i] >= 'a' && rule[i] <= 'z') ++i;
  return i == rule.size();
}

constexpr ErrorKind classify_error(std::string_view rule) {
  if (rule == "input" || rule == "proof" || is_rule_id(rule)) return ErrorKind::kRequest;
  if (rule == "invalid") return ErrorKind::kInvalid;
  if (rule == "cancelled") return ErrorKind::kCancelled;
  if (rule == "overload") return ErrorKind::kOverload;
  return ErrorKind::kInternal;
}

inline ErrorKind classify_error(const Error& e) {
  return classify_error(e.rule);
}
inline bool is_request_error(const Error& e) {
  return classify_error(e) == ErrorKind::kRequest;
}

}  // namespace enygma
