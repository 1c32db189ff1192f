// The quotient's transforms on the f64 lanes (core/field/wasm/f64_lanes.hpp), two butterflies at
// a time: NttDomain::odd_coset_product in the WebAssembly module built with relaxed SIMD
// (kernels::ntt_lanes_enabled()); elsewhere core/poly/ntt_f64.cpp compiles to the C++ model of
// the lanes, which the tests compare with the scalar transforms.
//
// The same transforms as the scalar code (core/poly/ntt.cpp): the inverse by decimation in
// frequency, the coset factors, the forward transform by decimation in time, stage by stage
// over the whole polynomial (a 2^15-element polynomial stays in L2), each stage's butterflies
// shared out over the pool. Each polynomial is put into the lanes' form once (elements 2i and
// 2i + 1 in the lanes of pair i: core/field/wasm/f64_lanes.hpp kFe2Words) and back after its
// transforms, and the twiddles are kept in that form: no stage converts. Twiddles are stored
// halved: the lanes' products are Montgomery products with R = 2^255, so a value of the scalar
// form times a halved twiddle stays in the scalar form.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/field/fr.hpp"
#include "core/parallel/thread_pool.hpp"

namespace enygma::ntt_detail {

struct F64Tables {
  size_t n = 0;
  // In the lanes' form, 10 words per pair of elements. Stage with half-size h >= 2, pair
  // [h / 2 - 1 + j / 2] (j even): omega_2h^j / 2 and omega_2h^(j + 1) / 2 (forward), and
  // omega_2h^-j / 2, omega_2h^-(j + 1) / 2 (inverse). (Stage h = 1's twiddle is 1: no product.)
  std::vector<uint64_t> forward, inverse;
  // The coset factor of position p after the inverse transform (omega_2n^rev(p) / n): the
  // domain's (NttDomain::coset_factors(), which lives as long as the domain's tables).
  const Fr* factor = nullptr;
};

// From the domain's twiddles (twiddles[h - 1 + j] = omega_2h^j) and coset factors (kept by
// address).
F64Tables make_f64_tables(const std::vector<Fr>& twiddles, const std::vector<Fr>& factor);

// NttDomain::odd_coset_product for n = tables.n >= 4: a[i] = A(x_i) B(x_i) - C(x_i) on the odd
// coset from evaluations on the n-th roots; b and c are scratch.
void f64_odd_coset_product(const F64Tables& tables, Fr* a, Fr* b, Fr* c, ThreadPool& pool);

// The radix-3 passes of an EvaluationDomain of size n = 3m (core/poly/evaluation_domain.hpp) in
// the lanes' form: in[j] and out[j] are the domain's twiddles of the pass in and out (m each),
// constants the pairs (w, w), (w^-1, w^-1), (1/3, 1/3).
struct F64Radix3Tables {
  std::vector<uint64_t> in[2], out[2], constants;
};
F64Radix3Tables make_f64_radix3_tables(const std::vector<Fr> (&in)[2],
                                       const std::vector<Fr> (&out)[2], const Fr& w,
                                       const Fr& w_inv, const Fr& third);

// EvaluationDomain::odd_coset_product for n = 3 tables.n (tables: the m-domain's, m >= 4),
// every pass on the lanes.
void f64_odd_coset_product_radix3(const F64Tables& tables, const F64Radix3Tables& r3, Fr* a, Fr* b,
                                  Fr* c, ThreadPool& pool);

}  // namespace enygma::ntt_detail
