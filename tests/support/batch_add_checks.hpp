// Batch-affine addition kernels (core/msm/batch_affine_lanes.hpp's contract) against the scalar
// group law, shared by the lane kernels' tests (tests/fp_ifma_test.cpp, tests/f64_lanes_test.cpp)
// and the WebAssembly check of the f64 lanes (wasm/tests/f64_lanes_check.cpp, no GoogleTest).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/field/fr.hpp"
#include "core/msm/batch_affine_lanes.hpp"
#include "support/test_rng.hpp"

namespace enygma::test {

// Random finite points of G1 or G2 (multiples of the generator).
template <class J>
std::vector<typename J::Affine> random_points(size_t n, uint64_t seed) {
  TestRng rng(seed);
  std::vector<J> jac(n);
  for (auto& p : jac) p = J::generator().mul_vartime(rng.field<Fr>().to_u256());
  std::vector<typename J::Affine> out(n);
  J::batch_to_affine(jac.data(), out.data(), n);
  return out;
}

// add(jobs, k, scratch) for counts around the kernels' lane counts and group sizes, some b
// negated (y near m), outputs overwriting their a for odd jobs (as in the MSM's buckets); ""
// when every sum equals the scalar group law's, else the first difference.
template <class J, class Add>
std::string batch_additions_match_the_group_law(Add add) {
  using Affine = typename J::Affine;
  for (size_t k : {1u, 2u, 3u, 7u, 8u, 9u, 15u, 16u, 17u, 64u, 333u}) {
    auto a = random_points<J>(k, 10 + k), b = random_points<J>(k, 1000 + k);
    for (size_t j = 0; j < k; j += 3) b[j] = -b[j];
    std::vector<Affine> out(k);
    std::vector<msm_detail::AffineAddJob> jobs(k);
    for (size_t j = 0; j < k; ++j) {
      Affine* dst = (j & 1) ? &a[j] : &out[j];
      jobs[j] = {msm_detail::words_of(a[j].x), msm_detail::words_of(b[j].x),
                 msm_detail::words_of(b[j].y), msm_detail::words_of(dst->x)};
    }
    const auto a_before = a;
    SecureVector<uint64_t> scratch;
    add(jobs.data(), k, scratch);
    for (size_t j = 0; j < k; ++j) {
      const Affine got = (j & 1) ? a[j] : out[j];
      Affine expect;
      const J sum = a_before[j].to_jacobian() + b[j].to_jacobian();
      J::batch_to_affine(&sum, &expect, 1);
      if (!(got.x == expect.x && got.y == expect.y))
        return "k=" + std::to_string(k) + " j=" + std::to_string(j);
    }
  }
  return "";
}

}  // namespace enygma::test
