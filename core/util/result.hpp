// Result<T>: a value or an Error, for every function that can fail on untrusted input
// (no exceptions across the core's boundary; the WebAssembly build has none to spare).
// An Error names what failed so that callers can answer {"error", "rule", "field"}.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace enygma {

struct Error {
  std::string message;  // human readable, e.g. "R13: tx_commits[2] is not Pedersen(...)"
  std::string rule;     // relation rule id ("R1".."R14") or a category ("input", "key", ...)
  std::string field;    // offending field or path ("tx_commits[2]"), may be empty
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// For functions that return nothing on success.
struct Ok {};
using Status = Result<Ok>;
inline Status ok_status() {
  return Ok{};
}

inline Error make_error(std::string message, std::string rule = {}, std::string field = {}) {
  return Error{std::move(message), std::move(rule), std::move(field)};
}

}  // namespace enygma
