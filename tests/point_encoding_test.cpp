// Point encodings: uncompressed (EIP-196/197) and compressed (gnark-crypto flags) round trips,
// the flag convention, rejection of every malformed input, the square roots used by
// decompression, and batch decoding with and without a thread pool.
#include "core/curve/point_encoding.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/parallel/thread_pool.hpp"
#include "support/curve_points.hpp"
#include "support/test_rng.hpp"

namespace enygma {
namespace {

using test::TestRng;
using Bytes = std::vector<uint8_t>;

G1Affine random_g1(TestRng& rng) {
  return G1::generator().mul_vartime(rng.field<Fr>().to_u256()).to_affine();
}
G2Affine random_g2(TestRng& rng) {
  return G2::generator().mul_vartime(rng.field<Fr>().to_u256()).to_affine();
}
TEST(PointEncoding, UncompressedRoundTripAndLayout) {
  TestRng rng(61);
  for (int i = 0; i < 8; ++i) {
    const G1Affine p = random_g1(rng);
    uint8_t b1[kG1UncompressedBytes];
    g1_to_uncompressed(p, b1);
    auto d1 = g1_from_uncompressed(b1);
    ASSERT_TRUE(d1.ok()) << d1.error;
    EXPECT_EQ(*d1.point, p);
    EXPECT_TRUE(d1.error.empty());

    const G2Affine q = random_g2(rng);
    uint8_t b2[kG2UncompressedBytes];
    g2_to_uncompressed(q, b2);
    auto d2 = g2_from_uncompressed(b2);
    ASSERT_TRUE(d2.ok()) << d2.error;
    EXPECT_EQ(*d2.point, q);
    // imaginary part first
    uint8_t c1[32];
    q.x.c1.to_be_bytes(c1);
    EXPECT_EQ(std::memcmp(b2, c1, 32), 0);
    q.y.c0.to_be_bytes(c1);
    EXPECT_EQ(std::memcmp(b2 + 96, c1, 32), 0);
  }
  uint8_t z1[kG1UncompressedBytes], z2[kG2UncompressedBytes];
  g1_to_uncompressed(G1Affine::infinity(), z1);
  g2_to_uncompressed(G2Affine::infinity(), z2);
  EXPECT_EQ(Bytes(z1, z1 + 64), Bytes(64, 0));
  EXPECT_EQ(Bytes(z2, z2 + 128), Bytes(128, 0));
  EXPECT_TRUE(g1_from_uncompressed(z1).point->is_infinity());
  EXPECT_TRUE(g2_from_uncompressed(z2).point->is_infinity());
}

TEST(PointEncoding, UncompressedRejects) {
  TestRng rng(62);
  uint8_t b[kG2UncompressedBytes];
  // G1: each coordinate >= p, off the curve.
  for (int k = 0; k < 2; ++k) {
    g1_to_uncompressed(G1Affine::generator(), b);
    u256_to_be_bytes(Fp::kModulus, b + 32 * k);
    auto d = g1_from_uncompressed(b);
    EXPECT_FALSE(d.ok());
    EXPECT_NE(d.error.find(k == 0 ? "G1 x coordinate" : "G1 y coordinate"), std::string::npos)
        << d.error;
  }
  g1_to_uncompressed(G1Affine::generator(), b);
  b[63] ^= 1;  // y = 3
  EXPECT_NE(g1_from_uncompressed(b).error.find("not on the curve"), std::string::npos);
  // G2: each coordinate >= p, off the twist, outside the subgroup.
  const char* names[4] = {"x.c1", "x.c0", "y.c1", "y.c0"};
  for (int k = 0; k < 4; ++k) {
    g2_to_uncompressed(G2Affine::generator(), b);
    u256_to_be_bytes(Fp::kModulus, b + 32 * k);
    auto d = g2_from_uncompressed(b);
    EXPECT_FALSE(d.ok());
    EXPECT_NE(d.error.find(names[k]), std::string::npos) << d.error;
  }
  g2_to_uncompressed(G2Affine::generator(), b);
  b[127] ^= 1;
  EXPECT_NE(g2_from_uncompressed(b).error.find("not on the twist"), std::string::npos);
  const G2Affine t = test::random_twist_point(rng);
  g2_to_uncompressed(t, b);
  auto d = g2_from_uncompressed(b);
  EXPECT_FALSE(d.ok());
  EXPECT_NE(d.error.find("not in the subgroup"), std::string::npos) << d.error;
  auto trusted = g2_from_uncompressed(b, G2Check::kSkipSubgroupTrustedSource);
  ASSERT_TRUE(trusted.ok());
  EXPECT_EQ(*trusted.point, t);
}

TEST(PointEncoding, CompressedFlagConvention) {
  // G1 generator (1, 2): 2 <= (p-1)/2 is the smallest root -> 0b10; -G has the largest -> 0b11.
  uint8_t b[kG1CompressedBytes];
  g1_to_compressed(G1Affine::generator(), b);
  Bytes expect(32, 0);
  expect[0] = 0x80;
  expect[31] = 1;
  EXPECT_EQ(Bytes(b, b + 32), expect);
  g1_to_compressed(-G1Affine::generator(), b);
  expect[0] = 0xc0;
  EXPECT_EQ(Bytes(b, b + 32), expect);
  g1_to_compressed(G1Affine::infinity(), b);
  expect.assign(32, 0);
  expect[0] = 0x40;
  EXPECT_EQ(Bytes(b, b + 32), expect);

  // Fp2 order: the imaginary part decides, the real part breaks a tie.
  const Fp big = -Fp::one(), small = Fp::one();
  EXPECT_TRUE((Fp2{small, big}).is_lexicographically_largest());
  EXPECT_FALSE((Fp2{big, small}).is_lexicographically_largest());
  EXPECT_TRUE((Fp2{big, Fp::zero()}).is_lexicographically_largest());
  EXPECT_FALSE((Fp2{small, Fp::zero()}).is_lexicographically_largest());

  // G2: flag from y, x.c1 then x.c0.
  TestRng rng(63);
  int largest = 0;
  for (int i = 0; i < 8; ++i) {
    const G2Affine q = random_g2(rng);
    uint8_t c[kG2CompressedBytes];
    g2_to_compressed(q, c);
    const bool is_largest = q.y.is_lexicographically_largest();
    largest += is_largest;
    EXPECT_EQ(c[0] & 0xc0, is_largest ? 0xc0 : 0x80);
    uint8_t x1[32], x0[32];
    q.x.c1.to_be_bytes(x1);
    q.x.c0.to_be_bytes(x0);
    x1[0] |= uint8_t(c[0] & 0xc0);
    EXPECT_EQ(std::memcmp(c, x1, 32), 0);
    EXPECT_EQ(std::memcmp(c + 32, x0, 32), 0);
  }
  EXPECT_GT(largest, 0);
  EXPECT_LT(largest, 8);
}

TEST(PointEncoding, CompressedRoundTrip) {
  TestRng rng(64);
  for (int i = 0; i < 16; ++i) {
    for (const G1Affine& p : {random_g1(rng), G1Affine::infinity()}) {
      for (const G1Affine& s : {p, -p}) {
        uint8_t b[kG1CompressedBytes];
        g1_to_compressed(s, b);
        auto d = g1_from_compressed(b);
        ASSERT_TRUE(d.ok()) << d.error;
        EXPECT_EQ(*d.point, s);
      }
    }
  }
  for (int i = 0; i < 8; ++i) {
    for (const G2Affine& q : {random_g2(rng), G2Affine::infinity()}) {
      for (const G2Affine& s : {q, -q}) {
        uint8_t b[kG2CompressedBytes];
        g2_to_compressed(s, b);
        auto d = g2_from_compressed(b);
        ASSERT_TRUE(d.ok()) << d.error;
        EXPECT_EQ(*d.point, s);
      }
    }
  }
}

// An x in Fp with x^3 + 3 not a square, and one in Fp2 with x^3 + b' not a square.
Fp g1_x_without_point(TestRng& rng) {
  for (;;) {
    const Fp x = rng.field<Fp>();
    if ((x.square() * x + G1Params::b()).legendre() == -1) return x;
  }
}
Fp2 g2_x_without_point(TestRng& rng) {
  for (;;) {
    const Fp2 x = {rng.field<Fp>(), rng.field<Fp>()};
    if (!(x.square() * x + G2Params::b()).sqrt()) return x;
  }
}

TEST(PointEncoding, CompressedRejects) {
  TestRng rng(65);
  uint8_t b[kG2CompressedBytes];
  // Flag 0b00 (the uncompressed form) in a compressed slot.
  g1_to_compressed(G1Affine::generator(), b);
  b[0] &= 0x3f;
  auto d1 = g1_from_compressed(b);
  EXPECT_FALSE(d1.ok());
  EXPECT_NE(d1.error.find("0b00"), std::string::npos) << d1.error;
  g2_to_compressed(G2Affine::generator(), b);
  b[0] &= 0x3f;
  EXPECT_NE(g2_from_compressed(b).error.find("0b00"), std::string::npos);
  // Infinity flag with any other bit set.
  for (size_t pos : {size_t(0), size_t(1), size_t(31)}) {
    uint8_t inf[kG2CompressedBytes] = {};
    inf[0] = 0x40;
    inf[pos] |= pos == 0 ? 0x01 : 0x80;
    EXPECT_NE(g1_from_compressed(inf).error.find("infinity flag"), std::string::npos) << pos;
    EXPECT_NE(g2_from_compressed(inf).error.find("infinity flag"), std::string::npos) << pos;
  }
  {
    uint8_t inf[kG2CompressedBytes] = {};
    inf[0] = 0x40;
    inf[63] = 1;  // only G2 reads byte 63
    EXPECT_NE(g2_from_compressed(inf).error.find("infinity flag"), std::string::npos);
  }
  // x >= p under either sign flag.
  for (uint8_t flag : {uint8_t(0x80), uint8_t(0xc0)}) {
    u256_to_be_bytes(Fp::kModulus, b);
    b[0] |= flag;
    EXPECT_NE(g1_from_compressed(b).error.find("not canonical"), std::string::npos);
    // G2: x.c1 = p, then x.c0 = p
    g2_to_compressed(G2Affine::generator(), b);
    uint8_t keep = b[0] & 0xc0;
    u256_to_be_bytes(Fp::kModulus, b);
    b[0] |= keep;
    EXPECT_NE(g2_from_compressed(b).error.find("x.c1"), std::string::npos);
    g2_to_compressed(G2Affine::generator(), b);
    u256_to_be_bytes(Fp::kModulus, b + 32);
    EXPECT_NE(g2_from_compressed(b).error.find("x.c0"), std::string::npos);
  }
  // x with no curve point.
  for (int i = 0; i < 3; ++i) {
    g1_x_without_point(rng).to_be_bytes(b);
    b[0] |= 0x80;
    EXPECT_NE(g1_from_compressed(b).error.find("not a square"), std::string::npos);
    const Fp2 x = g2_x_without_point(rng);
    x.c1.to_be_bytes(b);
    x.c0.to_be_bytes(b + 32);
    b[0] |= 0xc0;
    EXPECT_NE(g2_from_compressed(b).error.find("not a square"), std::string::npos);
  }
  // G2 on the twist but outside the subgroup; accepted only when the caller opts out.
  for (int i = 0; i < 3; ++i) {
    const G2Affine t = test::random_twist_point(rng);
    g2_to_compressed(t, b);
    auto d = g2_from_compressed(b);
    EXPECT_FALSE(d.ok());
    EXPECT_NE(d.error.find("not in the subgroup"), std::string::npos) << d.error;
    auto trusted = g2_from_compressed(b, G2Check::kSkipSubgroupTrustedSource);
    ASSERT_TRUE(trusted.ok()) << trusted.error;
    EXPECT_EQ(*trusted.point, t);
  }
}

TEST(PointEncoding, SquareRoots) {
  TestRng rng(66);
  using encoding_detail::sqrt_fp;
  using encoding_detail::sqrt_fp2;
  for (int i = 0; i < 50; ++i) {
    const Fp a = rng.field<Fp>();
    auto r = sqrt_fp(a.square());
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(*r == a || *r == -a);
    EXPECT_EQ(sqrt_fp(a).has_value(), a.legendre() >= 0);

    const Fp2 b = {rng.field<Fp>(), rng.field<Fp>()};
    auto s = sqrt_fp2(b.square());
    ASSERT_TRUE(s.has_value());
    EXPECT_TRUE(*s == b || *s == -b);
    EXPECT_EQ(sqrt_fp2(b).has_value(), b.sqrt().has_value());
  }
  // Edge cases: zero, elements of Fp (square or not there), purely imaginary elements.
  EXPECT_EQ(*sqrt_fp2(Fp2::zero()), Fp2::zero());
  EXPECT_EQ(*sqrt_fp(Fp::zero()), Fp::zero());
  for (int i = 0; i < 10; ++i) {
    const Fp a = rng.field<Fp>();
    for (const Fp2& x : {Fp2{a, Fp::zero()}, Fp2{Fp::zero(), a}, Fp2{a.square(), Fp::zero()},
                         Fp2{-a.square(), Fp::zero()}, Fp2{Fp::zero(), a.square()}}) {
      auto s = sqrt_fp2(x);
      // every element of Fp is a square in Fp2
      if (x.c1.is_zero()) {
        EXPECT_TRUE(s.has_value());
      }
      EXPECT_EQ(s.has_value(), x.sqrt().has_value());
      if (s) {
        EXPECT_EQ(s->square(), x);
      }
    }
  }
}

// The exponentiations of a batch (fp_pow_many: natively one by one; the f64 lanes' C++ model,
// four at a time) against Fp::pow, for every count up to past two groups of four, edge values
// and exponents with zero, short and full-length windows.
TEST(PointEncoding, PowManyMatchesPow) {
  TestRng rng(68);
  U256 sqrt_exponent;  // (p - 3) / 4
  sub_borrow(sqrt_exponent, Fp::kModulus, U256::from_u64(3));
  sqrt_exponent = shr1(shr1(sqrt_exponent));
  const Fp r = rng.field<Fp>();
  const U256 exponents[] = {sqrt_exponent,      U256::from_u64(0),     U256::from_u64(1),
                            U256::from_u64(16), U256::from_u64(0x10f), r.to_u256()};
  for (const U256& e : exponents) {
    for (size_t n = 0; n <= 9; ++n) {
      std::vector<Fp> x(n);
      for (size_t i = 0; i < n; ++i) {
        x[i] = i == 0 ? Fp::zero() : i == 1 ? Fp::one() : i == 2 ? -Fp::one() : rng.field<Fp>();
      }
      std::vector<Fp> want(n);
      for (size_t i = 0; i < n; ++i) want[i] = x[i].pow(e);
      std::vector<Fp> many = x, lanes = x;
      encoding_detail::fp_pow_many(many.data(), n, e);
      encoding_detail::fp_pow_many_f64(lanes.data(), n, e);
      EXPECT_EQ(many, want) << "n=" << n;
      EXPECT_EQ(lanes, want) << "f64 lanes, n=" << n;
    }
  }
}

TEST(PointEncoding, BatchDecompression) {
  TestRng rng(67);
  const size_t n1 = 40, n2 = 12;
  std::vector<G1Affine> g1s;
  std::vector<G2Affine> g2s;
  Bytes b1(n1 * kG1CompressedBytes), b2(n2 * kG2CompressedBytes);
  for (size_t i = 0; i < n1; ++i) {
    g1s.push_back(i == 3 ? G1Affine::infinity() : random_g1(rng));
    g1_to_compressed(g1s[i], b1.data() + i * kG1CompressedBytes);
  }
  for (size_t i = 0; i < n2; ++i) {
    g2s.push_back(i == 5 ? G2Affine::infinity() : random_g2(rng));
    g2_to_compressed(g2s[i], b2.data() + i * kG2CompressedBytes);
  }
  ThreadPool pool(2);
  for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
    std::vector<G1Affine> out1(n1);
    auto s1 = g1_from_compressed_batch(b1, out1, p);
    ASSERT_TRUE(s1.ok) << s1.error;
    EXPECT_EQ(out1, g1s);
    std::vector<G2Affine> out2(n2);
    auto s2 = g2_from_compressed_batch(b2, out2, G2Check::kSubgroup, p);
    ASSERT_TRUE(s2.ok) << s2.error;
    EXPECT_EQ(out2, g2s);

    // Two bad points: the first one is reported.
    Bytes bad1 = b1;
    bad1[7 * kG1CompressedBytes] &= 0x3f;
    bad1[30 * kG1CompressedBytes] &= 0x3f;
    auto f1 = g1_from_compressed_batch(bad1, out1, p);
    EXPECT_FALSE(f1.ok);
    EXPECT_EQ(f1.index, 7u);
    EXPECT_NE(f1.error.find("point 7"), std::string::npos) << f1.error;
    // A G2 point outside the subgroup fails the checked batch, not the trusted one.
    Bytes bad2 = b2;
    g2_to_compressed(test::random_twist_point(rng), bad2.data() + 9 * kG2CompressedBytes);
    auto f2 = g2_from_compressed_batch(bad2, out2, G2Check::kSubgroup, p);
    EXPECT_FALSE(f2.ok);
    EXPECT_EQ(f2.index, 9u);
    EXPECT_NE(f2.error.find("subgroup"), std::string::npos) << f2.error;
    auto t2 = g2_from_compressed_batch(bad2, out2, G2Check::kSkipSubgroupTrustedSource, p);
    EXPECT_TRUE(t2.ok) << t2.error;
    // Wrong input length.
    auto l1 = g1_from_compressed_batch(std::span<const uint8_t>(b1.data(), b1.size() - 1), out1, p);
    EXPECT_FALSE(l1.ok);
    EXPECT_NE(l1.error.find("expected"), std::string::npos);
  }
}

// Batches are decoded in groups whose square roots are taken together: every size across the
// groups' boundaries decodes as the points one by one, and the first bad point is reported
// whether its square root fails before a later malformed encoding in the same group or after an
// earlier one.
TEST(PointEncoding, BatchDecompressionAcrossGroups) {
  TestRng rng(69);
  const size_t n = 70;
  Bytes b1(n * kG1CompressedBytes), b2(n * kG2CompressedBytes);
  std::vector<G1Affine> g1s(n);
  std::vector<G2Affine> g2s(n);
  for (size_t i = 0; i < n; ++i) {
    g1s[i] = i % 17 == 5 ? G1Affine::infinity() : random_g1(rng);
    g2s[i] = i % 19 == 7 ? G2Affine::infinity() : random_g2(rng);
    g1_to_compressed(g1s[i], b1.data() + i * kG1CompressedBytes);
    g2_to_compressed(g2s[i], b2.data() + i * kG2CompressedBytes);
  }
  ThreadPool pool(2);
  for (size_t count : {size_t(1), size_t(31), size_t(32), size_t(33), size_t(64), n}) {
    for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
      std::vector<G1Affine> out1(count);
      std::vector<G2Affine> out2(count);
      ASSERT_TRUE(g1_from_compressed_batch({b1.data(), count * kG1CompressedBytes}, out1, p).ok);
      ASSERT_TRUE(g2_from_compressed_batch({b2.data(), count * kG2CompressedBytes}, out2,
                                           G2Check::kSubgroup, p)
                      .ok);
      EXPECT_EQ(out1, std::vector<G1Affine>(g1s.begin(), g1s.begin() + long(count))) << count;
      EXPECT_EQ(out2, std::vector<G2Affine>(g2s.begin(), g2s.begin() + long(count))) << count;
    }
  }
  auto no_root_g1 = [&](Bytes& b, size_t i) {
    g1_x_without_point(rng).to_be_bytes(b.data() + i * kG1CompressedBytes);
    b[i * kG1CompressedBytes] |= 0x80;
  };
  auto no_root_g2 = [&](Bytes& b, size_t i) {
    const Fp2 x = g2_x_without_point(rng);
    x.c1.to_be_bytes(b.data() + i * kG2CompressedBytes);
    x.c0.to_be_bytes(b.data() + i * kG2CompressedBytes + 32);
    b[i * kG2CompressedBytes] |= 0x80;
  };
  for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
    std::vector<G1Affine> out1(n);
    std::vector<G2Affine> out2(n);
    // In the second group (32..63): no square root at 40, a malformed flag at 45.
    Bytes bad1 = b1, bad2 = b2;
    no_root_g1(bad1, 40);
    bad1[45 * kG1CompressedBytes] &= 0x3f;
    no_root_g2(bad2, 40);
    bad2[45 * kG2CompressedBytes] &= 0x3f;
    auto f1 = g1_from_compressed_batch(bad1, out1, p);
    auto f2 = g2_from_compressed_batch(bad2, out2, G2Check::kSubgroup, p);
    EXPECT_EQ(f1.index, 40u);
    EXPECT_NE(f1.error.find("not a square"), std::string::npos) << f1.error;
    EXPECT_EQ(f2.index, 40u);
    EXPECT_NE(f2.error.find("not a square"), std::string::npos) << f2.error;
    // The other way round: the malformed flag first.
    bad1 = b1;
    bad2 = b2;
    bad1[40 * kG1CompressedBytes] &= 0x3f;
    no_root_g1(bad1, 45);
    bad2[40 * kG2CompressedBytes] &= 0x3f;
    no_root_g2(bad2, 45);
    f1 = g1_from_compressed_batch(bad1, out1, p);
    f2 = g2_from_compressed_batch(bad2, out2, G2Check::kSubgroup, p);
    EXPECT_EQ(f1.index, 40u);
    EXPECT_NE(f1.error.find("0b00"), std::string::npos) << f1.error;
    EXPECT_EQ(f2.index, 40u);
    EXPECT_NE(f2.error.find("0b00"), std::string::npos) << f2.error;
  }
}

}  // namespace
}  // namespace enygma
