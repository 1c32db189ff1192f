// The reference's test vectors in shared/vectors (ENYGMA_SHARED_DIR), read by the tests.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/transfer/request.hpp"

namespace enygma::test {

inline std::string vector_path(const std::string& name) {
  // append, not +: g++ 12 -Warray-bounds false positive on string concatenation (PR 105651)
  return std::string(ENYGMA_SHARED_DIR).append("/vectors/").append(name);
}

// The file's text; empty when it is missing (callers skip or fail as they see fit).
inline std::string read_vector(const std::string& name) {
  std::ifstream f(vector_path(name));
  if (!f) return {};
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A request vector that must exist and parse for anonymity set size k (a failed expectation
// and an empty request otherwise).
inline TransferRequest load_request_vector(const std::string& name, unsigned k) {
  const std::string text = read_vector(name);
  EXPECT_FALSE(text.empty()) << name << " is missing";
  auto r = parse_transfer_request(text, k);
  EXPECT_TRUE(r.ok()) << name << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : TransferRequest{};
}

// A request vector of any payment family, parsed by `parse` (parse_deposit_request, ...) for k
// (a failed expectation and an empty request otherwise).
template <class Request>
Request load_vector(const std::string& name, unsigned k,
                    Result<Request> (*parse)(std::string_view, unsigned)) {
  const std::string text = read_vector(name);
  EXPECT_FALSE(text.empty()) << name << " is missing";
  auto r = parse(text, k);
  EXPECT_TRUE(r.ok()) << name << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : Request{};
}

// The decimal strings of a <name>.public_signal.json vector (empty, with a failed expectation,
// when it is missing or not an array of strings).
inline std::vector<std::string> load_public_signal(const std::string& name) {
  const std::string text = read_vector(name);
  EXPECT_FALSE(text.empty()) << name << " is missing";
  std::vector<std::string> out;
  const auto doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  EXPECT_TRUE(doc.is_array()) << name;
  if (!doc.is_array()) return out;
  for (const auto& v : doc) {
    EXPECT_TRUE(v.is_string()) << name;
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

// Field elements as decimal strings (a public_signal array).
inline std::vector<std::string> decimal_strings(const std::vector<Fr>& xs) {
  std::vector<std::string> out;
  for (const Fr& x : xs) out.push_back(x.to_decimal());
  return out;
}

}  // namespace enygma::test
