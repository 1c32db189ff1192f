// The reference's test vectors in shared/vectors (ENYGMA_SHARED_DIR), read by the tests.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/joinsplit/request.hpp"
#include "core/ownership/request.hpp"
#include "core/transfer/request.hpp"

namespace enygma::test {

inline std::string vector_path(const std::string& name) {
  // append, not +: g++ 12 -Warray-bounds false positive on string concatenation (PR 105651)
  return std::string(ENYGMA_SHARED_DIR).append("/vectors/").append(name);
}

// A file of ../shared/vectors; a missing one is a test failure (a renamed or lost vector must
// not turn the tests that read it into skips), read as "".
inline std::string read_vector(const std::string& name) {
  std::ifstream f(vector_path(name));
  if (!f) {
    ADD_FAILURE() << vector_path(name) << " is missing";
    return {};
  }
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

// A request vector of any family, parsed by `parse` (parse_deposit_request, ...) with the
// arguments after the text (k, a note format, none) (a failed expectation and an empty request
// otherwise).
template <class Request, class... Params, class... Args>
Request load_vector(const std::string& name, Result<Request> (*parse)(std::string_view, Params...),
                    Args... args) {
  const std::string text = read_vector(name);
  EXPECT_FALSE(text.empty()) << name << " is missing";
  auto r = parse(text, args...);
  EXPECT_TRUE(r.ok()) << name << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : Request{};
}

// A vector's JSON with its members in file order (an empty object, with a failed expectation,
// when it is missing), to edit into bad requests.
inline nlohmann::ordered_json vector_json(const std::string& name) {
  const std::string text = read_vector(name);
  EXPECT_FALSE(text.empty()) << name << " is missing";
  return nlohmann::ordered_json::parse(text.empty() ? "{}" : text);
}

// The scalar field's modulus in decimal: the smallest out-of-range field value of a request.
inline constexpr const char* kFrModulusDecimal =
    "21888242871839275222246405745257275088548364400416034343698204186575808495617";

inline Fr dec(const char* decimal) {
  return *Fr::from_decimal(decimal);
}

inline std::vector<std::string> decimals(const std::vector<Fr>& xs) {
  std::vector<std::string> out;
  for (const Fr& x : xs) out.push_back(x.to_decimal());
  return out;
}

inline JoinSplitRequest load_joinsplit(const std::string& name, NoteFormat format) {
  return load_vector(name, parse_joinsplit_request, format);
}
inline OwnershipRequest load_ownership(const std::string& name) {
  return load_vector(name, parse_ownership_request);
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
