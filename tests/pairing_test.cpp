// The BN254 pairing: tower arithmetic against schoolbook references, Frobenius maps against
// exponentiation by p, cyclotomic squaring, the final exponentiation against its definition,
// pairing properties and a known answer, the G2 subgroup check against [r]Q == 0, and the GT
// byte encoding.
#include "core/pairing/pairing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "core/curve/bn_parameter.hpp"
#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/curve/g2_subgroup.hpp"
#include "core/pairing/fp12.hpp"
#include "core/pairing/fp6.hpp"
#include "core/pairing/gt.hpp"
#include "support/curve_points.hpp"
#include "support/test_rng.hpp"

#if defined(ENYGMA_HAVE_GMP)
#include <gmp.h>
#endif

namespace enygma {
namespace {

using test::TestRng;

const Fp2 kXi = {Fp::from_u64(9), Fp::one()};

Fp2 random_fp2(TestRng& rng) {
  return {rng.field<Fp>(), rng.field<Fp>()};
}
Fp6 random_fp6(TestRng& rng) {
  return {random_fp2(rng), random_fp2(rng), random_fp2(rng)};
}
Fp12 random_fp12(TestRng& rng) {
  return {random_fp6(rng), random_fp6(rng)};
}

// Coefficients z_0..z_5 of w^0..w^5 (Fp12 = Fp2[w] / (w^6 - xi)).
std::array<Fp2, 6> flat(const Fp12& x) {
  return {x.c0.c0, x.c1.c0, x.c0.c1, x.c1.c1, x.c0.c2, x.c1.c2};
}
Fp12 unflat(const std::array<Fp2, 6>& z) {
  return {{z[0], z[2], z[4]}, {z[1], z[3], z[5]}};
}

// Schoolbook product in Fp2[w] / (w^6 - xi): an independent reference for the tower.
Fp12 schoolbook_mul(const Fp12& a, const Fp12& b) {
  const auto x = flat(a), y = flat(b);
  std::array<Fp2, 11> prod;
  prod.fill(Fp2::zero());
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) prod[size_t(i + j)] += x[size_t(i)] * y[size_t(j)];
  }
  std::array<Fp2, 6> z;
  for (int i = 0; i < 6; ++i) z[size_t(i)] = prod[size_t(i)];
  for (int i = 6; i < 11; ++i) z[size_t(i - 6)] += prod[size_t(i)] * kXi;
  return unflat(z);
}

// Exponent as little-endian 64-bit words, for exponents wider than 256 bits.
Fp12 pow_words(const Fp12& a, const std::vector<uint64_t>& e) {
  Fp12 r = Fp12::one();
  for (size_t w = e.size(); w-- > 0;) {
    for (int b = 63; b >= 0; --b) {
      r = r.square();
      if ((e[w] >> b) & 1) r *= a;
    }
  }
  return r;
}

std::vector<uint64_t> words_from_hex(const std::string& hex) {
  std::vector<uint64_t> w((hex.size() + 15) / 16, 0);
  for (size_t i = 0; i < hex.size(); ++i) {
    const char c = hex[hex.size() - 1 - i];
    const uint64_t v = uint64_t(c <= '9' ? c - '0' : c - 'a' + 10);
    w[i / 16] |= v << (4 * (i % 16));
  }
  return w;
}

std::string to_hex(const uint8_t* b, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += d[b[i] >> 4];
    s += d[b[i] & 15];
  }
  return s;
}

// (p^4 - p^2 + 1) / r, the hard part of the final exponentiation (checked against GMP below when
// available).
const char* kHardExponentHex =
    "1baaa710b0759ad331ec15183177faf6c0eb522d5b122784e529a5861876f6b3b1b1355d189227d79581e16f3fd9"
    "0c66b887d56d5095f23aaa441e3954bcf8adcc7b44c87cdbacff1154e7e1da014fd5abf5cc4f49c36d4e81bb482c"
    "cdf42b1";

Fp12 easy_part(const Fp12& f) {
  Fp12 t = f.conjugate() * f.inverse();
  return t.frobenius_map(2) * t;
}

// ---- tower ---------------------------------------------------------------------------------

TEST(Tower, Fp6AndFp12ArithmeticMatchSchoolbook) {
  TestRng rng(11);
  for (int i = 0; i < 20; ++i) {
    const Fp12 a = random_fp12(rng), b = random_fp12(rng);
    EXPECT_EQ(a * b, schoolbook_mul(a, b));
    EXPECT_EQ(a.square(), schoolbook_mul(a, a));
    EXPECT_EQ(a * a.inverse(), Fp12::one());
    // Fp6 sits inside Fp12 as c0: its products must agree with the Fp12 ones.
    const Fp12 a6 = {a.c0, Fp6::zero()}, b6 = {b.c0, Fp6::zero()};
    EXPECT_EQ((Fp12{a.c0 * b.c0, Fp6::zero()}), schoolbook_mul(a6, b6));
    EXPECT_EQ(a.c0.square(), a.c0 * a.c0);
    EXPECT_EQ(a.c0 * a.c0.inverse(), Fp6::one());
    const Fp6 v = {Fp2::zero(), Fp2::one(), Fp2::zero()};
    EXPECT_EQ(a.c0.mul_by_v(), a.c0 * v);
    const Fp2 s0 = random_fp2(rng), s1 = random_fp2(rng), s3 = random_fp2(rng);
    const Fp6 sparse01 = {s0, s1, Fp2::zero()}, sparse1 = {Fp2::zero(), s1, Fp2::zero()};
    EXPECT_EQ(a.c0.mul_by_01(s0, s1), a.c0 * sparse01);
    EXPECT_EQ(a.c0.mul_by_1(s1), a.c0 * sparse1);
    // sparse line product: l0 + l1 w + l3 w^3
    const Fp12 line = {{s0, Fp2::zero(), Fp2::zero()}, {s1, s3, Fp2::zero()}};
    EXPECT_EQ(a.mul_by_034(s0, s1, s3), a * line);
    EXPECT_EQ(a.conjugate(),
              unflat({flat(a)[0], -flat(a)[1], flat(a)[2], -flat(a)[3], flat(a)[4], -flat(a)[5]}));
  }
  EXPECT_EQ(Fp12::zero().inverse(), Fp12::zero());
}

TEST(Tower, FrobeniusMapsEqualPowersOfP) {
  TestRng rng(12);
  const Fp12 a = random_fp12(rng);
  Fp12 expect = a;
  Fp6 expect6 = a.c1;
  for (int k = 1; k <= 3; ++k) {
    expect = expect.pow(Fp::kModulus);
    EXPECT_EQ(a.frobenius_map(k), expect) << "k = " << k;
    expect6 = expect6.frobenius_map(1);
    Fp12 as12 = Fp12{a.c1, Fp6::zero()};
    for (int j = 0; j < k; ++j) as12 = as12.pow(Fp::kModulus);
    EXPECT_EQ(expect6, as12.c0) << "Fp6, k = " << k;
    EXPECT_EQ(a.c1.frobenius_map(k), as12.c0) << "Fp6, k = " << k;
  }
  EXPECT_EQ(a.frobenius_map(0), a);
  // p^6 is the conjugation of Fp12 over Fp6.
  EXPECT_EQ(a.frobenius_map(3).frobenius_map(3), a.conjugate());
}

TEST(Tower, CyclotomicSquaringMatchesSquaringOnTheCyclotomicSubgroup) {
  TestRng rng(13);
  for (int i = 0; i < 10; ++i) {
    const Fp12 c = easy_part(random_fp12(rng));
    // In the cyclotomic subgroup: x^(p^4 - p^2 + 1) = 1 and the inverse is the conjugate.
    EXPECT_EQ(c.frobenius_map(2).frobenius_map(2) * c, c.frobenius_map(2));
    EXPECT_EQ(c * c.conjugate(), Fp12::one());
    EXPECT_EQ(c.cyclotomic_square(), c.square());
    EXPECT_EQ(c.cyclotomic_square().cyclotomic_square(), c.square().square());
    const U256 e = rng.u256();
    EXPECT_EQ(c.cyclotomic_pow(e), c.pow(e));
  }
  // Not an identity outside the subgroup (the test above could not pass by accident).
  const Fp12 a = random_fp12(rng);
  EXPECT_NE(a.cyclotomic_square(), a.square());
}

// ---- final exponentiation ------------------------------------------------------------------

TEST(FinalExponentiation, EqualsTheDefinition) {
  TestRng rng(14);
  const std::vector<uint64_t> hard = words_from_hex(kHardExponentHex);
  for (int i = 0; i < 2; ++i) {
    const Fp12 f = random_fp12(rng);
    const Fp12 g = final_exponentiation(f);
    EXPECT_EQ(g, pow_words(easy_part(f), hard));
    EXPECT_TRUE(g.pow(Fr::kModulus).is_one());  // order divides r
    EXPECT_FALSE(g.is_one());
    EXPECT_TRUE(is_in_gt(g));
  }
  EXPECT_TRUE(final_exponentiation(Fp12::one()).is_one());
  // Elements of proper subfields are removed entirely.
  EXPECT_TRUE(final_exponentiation(Fp12{{random_fp2(rng), Fp2::zero(), Fp2::zero()}, Fp6::zero()})
                  .is_one());
  EXPECT_TRUE(final_exponentiation(Fp12{random_fp6(rng), Fp6::zero()}).is_one());
}

#if defined(ENYGMA_HAVE_GMP)
std::vector<uint64_t> mpz_words(const mpz_t z) {
  std::vector<uint64_t> w((mpz_sizeinbase(z, 2) + 63) / 64, 0);
  size_t count = 0;
  mpz_export(w.data(), &count, -1, sizeof(uint64_t), 0, 0, z);
  w.resize(count);
  return w;
}

TEST(FinalExponentiation, EqualsPowerByFullExponentGmp) {
  mpz_t p, r, e, h;
  mpz_inits(p, r, e, h, nullptr);
  mpz_set_str(p, to_decimal(Fp::kModulus).c_str(), 10);
  mpz_set_str(r, to_decimal(Fr::kModulus).c_str(), 10);
  // (p^12 - 1) / r
  mpz_pow_ui(e, p, 12);
  mpz_sub_ui(e, e, 1);
  ASSERT_TRUE(mpz_divisible_p(e, r));
  mpz_divexact(e, e, r);
  // (p^4 - p^2 + 1) / r matches the constant used above
  mpz_t p2;
  mpz_init(p2);
  mpz_pow_ui(p2, p, 2);
  mpz_pow_ui(h, p, 4);
  mpz_sub(h, h, p2);
  mpz_add_ui(h, h, 1);
  ASSERT_TRUE(mpz_divisible_p(h, r));
  mpz_divexact(h, h, r);
  EXPECT_EQ(mpz_words(h), words_from_hex(kHardExponentHex));

  TestRng rng(15);
  const Fp12 f = random_fp12(rng);
  EXPECT_EQ(final_exponentiation(f), pow_words(f, mpz_words(e)));
  mpz_clears(p, r, e, h, p2, nullptr);
}
#endif

// ---- pairing ---------------------------------------------------------------------------------

G1Affine g1_mul(const U256& k) {
  return G1::generator().mul_vartime(k).to_affine();
}
G2Affine g2_mul(const U256& k) {
  return G2::generator().mul_vartime(k).to_affine();
}

// e(G1, G2) in the GT layout of core/pairing/gt.hpp, computed by an independent Python
// implementation (Fp12 as Fp[w] / (w^12 - 18 w^6 + 82) without a tower, affine Miller loop over
// the binary expansion of 6x + 2 in E(Fp12), then exponent (p^12 - 1) / r).
const char* kPairingOfGenerators =
    "108c19d15f9446f744d0f110405d3856d6cc3bda6c4d537663729f52576284170dc26f240656bbe2029bd441d77c"
    "221f0ba4c70c94b29b5f17f0f6d08745a069279db296f9d479292532c7c493d8e0722b6efae42158387564889c79"
    "fc038ee31ad9db1937fd72f4ac462173d31d3d6117411fa48dba8d499d762b47edb3b54a27ed208e7a0b55ae6e71"
    "0bbfbd2fd922669c026360e37cc5b2ab8624115361042c53748bcd21a7c038fb30ddc8ac3bf0af25d7859cfbc12c"
    "30c866276c5659092b03614464f04dd772d86df88674c270ffc8747ea13e72da95e3594468f222c401676555de42"
    "7abc409c4a394bc5426886302996919d4bf4bdd02236e14b36362067586885c3318eeffa1938c754fe3c60224ee5"
    "ae15e66af6b5104c47c8c5d80e841c2ac18a4003ac9326b9558380e0bc27fdd375e3605f96b819a358d34bde084f"
    "330485b09e866bc2f2ea2b897394deaf3f12aa31f28cb0552990967d470412c70e90e12b7874510cd1707e8856f7"
    "1bf7f61d72631e268fca81000db9a1f5";

TEST(Pairing, KnownAnswerForTheGenerators) {
  const Fp12 e = pairing(G1Affine::generator(), G2Affine::generator());
  uint8_t bytes[kGtBytes];
  fp12_to_bytes(e, bytes);
  EXPECT_EQ(to_hex(bytes, kGtBytes), kPairingOfGenerators);
  EXPECT_FALSE(e.is_one());  // non-degenerate
  EXPECT_TRUE(is_in_gt(e));
}

TEST(Pairing, Bilinearity) {
  TestRng rng(21);
  const G1Affine p = G1Affine::generator();
  const G2Affine q = G2Affine::generator();
  const Fp12 base = pairing(p, q);
  for (int i = 0; i < 3; ++i) {
    const Fr a = rng.field<Fr>(), b = rng.field<Fr>();
    const G1Affine ap = g1_mul(a.to_u256());
    const G2Affine bq = g2_mul(b.to_u256());
    const Fp12 e = pairing(ap, bq);
    EXPECT_EQ(e, base.pow((a * b).to_u256()));
    EXPECT_EQ(pairing(ap, q), pairing(p, g2_mul(a.to_u256())));
    // e(aP, bQ) e(aP, -bQ) = 1 and e(aP, bQ) e(-aP, bQ) = 1
    const G1Affine ps[2] = {ap, ap};
    const G2Affine qs[2] = {bq, -bq};
    EXPECT_TRUE(pairing_product_is_one(ps, qs));
    const G1Affine ps2[2] = {ap, -ap};
    const G2Affine qs2[2] = {bq, bq};
    EXPECT_TRUE(pairing_product_is_one(ps2, qs2));
    // e(aP, bQ) == e(abP, Q)
    const G1Affine abp = g1_mul((a * b).to_u256());
    const G1Affine ps3[2] = {ap, -abp};
    const G2Affine qs3[2] = {bq, q};
    EXPECT_TRUE(pairing_product_is_one(ps3, qs3));
    // ... and not with a wrong scalar
    const G1Affine wrong = g1_mul((a * b + Fr::one()).to_u256());
    const G1Affine ps4[2] = {ap, -wrong};
    EXPECT_FALSE(pairing_product_is_one(ps4, qs3));
  }
}

TEST(Pairing, MultiPairingPreparedAndInfinity) {
  TestRng rng(22);
  std::vector<G1Affine> ps;
  std::vector<G2Affine> qs;
  Fp12 product = Fp12::one();
  for (int i = 0; i < 3; ++i) {
    ps.push_back(g1_mul(rng.field<Fr>().to_u256()));
    qs.push_back(g2_mul(rng.field<Fr>().to_u256()));
    product *= pairing(ps.back(), qs.back());
  }
  const Fp12 ml = miller_loop(ps, qs);
  EXPECT_EQ(final_exponentiation(ml), product);

  // Prepared points give the same Miller loop value, alone or mixed with the unprepared path.
  std::vector<G2Prepared> prepared;
  for (const auto& q : qs) prepared.push_back(prepare_g2(q));
  std::vector<const G2Prepared*> ptrs;
  for (const auto& pr : prepared) ptrs.push_back(&pr);
  EXPECT_EQ(miller_loop(ps, std::span<const G2Prepared* const>(ptrs)), ml);

  // Infinity on either side contributes 1.
  std::vector<G1Affine> ps_inf = ps;
  std::vector<G2Affine> qs_inf = qs;
  ps_inf.push_back(G1Affine::infinity());
  qs_inf.push_back(qs[0]);
  ps_inf.push_back(ps[0]);
  qs_inf.push_back(G2Affine::infinity());
  EXPECT_EQ(final_exponentiation(miller_loop(ps_inf, qs_inf)), product);
  EXPECT_TRUE(prepare_g2(G2Affine::infinity()).is_infinity());
  EXPECT_TRUE(pairing(G1Affine::infinity(), qs[0]).is_one());
  EXPECT_TRUE(pairing(ps[0], G2Affine::infinity()).is_one());
  EXPECT_TRUE(pairing_product_is_one(std::span<const G1Affine>(), std::span<const G2Affine>()));
  // Size mismatch fails closed.
  EXPECT_FALSE(
      pairing_product_is_one(std::span<const G1Affine>(ps.data(), 1), std::span<const G2Affine>()));
  EXPECT_TRUE(miller_loop(std::span<const G1Affine>(ps.data(), 2), qs).is_zero());
  // A G2Prepared that did not come from prepare_g2 fails closed.
  G2Prepared bogus;
  bogus.lines.resize(3);
  const G2Prepared* bogus_ptr = &bogus;
  EXPECT_TRUE(miller_loop(std::span<const G1Affine>(ps.data(), 1),
                          std::span<const G2Prepared* const>(&bogus_ptr, 1))
                  .is_zero());

  // The Groth16 verifier shape: e(A, B) e(-L, gamma) e(-C, delta) == e(alpha, beta).
  const Fr alpha = rng.field<Fr>(), beta = rng.field<Fr>(), gamma = rng.field<Fr>(),
           delta = rng.field<Fr>(), l = rng.field<Fr>(), c = rng.field<Fr>();
  const Fr a = rng.field<Fr>();
  // choose b so that a b = alpha beta + l gamma + c delta
  const Fr b = (alpha * beta + l * gamma + c * delta) * a.inverse();
  const G2Prepared gamma_prep = prepare_g2(g2_mul(gamma.to_u256()));
  const G2Prepared delta_prep = prepare_g2(g2_mul(delta.to_u256()));
  const G2Prepared b_prep = prepare_g2(g2_mul(b.to_u256()));
  const Fp12 alpha_beta = pairing(g1_mul(alpha.to_u256()), g2_mul(beta.to_u256()));
  const G1Affine g1s[3] = {g1_mul(a.to_u256()), -g1_mul(l.to_u256()), -g1_mul(c.to_u256())};
  const G2Prepared* g2s[3] = {&b_prep, &gamma_prep, &delta_prep};
  EXPECT_EQ(final_exponentiation(miller_loop(g1s, g2s)), alpha_beta);
  const G1Affine g1s_bad[3] = {g1_mul((a + Fr::one()).to_u256()), g1s[1], g1s[2]};
  EXPECT_NE(final_exponentiation(miller_loop(g1s_bad, g2s)), alpha_beta);
  // The verifier's form: gamma's and delta's lines monic, B's plain.
  const G2Prepared gamma_monic = prepare_g2_monic(g2_mul(gamma.to_u256()));
  const G2Prepared delta_monic = prepare_g2_monic(g2_mul(delta.to_u256()));
  const G2Prepared* g2s_monic[3] = {&b_prep, &gamma_monic, &delta_monic};
  EXPECT_EQ(final_exponentiation(miller_loop(g1s, g2s_monic)), alpha_beta);
  EXPECT_NE(final_exponentiation(miller_loop(g1s_bad, g2s_monic)), alpha_beta);
}

// Monic lines: every line's a is 1, the Miller-loop value differs from the plain lines' by a
// factor that the final exponentiation removes, alone and mixed with plain lines and infinity.
TEST(Pairing, MonicLinesGiveTheSamePairing) {
  TestRng rng(23);
  std::vector<G1Affine> ps;
  std::vector<G2Affine> qs;
  for (int i = 0; i < 4; ++i) {
    ps.push_back(g1_mul(rng.field<Fr>().to_u256()));
    qs.push_back(g2_mul(rng.field<Fr>().to_u256()));
  }
  ps.push_back(G1Affine::infinity());
  qs.push_back(qs[0]);
  const Fp12 expected = final_exponentiation(miller_loop(ps, qs));
  std::vector<G2Prepared> plain, monic;
  for (const auto& q : qs) {
    plain.push_back(prepare_g2(q));
    monic.push_back(prepare_g2_monic(q));
  }
  for (size_t i = 0; i < qs.size(); ++i) {
    ASSERT_TRUE(monic[i].monic);
    ASSERT_EQ(monic[i].lines.size(), plain[i].lines.size());
    for (size_t j = 0; j < plain[i].lines.size(); ++j) {
      const LineCoefficients &m = monic[i].lines[j], &l = plain[i].lines[j];
      ASSERT_EQ(m.a, Fp2::one());
      ASSERT_EQ(m.b * l.a, l.b);
      ASSERT_EQ(m.c * l.a, l.c);
    }
  }
  // Every mix of monic and plain points (bit i of mask: point i monic).
  for (unsigned mask = 0; mask < (1u << qs.size()); mask += 3) {
    std::vector<const G2Prepared*> ptrs;
    for (size_t i = 0; i < qs.size(); ++i) ptrs.push_back((mask >> i) & 1 ? &monic[i] : &plain[i]);
    const Fp12 ml = miller_loop(ps, std::span<const G2Prepared* const>(ptrs));
    EXPECT_EQ(final_exponentiation(ml), expected) << "mask " << mask;
    if (mask & 0xf) {
      EXPECT_NE(ml, miller_loop(ps, qs)) << "mask " << mask;
    }
  }
  // A wrong G1 point on a monic line changes the result.
  std::vector<G1Affine> ps_bad = ps;
  ps_bad[1] = ps[2];
  std::vector<const G2Prepared*> all_monic;
  for (const auto& m : monic) all_monic.push_back(&m);
  EXPECT_NE(
      final_exponentiation(miller_loop(ps_bad, std::span<const G2Prepared* const>(all_monic))),
      expected);
  EXPECT_TRUE(prepare_g2_monic(G2Affine::infinity()).is_infinity());
  EXPECT_FALSE(prepare_g2_monic(G2Affine::infinity()).monic);
}

// ---- G2 subgroup -----------------------------------------------------------------------------

// The twist's group order is r * c, c = 2p - r = l1 * l2 * l3 * l4 (square-free, so the group
// is cyclic; factorisation by sympy, checked below by [r l1 l2 l3 l4]Q == 0).
const char* kCofactorPrimes[4] = {"10069", "5864401", "1875725156269",
                                  "197620364512881247228717050342013327560683201906968909"};

TEST(G2Subgroup, PsiActsAsPOnG2) {
  TestRng rng(31);
  const G2Affine q = g2_mul(rng.field<Fr>().to_u256());
  const G2Affine psi_q = g2_psi(q);
  EXPECT_TRUE(psi_q.is_on_curve());
  // p mod r = 6x^2
  U256 p_mod_r;
  sub_borrow(p_mod_r, Fp::kModulus, Fr::kModulus);
  EXPECT_EQ(psi_q, q.to_jacobian().mul_vartime(p_mod_r).to_affine());
  EXPECT_EQ(g2_psi2(q), g2_psi(psi_q));
  EXPECT_EQ(g2_psi(q.to_jacobian()).to_affine(), psi_q);
  EXPECT_EQ(g2_mul_by_bn_x(q), q.to_jacobian().mul_vartime(U256::from_u64(kBnX)));
  // The NAF expansions encode the right integers.
  auto value = [](const SignedDigits& d) {
    U256 v;
    for (int i = d.length - 1; i >= 0; --i) {
      add_carry(v, v, v);
      if (d.digit[size_t(i)] == 1) add_carry(v, v, U256::from_u64(1));
      if (d.digit[size_t(i)] == -1) sub_borrow(v, v, U256::from_u64(1));
    }
    return v;
  };
  EXPECT_EQ(value(kBnXNaf), U256::from_u64(kBnX));
  EXPECT_EQ(to_decimal(value(kAteLoopNaf)), "29793968203157093288");  // 6x + 2
  for (const SignedDigits* d : {&kBnXNaf, &kAteLoopNaf}) {
    for (int i = 0; i + 1 < d->length; ++i) {
      EXPECT_FALSE(d->digit[size_t(i)] != 0 && d->digit[size_t(i + 1)] != 0);
    }
  }
}

// prepare_g2_checked's answer, after checking that its lines are prepare_g2's.
bool in_subgroup_by_lines(const G2Affine& q) {
  bool in_subgroup = false;
  const G2Prepared checked = prepare_g2_checked(q, in_subgroup);
  const G2Prepared plain = prepare_g2(q);
  EXPECT_EQ(checked.lines.size(), plain.lines.size());
  for (size_t i = 0; i < std::min(checked.lines.size(), plain.lines.size()); ++i) {
    const LineCoefficients &a = checked.lines[i], &b = plain.lines[i];
    EXPECT_TRUE(a.a == b.a && a.b == b.b && a.c == b.c) << "line " << i;
  }
  EXPECT_EQ(checked.monic, plain.monic);
  return in_subgroup;
}

TEST(G2Subgroup, FastCheckAgreesWithOrderOnRandomTwistPoints) {
  TestRng rng(32);
  U256 cofactor;  // 2p - r
  add_carry(cofactor, Fp::kModulus, Fp::kModulus);
  sub_borrow(cofactor, cofactor, Fr::kModulus);
  for (int i = 0; i < 6; ++i) {
    const G2Affine t = test::random_twist_point(rng);
    ASSERT_TRUE(t.is_on_curve());
    EXPECT_FALSE(g2_is_in_subgroup_by_order(t));
    EXPECT_FALSE(g2_is_in_subgroup(t));
    EXPECT_FALSE(in_subgroup_by_lines(t));
    const G2Affine s = t.to_jacobian().mul_vartime(cofactor).to_affine();
    EXPECT_TRUE(g2_is_in_subgroup_by_order(s));
    EXPECT_TRUE(g2_is_in_subgroup(s));
    EXPECT_TRUE(in_subgroup_by_lines(s));
    EXPECT_FALSE(in_subgroup_by_lines(-t));
    EXPECT_TRUE(in_subgroup_by_lines(-s));
  }
  EXPECT_TRUE(g2_is_in_subgroup(G2Affine::infinity()));
  EXPECT_TRUE(g2_is_in_subgroup(G2Affine::generator()));
  EXPECT_TRUE(in_subgroup_by_lines(G2Affine::generator()));
  bool in_subgroup = false;
  EXPECT_TRUE(prepare_g2_checked(G2Affine::infinity(), in_subgroup).is_infinity());
  EXPECT_TRUE(in_subgroup);
}

TEST(G2Subgroup, LinesTellTheSubgroupOfManyPoints) {
  // Points of G2 of every size of scalar (the ladder's steps are never exceptional for them)
  // against points of the twist outside G2, each told as g2_is_in_subgroup tells it.
  TestRng rng(34);
  for (int i = 0; i < 24; ++i) {
    const U256 k = i < 8 ? U256::from_u64(uint64_t(i) + 1) : rng.field<Fr>().to_u256();
    EXPECT_TRUE(in_subgroup_by_lines(g2_mul(k))) << i;
    const G2Affine t = test::random_twist_point(rng);
    EXPECT_EQ(in_subgroup_by_lines(t), g2_is_in_subgroup(t)) << i;
    EXPECT_FALSE(in_subgroup_by_lines(t)) << i;
  }
}

TEST(G2Subgroup, LadderEndComparisonRefusesZ0) {
  // An exceptional step leaves (0 : 0 : 0) or Z = 0, which no affine point equals.
  const G2Affine g = G2Affine::generator();
  EXPECT_TRUE(pairing_detail::homogeneous_equals(g.x, g.y, Fp2::one(), g));
  const Fp2 z = {Fp::from_u64(7), Fp::from_u64(3)};
  EXPECT_TRUE(pairing_detail::homogeneous_equals(g.x * z, g.y * z, z, g));
  EXPECT_FALSE(pairing_detail::homogeneous_equals(g.x * z, -(g.y * z), z, g));
  EXPECT_FALSE(pairing_detail::homogeneous_equals(g.x, g.y * z, z, g));
  EXPECT_FALSE(pairing_detail::homogeneous_equals(Fp2::zero(), Fp2::zero(), Fp2::zero(), g));
  EXPECT_FALSE(pairing_detail::homogeneous_equals(g.x, g.y, Fp2::zero(), g));
  EXPECT_FALSE(pairing_detail::homogeneous_equals(Fp2::zero(), Fp2::one(), Fp2::zero(),
                                                  G2Affine::infinity()));
}

#if defined(ENYGMA_HAVE_GMP)
TEST(G2Subgroup, CofactorPrimesMultiplyToTwoPMinusR) {
  mpz_t prod, l, c;
  mpz_inits(prod, l, c, nullptr);
  mpz_set_ui(prod, 1);
  for (const char* s : kCofactorPrimes) {
    mpz_set_str(l, s, 10);
    EXPECT_NE(mpz_probab_prime_p(l, 40), 0) << s;
    mpz_mul(prod, prod, l);
  }
  mpz_set_str(c, to_decimal(Fp::kModulus).c_str(), 10);
  mpz_mul_ui(c, c, 2);
  mpz_set_str(l, to_decimal(Fr::kModulus).c_str(), 10);
  mpz_sub(c, c, l);
  EXPECT_EQ(mpz_cmp(prod, c), 0);
  mpz_clears(prod, l, c, nullptr);
}
#endif

TEST(G2Subgroup, RejectsAPointOfEveryPrimeOrderOfTheCofactor) {
  TestRng rng(33);
  std::vector<U256> primes;
  for (const char* s : kCofactorPrimes) primes.push_back(*u256_from_decimal(s));
  const G2Affine t = test::random_twist_point(rng);
  // [r l1 l2 l3 l4] T = 0: the primes and r account for the whole group order.
  G2 all = t.to_jacobian().mul_vartime(Fr::kModulus);
  for (const U256& l : primes) all = all.mul_vartime(l);
  EXPECT_TRUE(all.is_infinity());
  const G2Affine g2_point = g2_mul(rng.field<Fr>().to_u256());
  for (size_t i = 0; i < primes.size(); ++i) {
    // [r * prod_{j != i} l_j] T has order l_i exactly (or is 0 for an unlucky T).
    G2 u = t.to_jacobian().mul_vartime(Fr::kModulus);
    for (size_t j = 0; j < primes.size(); ++j) {
      if (j != i) u = u.mul_vartime(primes[j]);
    }
    ASSERT_FALSE(u.is_infinity()) << "prime " << kCofactorPrimes[i];
    ASSERT_TRUE(u.mul_vartime(primes[i]).is_infinity());
    const G2Affine small = u.to_affine();
    EXPECT_FALSE(g2_is_in_subgroup(small)) << "order " << kCofactorPrimes[i];
    EXPECT_FALSE(g2_is_in_subgroup_by_order(small));
    EXPECT_FALSE(in_subgroup_by_lines(small)) << "order " << kCofactorPrimes[i];
    // A subgroup point plus a small-order component is rejected too.
    const G2Affine mixed = (g2_point.to_jacobian() + u).to_affine();
    EXPECT_FALSE(g2_is_in_subgroup(mixed)) << "order r * " << kCofactorPrimes[i];
    EXPECT_FALSE(in_subgroup_by_lines(mixed)) << "order r * " << kCofactorPrimes[i];
  }
}

// ---- GT encoding -----------------------------------------------------------------------------

TEST(GtEncoding, RoundTripCanonicalAndMembership) {
  TestRng rng(41);
  const Fp12 e = pairing(G1Affine::generator(), g2_mul(rng.field<Fr>().to_u256()));
  uint8_t bytes[kGtBytes];
  fp12_to_bytes(e, bytes);
  auto back = gt_from_bytes(bytes);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, e);
  // The last 32 bytes are c0.c0.c0, the first 32 c1.c2.c1.
  uint8_t last[32], first[32];
  e.c0.c0.c0.to_be_bytes(last);
  e.c1.c2.c1.to_be_bytes(first);
  EXPECT_EQ(std::memcmp(bytes + kGtBytes - 32, last, 32), 0);
  EXPECT_EQ(std::memcmp(bytes, first, 32), 0);
  // A coefficient >= p is rejected, in any position.
  for (size_t k = 0; k < 12; ++k) {
    uint8_t bad[kGtBytes];
    std::memcpy(bad, bytes, kGtBytes);
    u256_to_be_bytes(Fp::kModulus, bad + 32 * k);
    EXPECT_FALSE(fp12_from_bytes(bad).has_value()) << k;
  }
  // Canonical but not in GT: a random element, and a cyclotomic one of the wrong order.
  const Fp12 x = random_fp12(rng);
  fp12_to_bytes(x, bytes);
  EXPECT_TRUE(fp12_from_bytes(bytes).has_value());
  EXPECT_FALSE(gt_from_bytes(bytes).has_value());
  EXPECT_FALSE(is_in_gt(easy_part(x)));
  EXPECT_FALSE(is_in_gt(Fp12::zero()));
  EXPECT_TRUE(is_in_gt(Fp12::one()));
}

}  // namespace
}  // namespace enygma
