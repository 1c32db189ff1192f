// Fp and Fr: parsing, field axioms, inversion, square roots, and agreement of the two limb
// backends with each other and (natively) with GMP.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <utility>
#include <vector>

#include "core/field/batch_inverse.hpp"
#include "core/field/fp.hpp"
#include "core/field/fr.hpp"
#include "core/field/inverse_vartime.hpp"
#include "core/field/kernels.hpp"
#include "core/field/portable32/mont_mul.hpp"
#include "core/field/portable64/add_sub.hpp"
#include "core/field/portable64/mul_small.hpp"
#include "core/field/wasm/fp2.hpp"
#if defined(__SIZEOF_INT128__)
#include "core/field/portable64/mont_mul.hpp"
#endif
#include "support/test_rng.hpp"

#if defined(ENYGMA_HAVE_GMP)
#include <gmp.h>
#endif

namespace enygma {
namespace {

using test::TestRng;

TEST(U256, DecimalRoundTripAndStrictParsing) {
  EXPECT_EQ(to_decimal(U256{}), "0");
  const char* p = "21888242871839275222246405745257275088696311157297823662689037894645226208583";
  auto v = u256_from_decimal(p);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(to_decimal(*v), p);
  EXPECT_EQ(*v, Fp::kModulus);
  // 2^256 - 1 parses, 2^256 does not.
  auto max = u256_from_decimal(
      "115792089237316195423570985008687907853269984665640564039457584007913129639935");
  ASSERT_TRUE(max.has_value());
  EXPECT_EQ(max->w[3], ~uint64_t(0));
  EXPECT_FALSE(u256_from_decimal(
      "115792089237316195423570985008687907853269984665640564039457584007913129639936"));
  for (const char* bad : {"", "+1", "-1", "1a", " 1", "1 ", "0x10", "1.0", "1e3", "-0", "00x1"}) {
    EXPECT_FALSE(u256_from_decimal(bad)) << bad;
  }
  EXPECT_FALSE(u256_from_decimal(std::string(79, '1')));
  // Leading zeros denote the same number, however many there are.
  EXPECT_EQ(u256_from_decimal("0012"), U256::from_u64(12));
  EXPECT_EQ(u256_from_decimal("00"), U256{});
  EXPECT_EQ(u256_from_decimal(std::string(100, '0').append("7")), U256::from_u64(7));
  // (append, not "0" + ...: g++ 12 -Wrestrict false positive, PR 105651)
  EXPECT_EQ(u256_from_decimal(std::string("0").append(to_decimal(*max))), max);
  EXPECT_FALSE(u256_from_decimal(std::string("0").append(79, '1')));
  // Every length (the parse takes nine digits at a time, the first chunk the shortest) against
  // a digit at a time; 78 nines (> 2^256) overflow only in the last chunk.
  TestRng rng(1);
  for (size_t len = 1; len <= 78; ++len) {
    std::string digits;
    for (size_t i = 0; i < len; ++i) digits.push_back(char('0' + rng.next() % 10));
    if (len == 78) digits.replace(0, 2, "10");  // below 2^256 (1.16e77)
    U256 expect;
    for (char c : digits) ASSERT_EQ(mul_small_add(expect, expect, 10, uint32_t(c - '0')), 0u);
    EXPECT_EQ(u256_from_decimal(digits), expect) << digits;
  }
  EXPECT_FALSE(u256_from_decimal(std::string(78, '9')));
  // a bad character in a later chunk than the first, within the length limit
  EXPECT_FALSE(u256_from_decimal("1" + std::string(76, '0') + "x"));
  EXPECT_FALSE(u256_from_decimal("1234567890x"));
  EXPECT_FALSE(u256_from_decimal("12345678901234567/"));
  for (int i = 0; i < 200; ++i) {
    U256 x = rng.u256();
    x.w[3] >>= (i % 64);
    auto y = u256_from_decimal(to_decimal(x));
    ASSERT_TRUE(y.has_value());
    EXPECT_EQ(*y, x);
    uint8_t be[32];
    u256_to_be_bytes(x, be);
    EXPECT_EQ(u256_from_be_bytes(be), x);
  }
}

template <class F>
class PrimeFieldTest : public ::testing::Test {};
using FieldTypes = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(PrimeFieldTest, FieldTypes);

TYPED_TEST(PrimeFieldTest, SmallIntegers) {
  using F = TypeParam;
  EXPECT_EQ(F::from_u64(2) * F::from_u64(3), F::from_u64(6));
  EXPECT_EQ(F::from_u64(10) - F::from_u64(3), F::from_u64(7));
  EXPECT_EQ(F::from_u64(3) - F::from_u64(10), -F::from_u64(7));
  EXPECT_EQ(F::one().to_u256(), U256::from_u64(1));
  EXPECT_EQ(F::from_u64(12345).to_decimal(), "12345");
  EXPECT_TRUE(F::zero().is_zero());
  EXPECT_EQ(-F::zero(), F::zero());
  EXPECT_EQ(F::constant("77"), F::from_u64(77));
}

// floor(w / k) for a 320-bit w (five little-endian words) whose quotient fits in 256 bits.
U256 div_small(const uint64_t w[5], uint64_t k) {
  U256 q{};
  unsigned __int128 rem = w[4] % k;
  for (int i = 3; i >= 0; --i) {
    const unsigned __int128 cur = (rem << 64) | w[i];
    q.w[i] = uint64_t(cur / k);
    rem = cur % k;
  }
  return q;
}

template <class F, unsigned K>
void check_mul_small(TestRng& rng) {
  std::vector<U256> raw;  // Montgomery words: mul_small works on them directly
  for (int i = 0; i < 3000; ++i) raw.push_back(rng.field<F>().montgomery());
  // Around every multiple j m / K and every table boundary idx 2^250 / K: where the quotient
  // estimate changes.
  for (uint64_t j = 0; j <= 16; ++j) {
    uint64_t w[5] = {};
    unsigned __int128 c = 0;
    for (int i = 0; i < 4; ++i) {
      c += (unsigned __int128)F::kModulus.w[i] * j;
      w[i] = uint64_t(c);
      c >>= 64;
    }
    w[4] = uint64_t(c);
    raw.push_back(div_small(w, K));
  }
  for (uint64_t idx = 0; idx < 256; ++idx) {
    const uint64_t w[5] = {0, 0, 0, (idx & 63) << 58, idx >> 6};
    raw.push_back(div_small(w, K));
  }
  const size_t base = raw.size();
  for (size_t i = 0; i < base; ++i) {
    for (uint64_t d = 1; d <= 2; ++d) {
      U256 up, down;
      add_carry(up, raw[i], U256::from_u64(d));
      if (!sub_borrow(down, raw[i], U256::from_u64(d))) raw.push_back(down);
      raw.push_back(up);
    }
  }
  U256 m1;
  sub_borrow(m1, F::kModulus, U256::from_u64(1));
  raw.push_back(m1);
  // b of K a +- b: small, near m, random; with the a above, K a + b and K a + m - b come near
  // the same boundaries.
  std::vector<F> addends = {F::zero(), F::from_montgomery(U256::from_u64(1)),
                            F::from_montgomery(U256::from_u64(2)), F::from_montgomery(m1)};
  for (int i = 0; i < 4; ++i) addends.push_back(rng.field<F>());
  for (const U256& x : raw) {
    if (cmp(x, F::kModulus) >= 0) continue;
    const F a = F::from_montgomery(x);
    F expected = F::zero();
    for (unsigned k = 0; k < K; ++k) expected += a;
    ASSERT_EQ(a.template mul_small<K>(), expected) << "K = " << K << ", " << to_decimal(x);
    if constexpr (K <= 15) {
      for (const F& b : addends) {
        ASSERT_EQ(a.template mul_small_plus<K>(b), expected + b)
            << "K = " << K << ", " << to_decimal(x) << " + " << to_decimal(b.montgomery());
        ASSERT_EQ(a.template mul_small_minus<K>(b), expected - b)
            << "K = " << K << ", " << to_decimal(x) << " - " << to_decimal(b.montgomery());
#if defined(__SIZEOF_INT128__)
        // The 32-bit-halves kernel (WebAssembly's) against the 128-bit one on the same words.
        uint64_t halves[4], wide[4];
        portable64::small_combination<F, K, -1>(halves, x.w, b.montgomery().w);
        portable64::small_combination<F, K, -1, true>(wide, x.w, b.montgomery().w);
        ASSERT_EQ(0, std::memcmp(halves, wide, sizeof halves)) << "K = " << K;
        portable64::small_combination<F, K, 1>(halves, x.w, b.montgomery().w);
        portable64::small_combination<F, K, 1, true>(wide, x.w, b.montgomery().w);
        ASSERT_EQ(0, std::memcmp(halves, wide, sizeof halves)) << "K = " << K;
#endif
      }
    }
  }
}

template <class F, unsigned... K>
void check_mul_small_all(std::integer_sequence<unsigned, K...>) {
  TestRng rng(31);
  (check_mul_small<F, K + 1>(rng), ...);
}

// Against K repeated additions (plus or minus b for K <= 15), for K = 1..16, random elements
// and the values where the quotient table's estimate changes (and m - 1).
TYPED_TEST(PrimeFieldTest, MulSmallMatchesRepeatedAddition) {
  check_mul_small_all<TypeParam>(std::make_integer_sequence<unsigned, 16>{});
}

TYPED_TEST(PrimeFieldTest, CanonicalInputOnly) {
  using F = TypeParam;
  U256 m = F::kModulus;
  EXPECT_FALSE(F::from_canonical(m).has_value());
  U256 m1;
  sub_borrow(m1, m, U256::from_u64(1));
  auto top = F::from_canonical(m1);
  ASSERT_TRUE(top.has_value());
  EXPECT_EQ(*top + F::one(), F::zero());
  EXPECT_FALSE(F::from_decimal(to_decimal(m)).has_value());
  EXPECT_TRUE(F::from_decimal(to_decimal(m1)).has_value());
  uint8_t be[32];
  u256_to_be_bytes(m, be);
  EXPECT_FALSE(F::from_be_bytes(be).has_value());
  be[31] -= 1;
  ASSERT_TRUE(F::from_be_bytes(be).has_value());
  uint8_t out[32];
  F::from_be_bytes(be)->to_be_bytes(out);
  EXPECT_EQ(0, memcmp(be, out, 32));
}

TYPED_TEST(PrimeFieldTest, FieldAxiomsOnRandomElements) {
  using F = TypeParam;
  TestRng rng(42);
  for (int i = 0; i < 2000; ++i) {
    F a = rng.field<F>(), b = rng.field<F>(), c = rng.field<F>();
    EXPECT_EQ(a + b, b + a);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a + b) + c, a + (b + c));
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a - a, F::zero());
    EXPECT_EQ(a + (-a), F::zero());
    EXPECT_EQ(a * F::one(), a);
    EXPECT_EQ(a.square(), a * a);
    EXPECT_EQ(a.dbl(), a + a);
    EXPECT_EQ(a - b, -(b - a));
    auto back = F::from_canonical(a.to_u256());
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, a);
    EXPECT_EQ(*F::from_decimal(a.to_decimal()), a);
  }
}

TYPED_TEST(PrimeFieldTest, InverseAndBatchInverse) {
  using F = TypeParam;
  TestRng rng(7);
  EXPECT_EQ(F::zero().inverse(), F::zero());
  std::vector<F> xs(300), scratch(300);
  for (size_t i = 0; i < xs.size(); ++i) {
    xs[i] = (i % 17 == 3) ? F::zero() : rng.field<F>();
  }
  std::vector<F> orig = xs;
  batch_inverse(xs.data(), xs.size(), scratch.data());
  for (size_t i = 0; i < xs.size(); ++i) {
    if (orig[i].is_zero()) {
      EXPECT_TRUE(xs[i].is_zero());
    } else {
      EXPECT_EQ(xs[i] * orig[i], F::one());
      EXPECT_EQ(xs[i], orig[i].inverse());
    }
  }
}

TYPED_TEST(PrimeFieldTest, PowAndSqrt) {
  using F = TypeParam;
  TestRng rng(9);
  int non_squares = 0;
  for (int i = 0; i < 300; ++i) {
    F a = rng.field<F>();
    auto r = a.square().sqrt();
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(*r == a || *r == -a);
    auto s = a.sqrt();
    if (a.legendre() == 1) {
      ASSERT_TRUE(s.has_value());
      EXPECT_EQ(s->square(), a);
    } else {
      EXPECT_FALSE(s.has_value());
      ++non_squares;
    }
    EXPECT_EQ(a.pow(U256::from_u64(5)), a * a * a * a * a);
  }
  EXPECT_GT(non_squares, 100);  // about half the elements are non-squares
  // Fermat: a^(m-1) = 1
  U256 e;
  sub_borrow(e, F::kModulus, U256::from_u64(1));
  EXPECT_EQ(F::from_u64(123456789).pow(e), F::one());
}

// A long chain of dependent operations whose result is pinned: the native (64-bit limb) and
// the WebAssembly (32-bit limb) builds both run this test and must print the same numbers.
// Expected values computed independently with Python's integers.
template <class F>
std::string chain_result() {
  F x = F::from_u64(7);
  for (uint64_t i = 0; i < 10000; ++i) {
    x = x * x * x + F::from_u64(i) * x + F::from_u64(5);
    if (i % 100 == 0) x = x.inverse();
  }
  return x.to_decimal();
}

TEST(PrimeField, ChainKnownAnswerSameOnEveryTarget) {
  EXPECT_EQ(chain_result<Fp>(),
            "17560214566304942236091523026844314083611075397682845095296016485470502317462");
  EXPECT_EQ(chain_result<Fr>(),
            "19205114376257703298784307886249093110298577532235272719188426516779085046483");
}

// Every backend on the same inputs, compared byte for byte with the 64-bit one: the 32-bit and
// WebAssembly kernels are what the browser module runs, and run here beside it (natively, and
// in the WebAssembly build too, where 128-bit products exist as slow library calls).
// Random values and the edges: 0, 1, 2, m - 1, (m - 1) / 2 and its neighbours, values near
// 2^253, and the largest and smallest words below m taken as Montgomery forms as they are.
template <class F>
std::vector<F> backend_inputs(uint64_t seed, int random_count) {
  TestRng rng(seed);
  std::vector<F> inputs = {F::zero(), F::one(), -F::one(), F::from_u64(2)};
  U256 half = shr1(F::kModulus), top{}, m1;
  top.w[3] = uint64_t(1) << 61;  // 2^253 < m
  sub_borrow(m1, F::kModulus, U256::from_u64(1));
  for (const U256& v : {half, top}) {
    for (uint64_t d = 0; d < 3; ++d) {
      U256 x, y;
      add_carry(x, v, U256::from_u64(d));
      sub_borrow(y, v, U256::from_u64(d + 1));
      inputs.push_back(F::from_montgomery(x));
      inputs.push_back(F::from_montgomery(y));
      inputs.push_back(*F::from_canonical(x));
    }
  }
  inputs.push_back(F::from_montgomery(m1));
  inputs.push_back(F::from_montgomery(U256::from_u64(1)));
  for (int i = 0; i < random_count; ++i) inputs.push_back(rng.field<F>());
  return inputs;
}

#if defined(__SIZEOF_INT128__)
template <class F>
void compare_backends(uint64_t seed) {
  const std::vector<F> inputs = backend_inputs<F>(seed, 5000);
  const size_t n = inputs.size();
  for (size_t i = 0; i < n; ++i) {
    for (size_t j : {n - 1 - i, (i * 7 + 3) % n, i}) {
      const F& a = inputs[i];
      const F& b = inputs[j];
      uint64_t r64[4], r32[4];
      portable64::mont_mul(r64, a.limbs, b.limbs, F::kModulus.w, F::kInv64);
      portable32::mont_mul(r32, a.limbs, b.limbs, F::kModulus.w, F::kInv32);
      ASSERT_EQ(0, memcmp(r64, r32, sizeof r64))
          << "inputs " << a.to_decimal() << " " << b.to_decimal();
#if defined(ENYGMA_HAVE_ADX_KERNEL)
      // The MULX/ADCX/ADOX kernel (with its final subtraction in assembly) where the CPU has it.
      if (cpu_supports_adx()) {
        uint64_t radx[4];
        adx::mont_mul(radx, a.limbs, b.limbs, F::kModulus.w, F::kInv64);
        ASSERT_EQ(0, memcmp(r64, radx, sizeof r64))
            << "inputs " << a.to_decimal() << " " << b.to_decimal();
      }
#endif
    }
  }
}

// The WebAssembly Fp2 kernels (lazy reduction) against Karatsuba and the square formula on the
// 64-bit backend's words, every pair of edge values and random ones.
void compare_fp2_backends(uint64_t seed) {
  using F = Fp;
  const std::vector<F> values = backend_inputs<F>(seed, 0);
  TestRng rng(seed + 1);
  std::vector<std::array<F, 2>> elements;
  for (const F& x : values) {
    for (const F& y : values) elements.push_back({x, y});
  }
  for (int i = 0; i < 3000; ++i) elements.push_back({rng.field<F>(), rng.field<F>()});
  const auto mul64 = [](uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    portable64::mont_mul(r, a, b, F::kModulus.w, F::kInv64);
  };
  const auto add = [](uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    portable64::add(r, a, b, F::kModulus.w);
  };
  const auto sub = [](uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    portable64::sub(r, a, b, F::kModulus.w);
  };
  const size_t n = elements.size();
  for (size_t i = 0; i < n; ++i) {
    for (size_t j : {i, n - 1 - i, (i * 7919 + 13) % n}) {
      const uint64_t* a0 = elements[i][0].limbs;
      const uint64_t* a1 = elements[i][1].limbs;
      const uint64_t* b0 = elements[j][0].limbs;
      const uint64_t* b1 = elements[j][1].limbs;
      uint64_t t0[4], t1[4], t2[4], sa[4], sb[4], e0[4], e1[4];
      mul64(t0, a0, b0);
      mul64(t1, a1, b1);
      add(sa, a0, a1);
      add(sb, b0, b1);
      mul64(t2, sa, sb);
      sub(e0, t0, t1);
      sub(t2, t2, t0);
      sub(e1, t2, t1);
      uint64_t r0[4], r1[4];
      wasm::fp2_mul<F>(r0, r1, a0, a1, b0, b1);
      ASSERT_EQ(0, memcmp(e0, r0, sizeof r0)) << "fp2_mul c0, case " << i << " " << j;
      ASSERT_EQ(0, memcmp(e1, r1, sizeof r1)) << "fp2_mul c1, case " << i << " " << j;
    }
    const uint64_t* a0 = elements[i][0].limbs;
    const uint64_t* a1 = elements[i][1].limbs;
    uint64_t p[4], s[4], d[4], e0[4], e1[4], r0[4], r1[4];
    mul64(p, a0, a1);
    add(s, a0, a1);
    sub(d, a0, a1);
    mul64(e0, s, d);
    add(e1, p, p);
    wasm::fp2_square<F>(r0, r1, a0, a1);
    ASSERT_EQ(0, memcmp(e0, r0, sizeof r0)) << "fp2_square c0, case " << i;
    ASSERT_EQ(0, memcmp(e1, r1, sizeof r1)) << "fp2_square c1, case " << i;
  }
}
TEST(LimbBackends, WebAssemblyFp2KernelsAgreeWithSixtyFourBit) {
  compare_fp2_backends(13);
}
#endif

// The variable-time inversion in both limb configurations (30-bit limbs: WebAssembly) against
// Fermat, on the edge values, powers of two and m minus them (long runs of equal bits), each as
// a canonical value and as a Montgomery word, and on random elements.
template <class F>
void compare_inversions(uint64_t seed) {
  std::vector<F> inputs = backend_inputs<F>(seed, 3000);
  for (unsigned k = 0; k < F::kBits - 1; k += 3) {
    U256 x{}, y;
    x.w[k / 64] = uint64_t(1) << (k % 64);
    sub_borrow(y, F::kModulus, x);
    for (const U256& v : {x, y}) {
      inputs.push_back(F::from_montgomery(v));
      inputs.push_back(*F::from_canonical(v));
    }
  }
  for (const F& a : inputs) {
    const F fermat = a.inverse();
    ASSERT_EQ((safegcd_detail::inverse<F, safegcd_detail::Limbs30>(a)), fermat) << a.to_decimal();
#if defined(__SIZEOF_INT128__)
    ASSERT_EQ((safegcd_detail::inverse<F, safegcd_detail::Limbs62>(a)), fermat) << a.to_decimal();
#endif
    ASSERT_EQ(inverse_vartime(a), fermat) << a.to_decimal();
  }
}
TEST(InverseBackends, SafegcdLimbConfigurationsAgreeWithFermat) {
  compare_inversions<Fp>(31);
  compare_inversions<Fr>(32);
}

// One batch of 30 divsteps: u f + v g and q f + r g divisible by 2^30 (the exact division of
// update_fg), |u| + |v| and |q| + |r| at most 2^30 (the bound update_de relies on).
TEST(InverseBackends, ThirtyBitDivstepBatchIsExactAndBounded) {
  TestRng rng(30);
  const uint64_t mask30 = (uint64_t(1) << 30) - 1;
  const auto abs64 = [](int64_t x) { return x < 0 ? 0 - uint64_t(x) : uint64_t(x); };
  for (int i = 0; i < 100000; ++i) {
    const uint32_t f = uint32_t(rng.next() & mask30) | 1;
    uint32_t g = uint32_t(rng.next() & mask30);
    if (i % 4 == 1) g &= ~(~uint32_t(0) << (rng.next() % 30));  // few low bits, zero runs
    if (i % 4 == 2) g = 0;
    const int64_t eta = i % 3 == 0 ? -1 : int64_t(rng.next() % 41) - 20;
    safegcd_detail::Matrix t;
    safegcd_detail::divsteps_var<safegcd_detail::Limbs30>(eta, f, g, t);
    ASSERT_EQ((uint64_t(t.u) * f + uint64_t(t.v) * g) & mask30, 0u) << i;
    ASSERT_EQ((uint64_t(t.q) * f + uint64_t(t.r) * g) & mask30, 0u) << i;
    ASSERT_LE(abs64(t.u) + abs64(t.v), uint64_t(1) << 30) << i;
    ASSERT_LE(abs64(t.q) + abs64(t.r), uint64_t(1) << 30) << i;
  }
}
#if defined(__x86_64__)
// The x86-64 modular addition and subtraction (ADC/SBB intrinsics, the final subtraction in
// assembly with CMOVs) against the plain C++ ones, on every pair of edge values (sums at m - 1,
// m, m + 1 and 2m - 2) and random pairs.
template <class F>
void compare_add_sub(uint64_t seed) {
  const std::vector<F> inputs = backend_inputs<F>(seed, 3000);
  const size_t n = inputs.size();
  const uint64_t* m = F::kModulus.w;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; j += (i < 32 && j < 32) ? 1 : 97) {
      const uint64_t* a = inputs[i].limbs;
      const uint64_t* b = inputs[j].limbs;
      uint64_t e[4], r[4];
      portable64::add(e, a, b, m);
      portable64::add_x86(r, a, b, m);
      ASSERT_EQ(0, memcmp(e, r, sizeof r)) << "add, case " << i << " " << j;
      portable64::sub(e, a, b, m);
      portable64::sub_x86(r, a, b, m);
      ASSERT_EQ(0, memcmp(e, r, sizeof r)) << "sub, case " << i << " " << j;
    }
  }
}
TEST(LimbBackends, X86AdditionAgreesWithPortable) {
  compare_add_sub<Fp>(41);
  compare_add_sub<Fr>(42);
}
#endif

#if defined(__SIZEOF_INT128__)
TEST(LimbBackends, ThirtyTwoBitAgreesWithSixtyFourBit) {
  compare_backends<Fp>(11);
  compare_backends<Fr>(12);
}
#endif

#if defined(ENYGMA_HAVE_GMP)
template <class F>
void compare_with_gmp(uint64_t seed) {
  mpz_t m, a, b, r;
  mpz_inits(m, a, b, r, nullptr);
  mpz_set_str(m, to_decimal(F::kModulus).c_str(), 10);
  TestRng rng(seed);
  for (int i = 0; i < 2000; ++i) {
    F x = rng.field<F>(), y = rng.field<F>();
    mpz_set_str(a, x.to_decimal().c_str(), 10);
    mpz_set_str(b, y.to_decimal().c_str(), 10);
    mpz_mul(r, a, b);
    mpz_mod(r, r, m);
    char buf[100];
    EXPECT_EQ((x * y).to_decimal(), mpz_get_str(buf, 10, r));
    mpz_add(r, a, b);
    mpz_mod(r, r, m);
    EXPECT_EQ((x + y).to_decimal(), mpz_get_str(buf, 10, r));
    mpz_sub(r, a, b);
    mpz_mod(r, r, m);
    EXPECT_EQ((x - y).to_decimal(), mpz_get_str(buf, 10, r));
    if (!x.is_zero()) {
      mpz_invert(r, a, m);
      EXPECT_EQ(x.inverse().to_decimal(), mpz_get_str(buf, 10, r));
    }
  }
  mpz_clears(m, a, b, r, nullptr);
}
TEST(PrimeField, AgreesWithGmp) {
  compare_with_gmp<Fp>(21);
  compare_with_gmp<Fr>(22);
}

#if defined(ENYGMA_HAVE_ADX_KERNEL)
void mpz_from_words(mpz_t out, const uint64_t* w, size_t n) {
  mpz_import(out, n, -1, sizeof(uint64_t), 0, 0, w);
}

// The halves of the ADX kernel used for lazy reduction: mul_wide (the 512-bit product of any
// 256-bit numbers) and redc (t 2^-256 mod m for any t below m 2^256), against GMP, on random
// inputs and at the edges (all ones, t just below m 2^256, zero).
template <class F>
void check_wide_and_redc(uint64_t seed) {
  mpz_t m, a, b, t, r, rinv, expect;
  mpz_inits(m, a, b, t, r, rinv, expect, nullptr);
  mpz_from_words(m, F::kModulus.w, 4);
  mpz_set_ui(r, 1);
  mpz_mul_2exp(r, r, 256);
  ASSERT_NE(mpz_invert(rinv, r, m), 0);
  TestRng rng(seed);
  const uint64_t ones = ~uint64_t(0);
  std::vector<std::array<uint64_t, 4>> words = {
      {0, 0, 0, 0}, {ones, ones, ones, ones}, {1, 0, 0, 0}, {ones, 0, 0, uint64_t(1) << 63}};
  for (int i = 0; i < 3000; ++i) {
    const U256 x = rng.u256();
    words.push_back({x.w[0], x.w[1], x.w[2], x.w[3]});
  }
  U256 m1;
  sub_borrow(m1, F::kModulus, U256::from_u64(1));
  for (size_t i = 0; i < words.size(); ++i) {
    const auto& x = words[i];
    const auto& y = words[(i * 31 + 7) % words.size()];
    uint64_t wide[8];
    adx::mul_wide(wide, x.data(), y.data());
    mpz_from_words(a, x.data(), 4);
    mpz_from_words(b, y.data(), 4);
    mpz_mul(expect, a, b);
    mpz_from_words(t, wide, 8);
    ASSERT_EQ(mpz_cmp(t, expect), 0) << "mul_wide, case " << i;

    // t = high 2^256 + low with high < m: random high, then m - 1 with the same low.
    for (int edge = 0; edge < 2; ++edge) {
      uint64_t in[8];
      U256 high = edge ? m1 : F::from_u256_reduce(rng.u256()).montgomery();
      for (int j = 0; j < 4; ++j) {
        in[j] = x[j];
        in[4 + j] = high.w[j];
      }
      uint64_t out[4];
      adx::redc(out, in, F::kModulus.w, F::kInv64);
      mpz_from_words(t, in, 8);
      mpz_mul(expect, t, rinv);
      mpz_mod(expect, expect, m);
      mpz_from_words(t, out, 4);
      ASSERT_EQ(mpz_cmp(t, expect), 0) << "redc, case " << i << " edge " << edge;
    }
  }
  mpz_clears(m, a, b, t, r, rinv, expect, nullptr);
}
TEST(LimbBackends, AdxWideProductAndReductionAgreeWithGmp) {
  check_wide_and_redc<Fp>(23);
  check_wide_and_redc<Fr>(24);
}
#endif
#endif

}  // namespace
}  // namespace enygma
