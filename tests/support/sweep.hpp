// How far the exhaustive tests sweep. By default they run a few anonymity-set sizes (k = 2, 3,
// 6 and, where it is cheap, 16) so that `ctest -L unit` stays fast; with ENYGMA_SWEEP=full in
// the environment they run every k = 2..16.
#pragma once

#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/payment/request.hpp"

namespace enygma::test {

inline bool full_sweep() {
  const char* v = std::getenv("ENYGMA_SWEEP");
  return v != nullptr && std::strcmp(v, "full") == 0;
}

// `defaults`, or every k = kMinK..kMaxK under ENYGMA_SWEEP=full.
inline std::vector<unsigned> sweep_ks(std::vector<unsigned> defaults) {
  if (!full_sweep()) return defaults;
  std::vector<unsigned> all;
  for (unsigned k = kMinK; k <= kMaxK; ++k) all.push_back(k);
  return all;
}

}  // namespace enygma::test
