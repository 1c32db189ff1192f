// The quotient's evaluation domains of size 2^k and 3 * 2^k (core/poly/evaluation_domain.hpp):
// sizes, roots, and the odd-coset transforms against naive evaluation and against barycentric
// interpolation (any size), on the IFMA kernel where the CPU has it and on the scalar code.
#include "core/poly/evaluation_domain.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "core/field/batch_inverse.hpp"
#include "core/field/cpu_features.hpp"
#include "core/poly/ntt_f64.hpp"
#include "support/test_rng.hpp"
#include "support/threads.hpp"

namespace enygma {
namespace {

Fr power(const Fr& x, uint64_t e) {
  return x.pow(U256::from_u64(e));
}

std::vector<Fr> random_values(size_t n, uint64_t seed) {
  test::TestRng rng(seed);
  std::vector<Fr> v(n);
  for (Fr& x : v) x = rng.field<Fr>();
  return v;
}

TEST(EvaluationDomain, Sizes) {
  for (size_t n : {1, 2, 3, 4, 6, 8, 12, 16, 24, 3 << 12, 3 << 13, 1 << 15, 1 << 27, 3 << 26}) {
    EXPECT_TRUE(EvaluationDomain::valid_size(n)) << n;
  }
  for (size_t n : {0, 5, 7, 9, 10, 18, 20, 36, 48 + 1, (3 << 12) + 3, 3 << 27, 1 << 28}) {
    EXPECT_FALSE(EvaluationDomain::valid_size(n)) << n;
  }
#if !defined(__EMSCRIPTEN__)  // no exception catching in the WebAssembly build
  EXPECT_THROW(EvaluationDomain(5), std::invalid_argument);
  EXPECT_THROW(EvaluationDomain(9), std::invalid_argument);
#endif
  // The smallest size that holds the rows.
  const std::pair<size_t, size_t> cases[] = {
      {1, 1},         {2, 2},         {3, 3},         {4, 4},         {5, 6},
      {6, 6},         {7, 8},         {9, 12},        {12, 12},       {13, 16},
      {17, 24},       {25, 32},       {10362, 12288}, {12288, 12288}, {12289, 16384},
      {13676, 16384}, {16385, 24576}, {23618, 24576}, {24577, 32768}, {32768, 32768}};
  for (const auto& [rows, n] : cases) EXPECT_EQ(EvaluationDomain::size_for(rows), n) << rows;
  for (size_t rows = 1; rows < 5000; ++rows) {
    const size_t n = EvaluationDomain::size_for(rows);
    ASSERT_TRUE(EvaluationDomain::valid_size(n) && n >= rows) << rows;
    for (size_t smaller = rows; smaller < n; ++smaller) {
      ASSERT_FALSE(EvaluationDomain::valid_size(smaller)) << rows;
    }
  }
}

TEST(EvaluationDomain, Roots) {
  for (size_t n : {1, 2, 3, 6, 12, 48, 3 << 10, 1 << 10, 3 << 14}) {
    const EvaluationDomain& d = EvaluationDomain::shared(n);
    EXPECT_EQ(d.size(), n);
    EXPECT_EQ(d.radix3(), n % 3 == 0);
    EXPECT_EQ(power(d.omega(), n), Fr::one()) << n;
    // Primitive: no power n / p for a prime p dividing n.
    if (n % 2 == 0) {
      EXPECT_NE(power(d.omega(), n / 2), Fr::one()) << n;
    }
    if (n % 3 == 0) {
      EXPECT_NE(power(d.omega(), n / 3), Fr::one()) << n;
    }
    EXPECT_EQ(d.omega_2n().square(), d.omega()) << n;
    EXPECT_EQ(power(d.omega_2n(), n), -Fr::one()) << n;
    // The transforms' domain: n or n / 3, its odd coset's shift the cube of this one's.
    const NttDomain& t = d.transforms();
    EXPECT_EQ(t.size(), d.radix3() ? n / 3 : n);
    EXPECT_EQ(t.omega_2n(), d.radix3() ? power(d.omega_2n(), 3) : d.omega_2n());
  }
}

// The coset evaluations against the definition: coefficients by the naive inverse DFT, then each
// odd-coset point x_k = omega_2n omega^k by Horner.
std::vector<Fr> naive_odd_coset(const EvaluationDomain& d, const std::vector<Fr>& a) {
  const size_t n = d.size();
  const Fr n_inv = Fr::from_u64(n).inverse();
  const Fr omega_inv = power(d.omega(), n - 1);
  std::vector<Fr> coeff(n, Fr::zero());
  for (size_t j = 0; j < n; ++j) {
    const Fr step = power(omega_inv, j);
    Fr w = Fr::one();
    for (size_t i = 0; i < n; ++i) {
      coeff[j] += a[i] * w;
      w *= step;
    }
    coeff[j] *= n_inv;
  }
  std::vector<Fr> e(n);
  Fr x = d.omega_2n();
  for (size_t k = 0; k < n; ++k) {
    Fr acc = Fr::zero();
    for (size_t j = n; j-- > 0;) acc = acc * x + coeff[j];
    e[k] = acc;
    x *= d.omega();
  }
  return e;
}

TEST(EvaluationDomain, OddCosetMatchesNaiveEvaluation) {
  ThreadPool pool(2);
  for (size_t n : {1, 2, 3, 4, 6, 12, 24, 48, 96, 192, 64, 128}) {
    const EvaluationDomain& d = EvaluationDomain::shared(n);
    const std::vector<Fr> a = random_values(n, 900 + n);
    std::vector<Fr> x = a;
    d.to_odd_coset(x.data(), pool);
    ASSERT_EQ(x, naive_odd_coset(d, a)) << "n=" << n;
  }
}

// A(z) from evaluations on the n-th roots and from evaluations on the odd coset (barycentric:
// sum_i v_i / (z - p_i) * p_i (z^n - p^n) / (n p^n), p^n = 1 or -1), at a random z.
Fr barycentric(const std::vector<Fr>& v, const Fr& start, const Fr& step, const Fr& z,
               bool odd_coset) {
  const size_t n = v.size();
  std::vector<Fr> p(n), den(n), scratch(n);
  Fr x = start;
  for (size_t i = 0; i < n; ++i) {
    p[i] = x;
    den[i] = z - x;
    x *= step;
  }
  batch_inverse(den.data(), n, scratch.data());
  Fr sum = Fr::zero();
  for (size_t i = 0; i < n; ++i) sum += v[i] * p[i] * den[i];
  const Fr zn = power(z, n);
  const Fr nf = Fr::from_u64(n);
  return odd_coset ? sum * (zn + Fr::one()) * (-nf).inverse()
                   : sum * (zn - Fr::one()) * nf.inverse();
}

// Every size kind through the IFMA kernel's and the blocks' boundaries, both kernels, 1 and 2
// threads; odd_coset_product against the pointwise product of three to_odd_coset.
TEST(EvaluationDomain, OddCosetAgreesWithInterpolation) {
  ThreadPool pool(2);
  const bool had_ifma = ifma_enabled();
  test::TestRng rng(77);
  for (size_t n : {size_t(3) << 4, size_t(3) << 6, size_t(3) << 9, size_t(3) << 12, size_t(1) << 12,
                   size_t(3) << 14}) {
    const EvaluationDomain& d = EvaluationDomain::shared(n);
    std::vector<Fr> a = random_values(n, 1000 + n), b = random_values(n, 2000 + n),
                    c = random_values(n, 3000 + n);
    if (n == size_t(3) << 9) {  // edge values: m - 1 and 0 (the lanes' bounds)
      for (size_t i = 0; i < n; ++i) {
        a[i] = -Fr::one();
        b[i] = i % 2 ? Fr::zero() : -Fr::one();
        c[i] = i % 3 ? -Fr::one() : Fr::zero();
      }
    }
    std::vector<Fr> first;
    for (bool ifma : {false, true}) {
      if (ifma && !cpu_supports_ifma()) continue;
      set_ifma_enabled(ifma);
      for (ThreadPool* p : {&pool, &sequential_pool()}) {
        std::vector<Fr> ea = a, eb = b, ec = c;
        for (std::vector<Fr>* v : {&ea, &eb, &ec}) d.to_odd_coset(v->data(), *p);
        if (first.empty()) {
          first = ea;
          const Fr z = rng.field<Fr>();
          ASSERT_EQ(barycentric(ea, d.omega_2n(), d.omega(), z, true),
                    barycentric(a, Fr::one(), d.omega(), z, false))
              << "n=" << n;
        } else {
          ASSERT_EQ(ea, first) << "n=" << n << " ifma=" << ifma << " threads=" << p->size();
        }
        std::vector<Fr> x = a, y = b, z = c;
        d.odd_coset_product(x.data(), y.data(), z.data(), *p);
        for (size_t i = 0; i < n; ++i) ea[i] = ea[i] * eb[i] - ec[i];
        ASSERT_EQ(x, ea) << "n=" << n << " ifma=" << ifma << " threads=" << p->size();
      }
    }
    set_ifma_enabled(had_ifma);
  }
}

// The f64 lanes' radix-3 transforms (core/poly/ntt_f64.cpp; here on their C++ model, which is
// slow: the smaller domains) against the scalar code.
TEST(EvaluationDomain, F64LanesMatchTheScalarCode) {
  ThreadPool pool(2);
  for (size_t n : {12, 24, 48, 3 << 6, 3 << 9}) {
    const EvaluationDomain& d = EvaluationDomain::shared(n);
    const std::vector<Fr> a = random_values(n, 4000 + n), b = random_values(n, 5000 + n),
                          c = random_values(n, 6000 + n);
    std::vector<Fr> ea = a, eb = b, ec = c;
    d.odd_coset_product(ea.data(), eb.data(), ec.data(), pool);
    for (ThreadPool* p : {&pool, &sequential_pool()}) {
      std::vector<Fr> x = a, y = b, z = c;
      ntt_detail::f64_odd_coset_product_radix3(d.transforms().f64_tables(), d.f64_radix3_tables(),
                                               x.data(), y.data(), z.data(), *p);
      ASSERT_EQ(x, ea) << "n=" << n << " threads=" << p->size();
    }
  }
}

}  // namespace
}  // namespace enygma
