// The reference's test vectors in shared/vectors (ENYGMA_SHARED_DIR), read by the tests.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/transfer/request.hpp"

namespace enygma::test {

inline std::string vector_path(const std::string& name) {
  return std::string(ENYGMA_SHARED_DIR) + "/vectors/" + name;
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

}  // namespace enygma::test
