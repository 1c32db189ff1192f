// inverse_vartime (safegcd, public inputs only) against Fermat's inverse() on random elements and
// on edge cases, both as canonical values and as Montgomery representations (the algorithm runs
// on the representation, so its special values matter too).
#include "core/field/inverse_vartime.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "core/field/fp.hpp"
#include "core/field/fr.hpp"
#include "support/test_rng.hpp"

namespace enygma {
namespace {

using test::TestRng;

template <class F>
class InverseVartimeTest : public ::testing::Test {};
using FieldTypes = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(InverseVartimeTest, FieldTypes);

template <class F>
void expect_inverse(const F& a, const char* what, const U256& value) {
  const F inv = inverse_vartime(a);
  EXPECT_EQ(inv, a.inverse()) << what << " " << to_decimal(value);
  EXPECT_EQ(a * inv, F::one()) << what << " " << to_decimal(value);
}

// Checks x both as the canonical value and as the Montgomery representation (x < m).
template <class F>
void expect_inverse_of_integer(const U256& x) {
  ASSERT_LT(cmp(x, F::kModulus), 0);
  expect_inverse(*F::from_canonical(x), "canonical", x);
  expect_inverse(F::from_montgomery(x), "montgomery", x);
}

U256 pow2(unsigned k) {
  U256 x{};
  x.w[k / 64] = uint64_t(1) << (k % 64);
  return x;
}

U256 plus(const U256& a, const U256& b) {
  U256 r;
  add_carry(r, a, b);
  return r;
}

U256 minus(const U256& a, const U256& b) {
  U256 r;
  sub_borrow(r, a, b);
  return r;
}

TYPED_TEST(InverseVartimeTest, MatchesFermatOnRandomElements) {
  using F = TypeParam;
  TestRng rng(0x5afe6cd);
  for (int i = 0; i < 20000; ++i) {
    const F a = rng.field<F>();
    const F inv = inverse_vartime(a);
    ASSERT_EQ(inv, a.inverse()) << i << " " << a.to_decimal();
    ASSERT_EQ(a * inv, F::one()) << i;
  }
}

TYPED_TEST(InverseVartimeTest, ZeroGivesZero) {
  using F = TypeParam;
  EXPECT_EQ(inverse_vartime(F::zero()), F::zero());
  EXPECT_EQ(inverse_vartime(F::zero()), F::zero().inverse());
}

TYPED_TEST(InverseVartimeTest, KnownValues) {
  using F = TypeParam;
  // Exact values, independent of inverse(): a wrong Montgomery correction (R^3) fails here.
  EXPECT_EQ(inverse_vartime(F::one()), F::one());
  EXPECT_EQ(inverse_vartime(-F::one()), -F::one());
  U256 half;  // (m + 1) / 2 = 2^-1
  add_carry(half, shr1(F::kModulus), U256::from_u64(1));
  EXPECT_EQ(inverse_vartime(F::from_u64(2)).to_u256(), half);
  EXPECT_EQ(inverse_vartime(F::from_u64(7)) * F::from_u64(7), F::one());
  // Montgomery representation 1 is the value R^-1, whose inverse is R (representation R^2).
  EXPECT_EQ(inverse_vartime(F::from_montgomery(U256::from_u64(1))).to_u256(), F::kR);
  EXPECT_EQ(inverse_vartime(F::from_montgomery(U256::from_u64(1))), F::from_montgomery(F::kR2));
  // Canonical value R (representation R^2) has inverse R^-1 (representation 1).
  EXPECT_EQ(inverse_vartime(*F::from_canonical(F::kR)), F::from_montgomery(U256::from_u64(1)));
}

TYPED_TEST(InverseVartimeTest, SmallValuesAndNeighboursOfTheModulus) {
  using F = TypeParam;
  const U256 m = F::kModulus;
  for (uint64_t k = 1; k <= 1000; ++k) {
    expect_inverse_of_integer<F>(U256::from_u64(k));
    expect_inverse_of_integer<F>(minus(m, U256::from_u64(k)));  // -k: m-1, m-2, ...
  }
  expect_inverse_of_integer<F>(F::kR);
  expect_inverse_of_integer<F>(F::kR2);
  expect_inverse_of_integer<F>(shr1(m));  // (m-1)/2
}

TYPED_TEST(InverseVartimeTest, PowersOfTwoAndLongBitRuns) {
  using F = TypeParam;
  const U256 m = F::kModulus;
  const unsigned bits = F::kBits;  // 254 for both BN254 fields
  for (unsigned k = 0; k + 1 < bits; ++k) {
    expect_inverse_of_integer<F>(pow2(k));                                // 1 then k zeros
    expect_inverse_of_integer<F>(minus(pow2(k + 1), U256::from_u64(1)));  // k+1 ones
    expect_inverse_of_integer<F>(minus(m, pow2(k)));                      // -2^k
    // Ones from bit k up to bit bits-2, zeros below: a long run of each.
    expect_inverse_of_integer<F>(minus(pow2(bits - 1), pow2(k)));
    // 2^k + 1: a single long run of zeros between two ones (k >= 1).
    if (k >= 1) expect_inverse_of_integer<F>(plus(pow2(k), U256::from_u64(1)));
  }
  // Alternating 64-bit words of zeros and ones, and the other way round.
  expect_inverse_of_integer<F>(U256{{~uint64_t(0), 0, ~uint64_t(0), 0}});
  expect_inverse_of_integer<F>(U256{{0, ~uint64_t(0), 0, uint64_t(1) << 40}});
  expect_inverse_of_integer<F>(U256{{0, 0, 0, uint64_t(1) << 61}});
  expect_inverse_of_integer<F>(U256{{1, 0, 0, uint64_t(1) << 61}});
}

TYPED_TEST(InverseVartimeTest, SparseRandomValues) {
  // Few set bits: many long zero runs, which the variable-time loop skips in big steps.
  using F = TypeParam;
  TestRng rng(77);
  for (int i = 0; i < 2000; ++i) {
    U256 x{};
    const int ones = 1 + int(rng.next() % 6);
    for (int j = 0; j < ones; ++j) {
      const unsigned bit = unsigned(rng.next() % (F::kBits - 1));
      x.w[bit / 64] |= uint64_t(1) << (bit % 64);
    }
    if (i % 2) x = minus(F::kModulus, x);  // and the mirror image: long runs of ones
    expect_inverse_of_integer<F>(x);
  }
}

#if !defined(ENYGMA_LIMB32) && defined(__SIZEOF_INT128__)
// One batch of divsteps: the matrix must make u f + v g and q f + r g divisible by 2^62 (the
// exact division in update_fg; a mis-counted batch breaks it) and keep |u| + |v| and
// |q| + |r| at most 2^62 (the bound that update_de relies on).
TEST(InverseVartimeDetail, DivstepBatchIsExactAndBounded) {
  TestRng rng(62);
  const uint64_t mask62 = (uint64_t(1) << 62) - 1;
  const auto abs64 = [](int64_t x) { return x < 0 ? 0 - uint64_t(x) : uint64_t(x); };
  for (int i = 0; i < 100000; ++i) {
    const uint64_t f = (rng.next() & mask62) | 1;
    uint64_t g = rng.next() & mask62;
    if (i % 4 == 1) g &= ~(~uint64_t(0) << (rng.next() % 62));  // few low bits, long zero runs
    if (i % 4 == 2) g = 0;
    const int64_t eta = i % 3 == 0 ? -1 : int64_t(rng.next() % 41) - 20;
    safegcd_detail::Matrix t;
    safegcd_detail::divsteps_62_var(eta, f, g, t);
    ASSERT_EQ((uint64_t(t.u) * f + uint64_t(t.v) * g) & mask62, 0u) << i;
    ASSERT_EQ((uint64_t(t.q) * f + uint64_t(t.r) * g) & mask62, 0u) << i;
    ASSERT_LE(abs64(t.u) + abs64(t.v), uint64_t(1) << 62) << i;
    ASSERT_LE(abs64(t.q) + abs64(t.r), uint64_t(1) << 62) << i;
  }
}

// The d/e update alone, with extreme matrices (|u| + |v| = 2^62) and inputs at the ends of
// (-2m, m): the result must stay in (-2m, m) (the final normalization relies on it) and be
// (u d + v e) / 2^62 mod m. The end-to-end tests rarely reach these bounds.
template <class F>
F signed_to_field(int64_t x) {
  const F mag = F::from_u64(x < 0 ? 0 - uint64_t(x) : uint64_t(x));
  return x < 0 ? -mag : mag;
}

// x + 2m as a U256 (checked to fit), so that x in (-2m, m) iff 0 < x + 2m < 3m.
template <class F>
U256 shifted_by_two_m(const safegcd_detail::Signed62& x) {
  const U256 two_m = plus(F::kModulus, F::kModulus);
  const safegcd_detail::Signed62 t = safegcd_detail::from_u256(two_m);
  safegcd_detail::Signed62 y;
  int64_t carry = 0;
  for (int i = 0; i < 5; ++i) {
    carry += x.v[i] + t.v[i];
    y.v[i] = i < 4 ? carry & safegcd_detail::kMask62 : carry;
    carry >>= 62;
  }
  EXPECT_GE(y.v[4], 0);
  EXPECT_LT(y.v[4], int64_t(1) << 8);
  return safegcd_detail::to_u256(y);
}

TYPED_TEST(InverseVartimeTest, UpdateDeStaysInRangeAndIsExact) {
  using F = TypeParam;
  const U256 m = F::kModulus, three_m = plus(plus(m, m), m);
  const U256 two_m = plus(m, m);
  const int64_t p62 = int64_t(1) << 62;
  TestRng rng(2024);
  // An element of (-2m, m) given as x + 2m in (0, 3m).
  auto from_shifted = [&](const U256& y) {
    U256 x;
    const bool negative = cmp(y, two_m) < 0;
    if (negative) {
      sub_borrow(x, two_m, y);  // |x|
    } else {
      sub_borrow(x, y, two_m);
    }
    safegcd_detail::Signed62 s = safegcd_detail::from_u256(x);
    if (negative) {
      int64_t carry = 0;
      for (int i = 0; i < 5; ++i) {
        carry -= s.v[i];
        s.v[i] = i < 4 ? carry & safegcd_detail::kMask62 : carry;
        carry >>= 62;
      }
    }
    return s;
  };
  const U256 ends[] = {U256::from_u64(1), minus(three_m, U256::from_u64(1)), two_m,
                       plus(two_m, U256::from_u64(1)), minus(two_m, U256::from_u64(1))};
  const safegcd_detail::Matrix extreme[] = {{p62, 0, 0, p62},
                                            {-p62, 0, 0, -p62},
                                            {0, p62, p62, 0},
                                            {0, -p62, -p62, 0},
                                            {p62 / 2, p62 / 2, p62 / 2, -p62 / 2},
                                            {-p62 / 2, -p62 / 2, 1, p62 - 1}};
  for (int i = 0; i < 4000; ++i) {
    U256 yd = ends[i % 5], ye = ends[(i / 5) % 5];
    if (i >= 200) {  // random inputs in (-2m, m)
      yd = rng.u256();
      ye = rng.u256();
      yd.w[3] >>= 1;
      ye.w[3] >>= 1;
      while (cmp(yd, three_m) >= 0) sub_borrow(yd, yd, three_m);
      while (cmp(ye, three_m) >= 0) sub_borrow(ye, ye, three_m);
      if (yd.is_zero() || ye.is_zero()) continue;
    }
    safegcd_detail::Matrix t = extreme[i % 6];
    if (i % 2) {  // random matrix with |u| + |v| <= 2^62 and |q| + |r| <= 2^62
      const int64_t u = int64_t(rng.next() % uint64_t(p62 + 1));
      const int64_t q = int64_t(rng.next() % uint64_t(p62 + 1));
      const int64_t v = p62 - u, r = p62 - q;
      t = {rng.next() & 1 ? u : -u, rng.next() & 1 ? v : -v, rng.next() & 1 ? q : -q,
           rng.next() & 1 ? r : -r};
    }
    safegcd_detail::Signed62 d = from_shifted(yd), e = from_shifted(ye);
    safegcd_detail::update_de<F>(d, e, t);
    const U256 yd2 = shifted_by_two_m<F>(d), ye2 = shifted_by_two_m<F>(e);
    ASSERT_FALSE(yd2.is_zero()) << i;
    ASSERT_LT(cmp(yd2, three_m), 0) << i;
    ASSERT_FALSE(ye2.is_zero()) << i;
    ASSERT_LT(cmp(ye2, three_m), 0) << i;
    // x + 2m and x are the same element of F.
    const F fd = F::from_u256_reduce(yd), fe = F::from_u256_reduce(ye);
    const F two62 = F::from_u64(uint64_t(p62));
    EXPECT_EQ(F::from_u256_reduce(yd2) * two62,
              signed_to_field<F>(t.u) * fd + signed_to_field<F>(t.v) * fe)
        << i;
    EXPECT_EQ(F::from_u256_reduce(ye2) * two62,
              signed_to_field<F>(t.q) * fd + signed_to_field<F>(t.r) * fe)
        << i;
  }
}
#endif

}  // namespace
}  // namespace enygma
