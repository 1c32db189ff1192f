// NTT over Fr: roots of unity, forward/inverse against naive evaluation, cosets (including the
// odd-2n-th-root coset Groth16 provers use), and thread-count independence.
#include "core/poly/ntt.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "core/field/cpu_features.hpp"
#include "core/poly/ntt_f64.hpp"
#include "support/test_rng.hpp"
#include "support/threads.hpp"

namespace enygma {
namespace {

using test::kManyThreads;

std::vector<Fr> random_vector(size_t n, uint64_t seed) {
  test::TestRng rng(seed);
  std::vector<Fr> v(n);
  for (Fr& x : v) x = rng.field<Fr>();
  return v;
}

// A(x) = sum_j a_j x^j by Horner.
Fr evaluate(const std::vector<Fr>& a, const Fr& x) {
  Fr acc = Fr::zero();
  for (size_t j = a.size(); j-- > 0;) acc = acc * x + a[j];
  return acc;
}

Fr pow_u64(const Fr& x, uint64_t e) {
  return x.pow(U256::from_u64(e));
}

TEST(Ntt, RootsOfUnity) {
  // 5 is a quadratic non-residue, so 5^((r-1)/2^28) has order exactly 2^28.
  EXPECT_EQ(Fr::from_u64(5).legendre(), -1);
  EXPECT_EQ(Fr::kTwoAdicity, 28u);
  const Fr root = NttDomain::root_of_unity_max();
  Fr x = root;
  for (int i = 0; i < 27; ++i) x = x.square();
  EXPECT_EQ(x, -Fr::one());  // root^(2^27) = -1
  EXPECT_EQ(x.square(), Fr::one());
  for (unsigned k : {0u, 1u, 2u, 5u, 10u, 16u}) {
    const NttDomain d(k);
    const uint64_t n = uint64_t(1) << k;
    EXPECT_EQ(d.size(), n);
    EXPECT_EQ(pow_u64(d.omega(), n), Fr::one()) << k;
    if (k > 0) {
      EXPECT_EQ(pow_u64(d.omega(), n / 2), -Fr::one()) << k;
    }
    EXPECT_EQ(d.omega_2n().square(), d.omega()) << k;
    EXPECT_EQ(pow_u64(d.omega_2n(), n), -Fr::one()) << k;
  }
#if !defined(__EMSCRIPTEN__)  // no exception catching in the WebAssembly build
  EXPECT_THROW(NttDomain(28), std::invalid_argument);
#endif
}

TEST(Ntt, ForwardMatchesNaiveEvaluation) {
  ThreadPool pool(2);
  for (unsigned k : {0u, 1u, 2u, 3u, 6u, 8u}) {
    const NttDomain d(k);
    const size_t n = d.size();
    const std::vector<Fr> coeffs = random_vector(n, 100 + k);
    std::vector<Fr> a = coeffs;
    d.forward(a.data(), pool);
    Fr x = Fr::one();
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(a[i], evaluate(coeffs, x)) << "n=" << n << " i=" << i;
      x *= d.omega();
    }
    d.inverse(a.data(), pool);
    EXPECT_EQ(a, coeffs) << "n=" << n;
  }
}

TEST(Ntt, InverseOfForwardBigDomains) {
  ThreadPool pool(2);
  // Past the block size (2^12): one single stage (13), fused pairs (14, 16), both (15).
  for (unsigned k : {10u, 12u, 13u, 15u, 16u}) {
    const NttDomain d(k);
    const std::vector<Fr> coeffs = random_vector(d.size(), 200 + k);
    std::vector<Fr> a = coeffs;
    d.forward(a.data(), pool);
    // Spot-check a few evaluations against Horner.
    for (size_t i : {size_t(0), size_t(1), d.size() / 2 + 3, d.size() - 1}) {
      EXPECT_EQ(a[i], evaluate(coeffs, pow_u64(d.omega(), i))) << "k=" << k << " i=" << i;
    }
    d.inverse(a.data(), pool);
    EXPECT_EQ(a, coeffs) << "k=" << k;
  }
}

TEST(Ntt, CosetMatchesNaiveEvaluation) {
  ThreadPool pool(2);
  test::TestRng rng(7);
  for (unsigned k : {0u, 1u, 3u, 6u}) {
    const NttDomain d(k);
    const size_t n = d.size();
    const std::vector<Fr> coeffs = random_vector(n, 300 + k);
    const Fr shift = rng.field<Fr>();
    std::vector<Fr> a = coeffs;
    d.coset_forward(a.data(), shift, pool);
    Fr x = shift;
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(a[i], evaluate(coeffs, x)) << "n=" << n << " i=" << i;
      x *= d.omega();
    }
    d.coset_inverse(a.data(), shift, pool);
    EXPECT_EQ(a, coeffs) << "n=" << n;
  }
}

// Groth16's quotient (rapidsnark's method): with shift = omega_2n the coset evaluations are
// A at the odd 2n-th roots, i.e. the odd entries of a 2n-point NTT of the zero-padded vector.
TEST(Ntt, OddRootCosetIsHalfOfTheDoubleDomain) {
  ThreadPool pool(2);
  for (unsigned k : {1u, 4u, 11u, 13u}) {
    const NttDomain d(k), d2(k + 1);
    const size_t n = d.size();
    const std::vector<Fr> coeffs = random_vector(n, 400 + k);
    std::vector<Fr> odd = coeffs;
    d.coset_forward(odd.data(), d.omega_2n(), pool);
    std::vector<Fr> wide = coeffs;
    wide.resize(2 * n, Fr::zero());
    d2.forward(wide.data(), pool);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(odd[i], wide[2 * i + 1]) << "k=" << k << " i=" << i;
    if (n <= 16) {
      for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(odd[i], evaluate(coeffs, d.omega_2n() * pow_u64(d.omega(), i)));
      }
    }
    d.coset_inverse(odd.data(), d.omega_2n(), pool);
    EXPECT_EQ(odd, coeffs) << "k=" << k;
  }
}

TEST(Ntt, ThreadCountDoesNotChangeTheResult) {
  const NttDomain d(14);
  const std::vector<Fr> coeffs = random_vector(d.size(), 500);
  std::vector<Fr> one = coeffs;
  d.forward(one.data(), sequential_pool());
  std::vector<Fr> one_coset = coeffs;
  d.coset_forward(one_coset.data(), d.omega_2n(), sequential_pool());
  for (unsigned threads : {2u, 3u, kManyThreads}) {
    ThreadPool pool(threads);
    std::vector<Fr> a = coeffs;
    d.forward(a.data(), pool);
    EXPECT_EQ(a, one) << threads;
    d.inverse(a.data(), pool);
    EXPECT_EQ(a, coeffs) << threads;
    a = coeffs;
    d.coset_forward(a.data(), d.omega_2n(), pool);
    EXPECT_EQ(a, one_coset) << threads;
  }
}

// The quotient's pipeline against the plain transforms: to_odd_coset (inverse by decimation in
// frequency, coset factors in bit-reversed order, forward by decimation in time) equals
// coset_forward(inverse(a), omega_2n); odd_coset_product equals the pointwise a*b - c of three of
// them, on the IFMA kernel where the CPU has it and on the scalar code, for every size through
// the chunk and block boundaries, and for inputs at the edges (0, 1, m - 1).
TEST(Ntt, OddCosetPipelineMatchesThePlainTransforms) {
  ThreadPool pool(2);
  const bool had_ifma = ifma_enabled();
  for (unsigned k = 0; k <= 16; ++k) {
    const NttDomain& d = NttDomain::shared(k);
    const size_t n = d.size();
    std::vector<Fr> a = random_vector(n, 600 + k), b = random_vector(n, 700 + k),
                    c = random_vector(n, 800 + k);
    if (k == 5) {  // edge values
      for (size_t i = 0; i < n; ++i)
        a[i] = i % 3 == 0 ? Fr::zero() : i % 3 == 1 ? -Fr::one() : Fr::one();
      for (size_t i = 0; i < n; ++i) b[i] = -Fr::one();
      for (size_t i = 0; i < n; ++i) c[i] = -Fr::one();
    }
    std::vector<Fr> ea = a, eb = b, ec = c;
    for (std::vector<Fr>* v : {&ea, &eb, &ec}) {
      d.inverse(v->data(), pool);
      d.coset_forward(v->data(), d.omega_2n(), pool);
    }
    std::vector<Fr> single = a;
    d.to_odd_coset(single.data(), pool);
    ASSERT_EQ(single, ea) << "k=" << k;
    for (size_t i = 0; i < n; ++i) ea[i] = ea[i] * eb[i] - ec[i];
    for (bool ifma : {false, true}) {
      if (ifma && !cpu_supports_ifma()) continue;
      set_ifma_enabled(ifma);
      for (ThreadPool* p : {&pool, &sequential_pool()}) {
        std::vector<Fr> x = a, y = b, z = c;
        d.odd_coset_product(x.data(), y.data(), z.data(), *p);
        ASSERT_EQ(x, ea) << "k=" << k << " ifma=" << ifma << " threads=" << p->size();
      }
    }
    set_ifma_enabled(had_ifma);
    // The f64 lanes' transforms (core/poly/ntt_f64.cpp; here on their C++ model, which is
    // slow: the smaller domains).
    if (k >= 2 && k <= 10) {
      for (ThreadPool* p : {&pool, &sequential_pool()}) {
        std::vector<Fr> x = a, y = b, z = c;
        ntt_detail::f64_odd_coset_product(d.f64_tables(), x.data(), y.data(), z.data(), *p);
        ASSERT_EQ(x, ea) << "f64 lanes: k=" << k << " threads=" << p->size();
      }
    }
  }
}

}  // namespace
}  // namespace enygma
