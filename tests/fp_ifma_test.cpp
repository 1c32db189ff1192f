// The 8-lane AVX-512 IFMA kernels against the scalar field and curve code: Montgomery
// multiplication at the edges of its input bounds, the lazy subtractions and the final
// reduction, and batch-affine G1 and G2 additions (every lane count, padding lanes, outputs
// aliasing inputs). Skipped, and saying so, on CPUs without AVX-512 IFMA (and in the WebAssembly
// build).
#include <gtest/gtest.h>

#include <vector>

#include "core/curve/fp2.hpp"
#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/field/cpu_features.hpp"
#include "core/field/fp.hpp"
#include "core/msm/batch_affine_lanes.hpp"
#include "support/batch_add_checks.hpp"
#include "support/test_rng.hpp"

#if defined(ENYGMA_HAVE_IFMA_KERNEL)
#include "core/field/ifma/fe8.hpp"
#include "core/field/ifma/fp2_lanes.hpp"
#endif

namespace enygma {
namespace {

#if defined(ENYGMA_HAVE_IFMA_KERNEL)

using ifma::Fe8;

constexpr U256 kFpModulus = Fp::kModulus;

U256 add_u(const U256& a, const U256& b) {
  U256 r;
  add_carry(r, a, b);
  return r;
}
U256 sub_u(const U256& a, const U256& b) {
  U256 r;
  sub_borrow(r, a, b);
  return r;
}
U256 mod_p(U256 x) {
  while (cmp(x, kFpModulus) >= 0) sub_borrow(x, x, kFpModulus);
  return x;
}

ENYGMA_IFMA_TARGET Fe8 load_lanes(const U256 v[8]) {
  alignas(64) uint64_t w[4][8];
  for (int l = 0; l < 8; ++l)
    for (int j = 0; j < 4; ++j) w[j][l] = v[l].w[j];
  __m512i z[4];
  for (int j = 0; j < 4; ++j) z[j] = _mm512_load_si512(w[j]);
  return ifma::from_words(z);
}

// The 260-bit value of each lane (as the low 256 bits plus the bits above).
struct Wide {
  U256 low;
  uint64_t high;
};
ENYGMA_IFMA_TARGET void store_lanes(const Fe8& a, Wide out[8]) {
  alignas(64) uint64_t limbs[5][8];
  for (int i = 0; i < 5; ++i) _mm512_store_si512(limbs[i], a.l[i]);
  for (int l = 0; l < 8; ++l) {
    for (int i = 0; i < 4; ++i) ASSERT_LT(limbs[i][l], uint64_t(1) << 52) << "limb " << i;
    U256 x{{limbs[0][l] | (limbs[1][l] << 52), (limbs[1][l] >> 12) | (limbs[2][l] << 40),
            (limbs[2][l] >> 24) | (limbs[3][l] << 28), (limbs[3][l] >> 36) | (limbs[4][l] << 16)}};
    out[l] = {x, limbs[4][l] >> 48};
  }
}

ENYGMA_IFMA_TARGET void mul_shifted(const U256 a[8], const U256 b[8], Wide out[8]) {
  store_lanes(ifma::mul<Fp>(ifma::shl4(load_lanes(a)), load_lanes(b)), out);
}

// a - b + 2m with a < 2m, b < m: in (0, 4m); reduced: the canonical a - b.
ENYGMA_IFMA_TARGET void sub_and_reduce(const U256 a[8], const U256 b[8], Wide diff[8],
                                       Wide reduced[8]) {
  const Fe8 d = ifma::sub<Fp, 2>(load_lanes(a), load_lanes(b));
  store_lanes(d, diff);
  store_lanes(ifma::reduce_below_4m<Fp>(d), reduced);
}

// Scalar value of a 2^256-scaled integer x (mod p), as Fp.
Fp as_fp(const U256& x) {
  return Fp::from_montgomery(mod_p(x));
}

class FpIfma : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cpu_supports_ifma()) GTEST_SKIP() << "this CPU has no AVX-512 IFMA";
  }
};

// Inputs spanning the bounds the MSM kernel relies on: 0, 1, m-1, m, 2m-1, all-ones limbs.
std::vector<U256> edge_values_below_2m() {
  std::vector<U256> v = {U256{},
                         U256::from_u64(1),
                         sub_u(kFpModulus, U256::from_u64(1)),
                         kFpModulus,
                         sub_u(add_u(kFpModulus, kFpModulus), U256::from_u64(1)),
                         U256{{~0ull, ~0ull, ~0ull, 0}},
                         U256{{~0ull, 0, ~0ull, 0}},
                         U256{{(1ull << 52) - 1, 0, 0, 0}}};
  return v;
}

TEST_F(FpIfma, MultiplicationMatchesScalarAtTheBoundsItIsUsedWith) {
  test::TestRng rng(1);
  std::vector<U256> pool = edge_values_below_2m();
  for (int i = 0; i < 200; ++i) {
    U256 x = rng.u256();
    x.w[3] &= (1ull << 62) - 1;
    while (cmp(x, add_u(kFpModulus, kFpModulus)) >= 0) x.w[3] >>= 1;
    pool.push_back(x);
  }
  // mul(a * 2^4, b) for a, b < 2m: the product of a 2^260-scaled and a 2^256-scaled value,
  // the largest inputs the kernel multiplies (32m and 2m).
  size_t checked = 0;
  for (size_t i = 0; i + 8 <= pool.size(); i += 3) {
    U256 a[8], b[8];
    for (int l = 0; l < 8; ++l) {
      a[l] = pool[(i + size_t(l)) % pool.size()];
      b[l] = pool[(i * 7 + size_t(l) * 13 + 5) % pool.size()];
    }
    Wide out[8];
    mul_shifted(a, b, out);
    for (int l = 0; l < 8; ++l) {
      ASSERT_EQ(out[l].high, 0u);
      ASSERT_LT(cmp(out[l].low, add_u(kFpModulus, kFpModulus)), 0) << "output not below 2m";
      // a*16 * b * 2^-260 = a * b * 2^-256: the scalar Montgomery product.
      ASSERT_EQ(as_fp(out[l].low), as_fp(a[l]) * as_fp(b[l])) << "lane " << l;
      ++checked;
    }
  }
  EXPECT_GT(checked, 500u);
}

TEST_F(FpIfma, SubtractionsAndReductionGiveTheCanonicalValue) {
  test::TestRng rng(2);
  std::vector<U256> pool = edge_values_below_2m();
  for (int i = 0; i < 100; ++i) pool.push_back(rng.field<Fp>().montgomery());
  for (size_t i = 0; i + 8 <= pool.size(); ++i) {
    U256 a[8], b[8];
    for (int l = 0; l < 8; ++l) {
      a[l] = pool[i + size_t(l)];
      b[l] = mod_p(pool[(i * 5 + size_t(l) * 11) % pool.size()]);  // b < m
    }
    Wide d[8], r[8];
    sub_and_reduce(a, b, d, r);
    for (int l = 0; l < 8; ++l) {
      const U256 expect = (as_fp(a[l]) - as_fp(b[l])).montgomery();
      ASSERT_EQ(as_fp(d[l].low), Fp::from_montgomery(expect));
      ASSERT_EQ(r[l].high, 0u);
      ASSERT_EQ(cmp(r[l].low, expect), 0) << "lane " << l << " not canonical";
    }
  }
}

template <class F>
void lane_batch_add(const msm_detail::AffineAddJob* jobs, size_t k,
                    SecureVector<uint64_t>& scratch) {
  msm_detail::batch_add_lanes<F>(jobs, k, scratch);
}

TEST_F(FpIfma, G1BatchAdditionsMatchTheScalarGroupLaw) {
  EXPECT_EQ(test::batch_additions_match_the_group_law<G1>(lane_batch_add<Fp>), "");
}

TEST_F(FpIfma, G2BatchAdditionsMatchTheScalarGroupLaw) {
  EXPECT_EQ(test::batch_additions_match_the_group_law<G2>(lane_batch_add<Fp2>), "");
}

// Fp2 operands at the edges of the lane kernel's bounds: 0, 1, m - 1 and random values in each
// coordinate (the lazy sums reach 2m and 32m there, the conditional subtraction both ways).
std::vector<Fp2> edge_and_random_fp2(size_t random, uint64_t seed) {
  test::TestRng rng(seed);
  const Fp edges[3] = {Fp::zero(), Fp::one(), -Fp::one()};
  std::vector<Fp2> v;
  for (const Fp& x : edges)
    for (const Fp& y : edges) v.push_back({x, y});
  for (size_t i = 0; i < random; ++i) {
    v.push_back({rng.field<Fp>(), rng.field<Fp>()});
    v.push_back({rng.field<Fp>(), edges[i % 3]});
  }
  return v;
}

// The Fp2 lane kernel (fp2_mul_lanes, fp2_square_lanes) directly for every lane count, and
// through fp2_mul_many / fp2_square_many for group sizes around multiples of eight, against the
// scalar product; outputs overwriting their operands included.
TEST_F(FpIfma, Fp2ProductsAndSquaresInLanesMatchScalar) {
  const std::vector<Fp2> pool = edge_and_random_fp2(60, 7);
  size_t checked = 0;
  for (unsigned n = 1; n <= 8; ++n) {
    for (size_t s = 0; s + n <= pool.size(); s += 5) {
      Fp2 prod[8], sq[8];
      const Fp2 *a[8], *b[8];
      const uint64_t *wa[8], *wb[8];
      for (unsigned l = 0; l < n; ++l) {
        a[l] = &pool[s + l];
        b[l] = &pool[(s * 7 + l * 13 + 3) % pool.size()];
        wa[l] = a[l]->c0.limbs;
        wb[l] = b[l]->c0.limbs;
      }
      ifma::fp2_mul_lanes(prod[0].c0.limbs, wa, wb, n);
      ifma::fp2_square_lanes(sq[0].c0.limbs, wa, n);
      for (unsigned l = 0; l < n; ++l) {
        ASSERT_EQ(prod[l], *a[l] * *b[l]) << "n=" << n << " lane " << l;
        ASSERT_EQ(sq[l], a[l]->square()) << "n=" << n << " lane " << l;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 800u);

  const bool was = ifma_enabled();
  set_ifma_enabled(true);
  for (size_t n : {1u, 2u, 7u, 8u, 9u, 13u, 16u, 18u, 25u}) {
    std::vector<Fp2> a(pool.begin(), pool.begin() + long(n)), b(n), out(n), sq(n);
    std::vector<const Fp2*> pa(n), pb(n);
    for (size_t i = 0; i < n; ++i) {
      b[i] = pool[pool.size() - 1 - i];
      pa[i] = &a[i];
      pb[i] = &b[i];
    }
    fp2_mul_many(out.data(), pa.data(), pb.data(), n);
    fp2_square_many(sq.data(), pa.data(), n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[i], a[i] * b[i]) << "n=" << n << " i=" << i;
      ASSERT_EQ(sq[i], a[i].square()) << "n=" << n << " i=" << i;
    }
    // Outputs over their own operands.
    std::vector<Fp2> in_place = a;
    for (size_t i = 0; i < n; ++i) pa[i] = &in_place[i];
    fp2_mul_many(in_place.data(), pa.data(), pb.data(), n);
    EXPECT_EQ(in_place, out);
    in_place = a;
    fp2_square_many(in_place.data(), pa.data(), n);
    EXPECT_EQ(in_place, sq);
  }
  set_ifma_enabled(was);
}

TEST(FpIfmaDispatch, CanBeSwitchedOffAndOnWhereSupported) {
  const bool was = ifma_enabled();
  set_ifma_enabled(false);
  EXPECT_FALSE(ifma_enabled());
  set_ifma_enabled(true);
  EXPECT_EQ(ifma_enabled(), cpu_supports_ifma());
  set_ifma_enabled(was);
}

#else

TEST(FpIfma, NotBuiltForThisTarget) {
  EXPECT_FALSE(cpu_supports_ifma());
  GTEST_SKIP() << "the IFMA kernel exists on x86-64 native builds only";
}

#endif

}  // namespace
}  // namespace enygma
