// Multi-scalar multiplication: signed digits, the batch-affine primitives, and msm_g1/msm_g2
// against independent oracles (a sum of double-and-add scalar multiplications, or for bigger
// inputs the discrete-log oracle: with P_i = k_i G, the MSM is (sum s_i k_i) G).
#include "core/msm/msm.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "core/field/cpu_features.hpp"
#include "core/msm/equal_scalars.hpp"
#include "core/msm/fixed_base_msm.hpp"
#include "core/msm/glv.hpp"
#include "core/msm/pippenger.hpp"
#include "support/test_rng.hpp"
#include "support/threads.hpp"

namespace enygma {
namespace {

using test::kManyThreads;

using msm_detail::bit_length;
using msm_detail::signed_digits;
using msm_detail::signed_windows;

template <class J>
struct Instance {
  std::vector<typename J::Affine> points;
  std::vector<Fr> scalars;
  std::vector<Fr> dlogs;  // points[i] = dlogs[i] * G
};

// Points k_i G with k_i = a + i b (one addition each), so the oracle is cheap.
template <class J>
Instance<J> make_instance(size_t n, uint64_t seed) {
  test::TestRng rng(seed);
  Instance<J> inst;
  const Fr a = rng.field<Fr>(), b = rng.field<Fr>();
  const J g = J::generator();
  J p = g.mul_vartime(a.to_u256());
  const J step = g.mul_vartime(b.to_u256());
  std::vector<J> jac(n);
  Fr k = a;
  for (size_t i = 0; i < n; ++i) {
    jac[i] = p;
    inst.dlogs.push_back(k);
    inst.scalars.push_back(rng.field<Fr>());
    p += step;
    k += b;
  }
  inst.points.resize(n);
  J::batch_to_affine(jac.data(), inst.points.data(), n);
  return inst;
}

template <class J>
J dlog_oracle(const Instance<J>& inst) {
  Fr e = Fr::zero();
  for (size_t i = 0; i < inst.points.size(); ++i) {
    if (!inst.points[i].is_infinity()) e += inst.scalars[i] * inst.dlogs[i];
  }
  return J::generator().mul_vartime(e.to_u256());
}

template <class J>
J naive_sum(const typename J::Affine* points, const Fr* scalars, size_t n) {
  J acc = J::infinity();
  for (size_t i = 0; i < n; ++i) acc += points[i].to_jacobian().mul_vartime(scalars[i].to_u256());
  return acc;
}

template <class J>
J run_msm(const Instance<J>& inst, ThreadPool& pool, const MsmOptions& opt = {}) {
  return msm_detail::msm(inst.points.data(), inst.scalars.data(), inst.points.size(), pool, opt);
}

MsmOptions batch_affine(unsigned c, size_t batch = 0) {
  MsmOptions o;
  o.path = MsmOptions::Path::kBatchAffine;
  o.window_bits = c;
  o.batch_size = batch;
  return o;
}

Fr fr_minus_one() {
  return -Fr::one();
}

TEST(SignedDigits, RecomposeAndRange) {
  test::TestRng rng(11);
  U256 rm1;
  sub_borrow(rm1, Fr::kModulus, U256::from_u64(1));
  for (unsigned bits : {254u, 253u, 200u, 64u, 17u, 2u}) {
    U256 top;  // 2^bits - 1: the largest value allowed
    for (unsigned i = 0; i < bits; ++i) top.w[i / 64] |= uint64_t(1) << (i % 64);
    std::vector<U256> scalars = {U256::from_u64(0), U256::from_u64(1), U256::from_u64(2), top};
    if (bits == 254) scalars.push_back(rm1);
    for (int i = 0; i < 30; ++i) {
      U256 s = rng.field<Fr>().to_u256();
      for (unsigned b = bits; b < 256; ++b) s.w[b / 64] &= ~(uint64_t(1) << (b % 64));
      scalars.push_back(s);
    }
    for (unsigned c = 1; c <= 16; ++c) {
      const msm_detail::WindowLayout layout = signed_windows(bits, c);
      const unsigned windows = layout.count();
      ASSERT_LE(layout.max_width, c);
      ASSERT_GE(layout.offset[windows - 1] + layout.width[windows - 1], bits + 1);
      for (unsigned w = 0; w < windows; ++w) ASSERT_GE(layout.width[w] + 1, layout.max_width);
      std::vector<int16_t> d(windows);
      for (const U256& s : scalars) {
        signed_digits(s, layout, d.data());
        // Recompose modulo 2^256 (no wrap: the value is s < 2^254).
        U256 acc;
        for (unsigned w = windows; w-- > 0;) {
          for (unsigned i = 0; i < layout.width[w]; ++i) add_carry(acc, acc, acc);
          const int64_t v = d[w];
          const int64_t half = int64_t(1) << (layout.width[w] - 1);
          ASSERT_LE(v, half) << "c=" << c << " w=" << w;
          ASSERT_GE(v, -half) << "c=" << c << " w=" << w;
          if (w + 1 == windows) {
            ASSERT_GE(v, 0);
          } else {
            ASSERT_LT(v, half);
          }
          if (v >= 0) {
            add_carry(acc, acc, U256::from_u64(uint64_t(v)));
          } else {
            sub_borrow(acc, acc, U256::from_u64(uint64_t(-v)));
          }
        }
        ASSERT_EQ(acc, s) << "bits=" << bits << " c=" << c;
      }
    }
  }
  // Full-size scalars: 16-bit windows need 256 bits (the top digit must fit an int16).
  EXPECT_EQ(signed_windows(254, 16).count(), 16u);
  EXPECT_EQ(signed_windows(254, 13).count(), 20u);
  EXPECT_EQ(signed_windows(254, 13).width[0], 12u);  // 5 x 12 + 15 x 13 = 255 bits
  EXPECT_EQ(signed_windows(254, 13).width[19], 13u);
}

// DigitPlan (the MSM's branch-free digits) against signed_digits, and its negation.
TEST(SignedDigits, PlanMatchesPlainDigits) {
  test::TestRng rng(12);
  for (unsigned bits : {254u, 200u, 129u, 128u, 127u, 64u, 5u, 1u}) {
    U256 top;
    for (unsigned i = 0; i < bits; ++i) top.w[i / 64] |= uint64_t(1) << (i % 64);
    std::vector<U256> scalars = {U256::from_u64(0), U256::from_u64(1), top};
    for (int i = 0; i < 40; ++i) {
      U256 s = rng.field<Fr>().to_u256();
      for (unsigned b = bits; b < 256; ++b) s.w[b / 64] &= ~(uint64_t(1) << (b % 64));
      scalars.push_back(s);
    }
    for (unsigned c = 1; c <= 16; ++c) {
      const msm_detail::WindowLayout layout = signed_windows(bits, c);
      const msm_detail::DigitPlan plan(layout);
      ASSERT_EQ(plan.count(), layout.count());
      std::vector<int16_t> want(layout.count()), got(layout.count());
      for (const U256& s : scalars) {
        signed_digits(s, layout, want.data());
        plan.digits(s, got.data());
        ASSERT_EQ(got, want) << "bits=" << bits << " c=" << c;
        plan.digits(s, got.data(), /*negate=*/true);
        for (int16_t& d : want) d = int16_t(-d);
        ASSERT_EQ(got, want) << "negated, bits=" << bits << " c=" << c;
      }
    }
  }
}

// The GLV constants: lambda and beta are cube roots of unity, phi(P) = (beta x, y) is [lambda]P
// on G1 and (beta_G2 x, y) on G2, the basis vectors lie in the lattice, and the split of any
// scalar recomposes to it with halves below 2^128.
TEST(Glv, ConstantsAndSplit) {
  using namespace msm_detail;
  const Fr lambda = kGlvLambda;
  EXPECT_NE(lambda, Fr::one());
  EXPECT_EQ(lambda * lambda * lambda, Fr::one());
  EXPECT_NE(kGlvBetaG1, Fp::one());
  EXPECT_EQ(kGlvBetaG1 * kGlvBetaG1 * kGlvBetaG1, Fp::one());
  EXPECT_EQ(kGlvBetaG2, kGlvBetaG1 * kGlvBetaG1);
  test::TestRng rng(13);
  for (int i = 0; i < 4; ++i) {
    const Fr k = i == 0 ? Fr::one() : rng.field<Fr>();
    const G1Affine p = G1::generator().mul_vartime(k.to_u256()).to_affine();
    const G1Affine phi_p{glv_endo_x(p.x), p.y};
    EXPECT_EQ(phi_p.to_jacobian(), p.to_jacobian().mul_vartime(lambda.to_u256()));
    const G2Affine q = G2::generator().mul_vartime(k.to_u256()).to_affine();
    const G2Affine phi_q{glv_endo_x(q.x), q.y};
    EXPECT_EQ(phi_q.to_jacobian(), q.to_jacobian().mul_vartime(lambda.to_u256()));
  }
  auto fr = [](const U256& x) { return Fr::from_u256_reduce(x); };
  // a1 + b1 lambda = 0 and a2 + b2 lambda = 0 mod r (b1 = -|b1|, b2 = a1).
  EXPECT_EQ(fr(U256::from_u64(kGlvA1)), fr(kGlvB1Abs) * lambda);
  EXPECT_EQ(fr(kGlvA2) + fr(U256::from_u64(kGlvA1)) * lambda, Fr::zero());
  U256 rm1, half;
  sub_borrow(rm1, Fr::kModulus, U256::from_u64(1));
  half = shr1(Fr::kModulus);
  std::vector<U256> ks = {U256::from_u64(0),
                          U256::from_u64(1),
                          U256::from_u64(2),
                          rm1,
                          half,
                          lambda.to_u256(),
                          (lambda + Fr::one()).to_u256(),
                          (-lambda).to_u256(),
                          kGlvA2,
                          kGlvB1Abs};
  for (int i = 0; i < 2000; ++i) ks.push_back(rng.field<Fr>().to_u256());
  for (const U256& k : ks) {
    const GlvSplit s = glv_split(k);
    EXPECT_LE(bit_length(s.k1), 128u);
    EXPECT_LE(bit_length(s.k2), 128u);
    const Fr k1 = s.neg1 ? -fr(s.k1) : fr(s.k1), k2 = s.neg2 ? -fr(s.k2) : fr(s.k2);
    ASSERT_EQ(k1 + k2 * lambda, fr(k));
  }
}

TEST(MsmPlan, PlansAreConsistent) {
  for (unsigned threads : {1u, 2u, 16u}) {
    for (size_t m : {size_t(64), size_t(1000), size_t(1) << 16, size_t(1) << 20}) {
      for (unsigned bits : {254u, 64u, 3u}) {
        const msm_detail::BatchAffinePlan plan =
            msm_detail::plan_batch_affine(m, bits, threads, sizeof(G1Affine), {});
        const msm_detail::WindowLayout layout = signed_windows(bits, plan.layout_c);
        const size_t B = size_t(1) << (plan.c - 1);
        EXPECT_EQ(layout.max_width, plan.c);
        EXPECT_GE(plan.c, 4u);
        EXPECT_LE(plan.c, 16u);
        EXPECT_LE(plan.window_groups, layout.count());
        EXPECT_GE(plan.windows_per_pass, 1u);
        EXPECT_GE(plan.batch, 8u);
        EXPECT_EQ(B % plan.segments, 0u);
        if (m >= (size_t(1) << 16)) {  // enough work to keep (nearly) every thread busy
          EXPECT_GE(4 * plan.window_groups * plan.point_chunks, 3 * threads)
              << m << " " << threads << " " << bits;
        }
      }
    }
  }
  MsmOptions forced;
  forced.window_bits = 9;
  EXPECT_EQ(msm_detail::plan_batch_affine(1 << 14, 254, 1, sizeof(G1Affine), forced).c, 9u);
}

template <class J>
void batch_add_pairs_cases(uint64_t seed) {
  using Affine = typename J::Affine;
  using F = decltype(Affine{}.x);
  test::TestRng rng(seed);
  const J g = J::generator();
  const Affine inf = Affine::infinity();
  // Three rounds of every case with fresh points: 24 ops, enough for the 8-lane G1 kernel
  // (16 or more), which hands the equal-x cases back to the scalar code.
  std::vector<std::pair<Affine, Affine>> cases;
  for (int round = 0; round < 3; ++round) {
    const Affine p = g.mul_vartime(rng.field<Fr>().to_u256()).to_affine();
    const Affine q = g.mul_vartime(rng.field<Fr>().to_u256()).to_affine();
    for (const auto& c : std::vector<std::pair<Affine, Affine>>{
             {p, q}, {p, p}, {p, -p}, {inf, p}, {p, inf}, {inf, inf}, {q, p}, {q, q}}) {
      cases.push_back(c);
    }
  }
  std::vector<Affine> out(cases.size());
  std::vector<msm_detail::PairAdd<Affine>> ops;
  for (size_t i = 0; i < cases.size(); ++i)
    ops.push_back({cases[i].first, cases[i].second, &out[i]});
  msm_detail::BatchAddScratch<F> scratch;
  msm_detail::batch_add_pairs(ops.data(), ops.size(), scratch);
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(out[i].to_jacobian(), cases[i].first.to_jacobian() + cases[i].second.to_jacobian())
        << "case " << i;
  }
}

TEST(BatchAffine, PairAdditionCasesG1) {
  batch_add_pairs_cases<G1>(21);
}
TEST(BatchAffine, PairAdditionCasesG2) {
  batch_add_pairs_cases<G2>(22);
}

TEST(BatchAffine, SumOfPoints) {
  auto inst = make_instance<G1>(301, 23);
  inst.points[7] = G1Affine::infinity();
  inst.points[8] = inst.points[9];     // a doubling inside the tree
  inst.points[10] = -inst.points[11];  // a cancellation
  G1 expected = G1::infinity();
  for (const auto& p : inst.points) expected = expected.add_mixed(p);
  SecureVector<G1Affine> copy(inst.points.begin(), inst.points.end());
  EXPECT_EQ(msm_detail::sum_affine_points(copy), expected);
}

template <class J>
void random_sizes_against_oracle(const std::vector<size_t>& sizes, size_t naive_up_to,
                                 uint64_t seed) {
  ThreadPool pool(2);
  for (size_t n : sizes) {
    const auto inst = make_instance<J>(n, seed + n);
    const J got = run_msm(inst, pool);
    EXPECT_EQ(got, dlog_oracle(inst)) << "n=" << n;
    if (n <= naive_up_to) {
      EXPECT_EQ(got, naive_sum<J>(inst.points.data(), inst.scalars.data(), n)) << "n=" << n;
    }
  }
}

TEST(MsmG1, RandomSizesAgainstOracles) {
  // Around the Jacobian / batch-affine switch (64 terms) and several window sizes.
  random_sizes_against_oracle<G1>(
      {1, 2, 3, 4, 7, 16, 33, 63, 64, 65, 100, 255, 513, 1000, 2049, 5000}, 260, 100);
}

TEST(MsmG2, RandomSizesAgainstOracles) {
  random_sizes_against_oracle<G2>({1, 2, 3, 9, 63, 64, 65, 200, 700, 2500}, 64, 200);
}

template <class J>
void edge_cases(uint64_t seed) {
  using Affine = typename J::Affine;
  ThreadPool pool(2);
  EXPECT_TRUE(msm_detail::msm<>(static_cast<const Affine*>(nullptr),
                                static_cast<const Fr*>(nullptr), 0, pool)
                  .is_infinity());
  for (size_t n : {size_t(3), size_t(600)}) {
    auto inst = make_instance<J>(n, seed + n);
    std::vector<MsmOptions> paths = {MsmOptions{}, batch_affine(6, 16)};
    paths[0].path = MsmOptions::Path::kAuto;
    MsmOptions ref;
    ref.path = MsmOptions::Path::kReference;
    paths.push_back(ref);
    for (const MsmOptions& opt : paths) {
      auto check = [&](const char* what) {
        EXPECT_EQ(run_msm(inst, pool, opt), dlog_oracle(inst)) << what << " n=" << n;
      };
      auto saved = inst.scalars;
      std::fill(inst.scalars.begin(), inst.scalars.end(), Fr::zero());
      EXPECT_TRUE(run_msm(inst, pool, opt).is_infinity());
      std::fill(inst.scalars.begin(), inst.scalars.end(), Fr::one());
      check("all ones");
      std::fill(inst.scalars.begin(), inst.scalars.end(), fr_minus_one());
      check("all r-1");
      std::fill(inst.scalars.begin(), inst.scalars.end(), Fr::from_u64(2));
      check("all 2 (one bucket)");
      inst.scalars = saved;
      for (size_t i = 0; i < n; i += 3) inst.scalars[i] = Fr::one();
      for (size_t i = 1; i < n; i += 5) inst.scalars[i] = Fr::zero();
      check("mixed 0/1/random");
      inst.scalars = saved;
    }
  }
}

TEST(MsmG1, EdgeCases) {
  edge_cases<G1>(300);
}
TEST(MsmG2, EdgeCases) {
  edge_cases<G2>(400);
}

// Identical points with identical scalars: in the batch-affine path every addition after the
// first lands in an occupied bucket with the same point (doubling), then +P and -P cancel.
template <class J>
void repeated_points(uint64_t seed) {
  ThreadPool pool(2);
  test::TestRng rng(seed);
  const auto base = make_instance<J>(4, seed);
  const size_t n = 700;
  Instance<J> inst;
  for (size_t i = 0; i < n; ++i) {
    const size_t k = i % 4;
    const bool negate = (i / 4) % 3 == 2;  // some -P next to P
    inst.points.push_back(negate ? -base.points[k] : base.points[k]);
    inst.dlogs.push_back(negate ? -base.dlogs[k] : base.dlogs[k]);
    inst.scalars.push_back(i % 7 == 0 ? rng.field<Fr>() : base.scalars[k]);
  }
  inst.points[5] = J::Affine::infinity();
  inst.points[6] = J::Affine::infinity();
  const J expected = dlog_oracle(inst);
  for (unsigned c : {4u, 7u, 10u}) {
    for (size_t batch : {size_t(4), size_t(64), size_t(0)}) {
      EXPECT_EQ(run_msm(inst, pool, batch_affine(c, batch)), expected) << c << " " << batch;
    }
  }
  MsmOptions ref;
  ref.path = MsmOptions::Path::kReference;
  EXPECT_EQ(run_msm(inst, pool, ref), expected);
  EXPECT_EQ(run_msm(inst, pool), expected);
}

TEST(MsmG1, RepeatedAndOppositePoints) {
  repeated_points<G1>(500);
}
TEST(MsmG2, RepeatedAndOppositePoints) {
  repeated_points<G2>(600);
}

// Terms with equal scalars merged (core/msm/equal_scalars.hpp): groups of every size 1 to 13,
// a group whose points cancel (P, -P), one whose sum needs a doubling (P twice), small and
// field-sized scalars; the remaining scalars are distinct, in their first order, and the sum is
// unchanged.
template <class J>
void merge_equal_scalars_cases(uint64_t seed) {
  using Affine = typename J::Affine;
  test::TestRng rng(seed);
  const auto inst = make_instance<J>(120, seed);
  // 42 values: value g < 13 on g + 1 terms (1 + 2 + ... + 13 = 91), the other 29 on one each;
  // the 120 terms take them in a scattered order (stride 7).
  std::vector<Fr> values;
  for (int i = 0; i < 42; ++i) values.push_back(i < 5 ? Fr::from_u64(2 + i) : rng.field<Fr>());
  std::vector<size_t> value_of;
  for (size_t g = 0; g < 13; ++g) value_of.insert(value_of.end(), g + 1, g);
  for (size_t g = 13; g < 42; ++g) value_of.push_back(g);
  std::vector<Affine> points = inst.points;
  std::vector<Fr> scalars, dlogs = inst.dlogs;
  for (size_t i = 0; i < points.size(); ++i) scalars.push_back(values[value_of[(i * 7) % 120]]);
  const Fr cancel = rng.field<Fr>(), twice = rng.field<Fr>();
  points.push_back(inst.points[3]);  // with -points[3], the same scalar: the group cancels
  dlogs.push_back(inst.dlogs[3]);
  scalars.push_back(cancel);
  points.push_back(-inst.points[3]);
  dlogs.push_back(-inst.dlogs[3]);
  scalars.push_back(cancel);
  points.push_back(inst.points[7]);  // the same point twice: its sum is a doubling
  dlogs.push_back(inst.dlogs[7]);
  scalars.push_back(twice);
  points.push_back(inst.points[7]);
  dlogs.push_back(inst.dlogs[7]);
  scalars.push_back(twice);
  const size_t n = points.size();

  SecureVector<const Affine*> pts;
  SecureVector<U256> canonical;
  Fr expected = Fr::zero();
  for (size_t i = 0; i < n; ++i) {
    pts.push_back(&points[i]);
    canonical.push_back(scalars[i].to_u256());
    expected += scalars[i] * dlogs[i];
  }
  SecureVector<Affine> merged;
  const size_t removed = msm_detail::merge_equal_scalars(pts, canonical, merged);
  ASSERT_EQ(pts.size(), canonical.size());
  // The 42 values, and the two groups above: one term left for the doubling one, none for the
  // cancelling one.
  EXPECT_EQ(pts.size(), 43u);
  EXPECT_EQ(removed, n - 43);
  for (size_t i = 0; i < canonical.size(); ++i) {
    for (size_t j = 0; j < i; ++j) EXPECT_NE(canonical[i], canonical[j]);
  }
  EXPECT_EQ(canonical[0], scalars[0].to_u256());  // the first term's group stays first
  J sum = J::infinity();
  for (size_t i = 0; i < pts.size(); ++i) {
    ASSERT_FALSE(pts[i]->is_infinity());
    sum += pts[i]->to_jacobian().mul_vartime(canonical[i]);
  }
  EXPECT_EQ(sum, J::generator().mul_vartime(expected.to_u256()));

  // Nothing repeated: nothing changes.
  SecureVector<const Affine*> distinct = {&points[0], &points[1]};
  SecureVector<U256> two = {values[5].to_u256(), values[6].to_u256()};
  EXPECT_EQ(msm_detail::merge_equal_scalars(distinct, two, merged), 0u);
  EXPECT_EQ(distinct.size(), 2u);

  // Through the MSM, on its paths, against the oracle and with merging switched off.
  Instance<J> whole{points, scalars, dlogs};
  ThreadPool pool(2);
  const J oracle = dlog_oracle(whole);
  MsmOptions off;
  off.merge_equal_scalars = false;
  EXPECT_EQ(run_msm(whole, pool, off), oracle);
  EXPECT_EQ(run_msm(whole, pool), oracle);
  for (unsigned c : {4u, 8u}) EXPECT_EQ(run_msm(whole, pool, batch_affine(c)), oracle) << c;
  EXPECT_EQ(run_msm(whole, sequential_pool()), oracle);
}

TEST(MsmG1, EqualScalarsMerged) {
  merge_equal_scalars_cases<G1>(1400);
}
TEST(MsmG2, EqualScalarsMerged) {
  merge_equal_scalars_cases<G2>(1500);
}

// The equal-scalar merge's slots spread structured scalars as they spread random ones: no slot
// of the half-full table is the start of more than a few of them (with two of the four words
// hashed every x * 2^64 started in one slot, and the merge's probing was quadratic).
TEST(Msm, EqualScalarSlotsSpreadStructuredScalars) {
  constexpr unsigned kLog = 17;
  constexpr size_t kTerms = size_t(1) << (kLog - 1);
  std::vector<std::vector<U256>> families(5);
  for (uint64_t i = 1; i <= kTerms; ++i) {
    U256 shifted{}, negated{};
    shifted.w[1] = i;  // i * 2^64
    sub_borrow(negated, Fr::kModulus, shifted);
    U256 high{};
    high.w[2] = i;  // i * 2^128
    U256 top{};
    top.w[3] = i & 0x0fffffffffffffffull;  // i * 2^192
    families[0].push_back(shifted);
    families[1].push_back(negated);
    families[2].push_back(high);
    families[3].push_back(top);
    families[4].push_back(U256::from_u64(i));
  }
  for (size_t f = 0; f < families.size(); ++f) {
    std::vector<uint32_t> load(size_t(1) << kLog, 0);
    uint32_t most = 0;
    for (const U256& s : families[f]) {
      most = std::max(most, ++load[msm_detail::equal_scalar_slot(s, kLog)]);
    }
    EXPECT_LE(most, 12u) << "family " << f;
  }
}

TEST(MsmG1, FastPathMatchesReference) {
  ThreadPool pool(2);
  const auto inst = make_instance<G1>(3000, 700);
  MsmOptions ref;
  ref.path = MsmOptions::Path::kReference;
  const G1 expected = run_msm(inst, pool, ref);
  EXPECT_EQ(expected, dlog_oracle(inst));
  // (c above 16 is taken as 16: the digits are int16_t.)
  for (unsigned c : {5u, 8u, 11u, 13u, 16u, 20u}) {
    EXPECT_EQ(run_msm(inst, pool, batch_affine(c)), expected) << "c=" << c;
  }
  MsmOptions wide = ref;
  wide.window_bits = 20;
  EXPECT_EQ(run_msm(inst, pool, wide), expected);
  // Tiny batches and single-window passes: many deferred additions and flushes.
  MsmOptions tiny = batch_affine(9, 8);
  tiny.windows_per_pass = 1;
  EXPECT_EQ(run_msm(inst, pool, tiny), expected);
}

TEST(MsmG2, FastPathMatchesReference) {
  ThreadPool pool(2);
  const auto inst = make_instance<G2>(1200, 800);
  MsmOptions ref;
  ref.path = MsmOptions::Path::kReference;
  const G2 expected = run_msm(inst, pool, ref);
  EXPECT_EQ(expected, dlog_oracle(inst));
  for (unsigned c : {6u, 10u, 12u}) {
    EXPECT_EQ(run_msm(inst, pool, batch_affine(c)), expected) << "c=" << c;
  }
}

// Where the build has a lane kernel for batch-affine additions (AVX-512 IFMA when the CPU has
// it), the G1 and G2 tests above run on it; these run the same checks on the scalar code too
// (elsewhere they repeat them).
class ScopedLanes {
 public:
  explicit ScopedLanes(bool on) : was_(batch_lanes_enabled()) { set_batch_lanes_enabled(on); }
  ~ScopedLanes() { set_batch_lanes_enabled(was_); }

 private:
  bool was_;
};

TEST(MsmG1, ScalarKernelPassesTheSameChecks) {
  ScopedLanes off(false);
  ASSERT_FALSE(batch_lanes_enabled());
  batch_add_pairs_cases<G1>(21);
  random_sizes_against_oracle<G1>({65, 1000, 5000}, 0, 100);
  edge_cases<G1>(300);
  repeated_points<G1>(500);
}

TEST(MsmG2, ScalarKernelPassesTheSameChecks) {
  ScopedLanes off(false);
  ASSERT_FALSE(batch_lanes_enabled());
  batch_add_pairs_cases<G2>(22);
  random_sizes_against_oracle<G2>({65, 700}, 0, 200);
  edge_cases<G2>(400);
  repeated_points<G2>(600);
}

TEST(Msm, ThreadCountDoesNotChangeTheResult) {
  const auto g1 = make_instance<G1>(4000, 900);
  const auto g2 = make_instance<G2>(1500, 901);
  const G1 one_thread =
      msm_g1(g1.points.data(), g1.scalars.data(), g1.points.size(), sequential_pool());
  const G2 one_thread2 =
      msm_g2(g2.points.data(), g2.scalars.data(), g2.points.size(), sequential_pool());
  EXPECT_EQ(one_thread, dlog_oracle(g1));
  EXPECT_EQ(one_thread2, dlog_oracle(g2));
  for (unsigned threads : {2u, 3u, kManyThreads}) {
    ThreadPool pool(threads);
    EXPECT_EQ(msm_g1(g1.points.data(), g1.scalars.data(), g1.points.size(), pool), one_thread)
        << threads;
    EXPECT_EQ(msm_g2(g2.points.data(), g2.scalars.data(), g2.points.size(), pool), one_thread2)
        << threads;
    // Many tasks: windows split into groups and points into chunks.
    MsmOptions split = batch_affine(10);
    split.tasks_per_thread = 8;
    EXPECT_EQ(run_msm(g1, pool, split), one_thread) << threads;
  }
}

// The GLV split against the plain fast path and the reference, G1 and G2 (whose test points are
// multiples of the generator, so in the order-r subgroup), with edge scalars mixed in, on one
// and two threads.
template <class J>
void glv_matches_plain(const std::vector<size_t>& sizes, uint64_t seed) {
  ThreadPool pool(2);
  for (size_t n : sizes) {
    auto inst = make_instance<J>(n, seed + n);
    for (size_t i = 0; i < n; i += 11) inst.scalars[i] = fr_minus_one();
    for (size_t i = 5; i < n; i += 13) inst.scalars[i] = msm_detail::kGlvLambda;
    for (size_t i = 7; i < n; i += 17) inst.scalars[i] = Fr::from_u64(i);
    MsmOptions plain, glv;
    plain.endomorphism = MsmOptions::Endomorphism::kOff;
    glv.endomorphism = MsmOptions::Endomorphism::kOn;
    const J expected = dlog_oracle(inst);
    EXPECT_EQ(run_msm(inst, pool, plain), expected) << "n=" << n;
    for (ThreadPool* p : {&pool, &sequential_pool()}) {
      EXPECT_EQ(run_msm(inst, *p, glv), expected) << "n=" << n << " threads=" << p->size();
    }
    for (unsigned c : {5u, 9u, 13u}) {
      MsmOptions o = batch_affine(c);
      o.endomorphism = MsmOptions::Endomorphism::kOn;
      EXPECT_EQ(run_msm(inst, pool, o), expected) << "n=" << n << " c=" << c;
    }
  }
}

TEST(MsmG1, GlvMatchesPlain) {
  glv_matches_plain<G1>({64, 100, 1000, 4097}, 1000);
}
TEST(MsmG2, GlvMatchesPlain) {
  glv_matches_plain<G2>({64, 300, 1500}, 1100);
}

// An MSM in two parts (the prover's C and H queries as one) is the sum of the two MSMs, on
// every path: batch-affine with and without GLV, few terms (Jacobian), the reference, an empty
// part, and on one and two threads.
TEST(MsmG1, TwoPartsAreTheSumOfTheirMsms) {
  ThreadPool pool(2);
  for (auto [n1, n2] :
       {std::pair<size_t, size_t>{3000, 1200}, {40, 10}, {0, 500}, {700, 0}, {1, 1}}) {
    const auto a = make_instance<G1>(n1, 1200 + n1), b = make_instance<G1>(n2, 1300 + n2);
    const G1 expected =
        (n1 ? dlog_oracle(a) : G1::infinity()) + (n2 ? dlog_oracle(b) : G1::infinity());
    std::vector<MsmOptions> paths(4);
    paths[1].endomorphism = MsmOptions::Endomorphism::kOff;
    paths[2].path = MsmOptions::Path::kReference;
    paths[3] = batch_affine(9);
    for (const MsmOptions& opt : paths) {
      for (ThreadPool* p : {&sequential_pool(), &pool}) {
        auto steps = msm_g1_steps(a.points.data(), a.scalars.data(), n1, b.points.data(),
                                  b.scalars.data(), n2, opt);
        const size_t tasks = steps->prepare(*p);
        p->run_tasks(tasks, [&](size_t t) { steps->run(t); });
        EXPECT_EQ(steps->finish(), expected) << n1 << "+" << n2 << " threads " << p->size();
      }
    }
  }
}

// A job's sum is of the caller's scalars (a proof's witness, before r and s blind it): none of
// it stays in the job's memory once the job has answered, nor once it is destroyed unfinished
// (a cancelled proof). The job lives in a buffer of this test, searched afterwards.
TEST(Msm, AJobLeavesNoneOfItsSumInItsMemory) {
  using Job = msm_detail::MsmJob<Fp, G1Params>;
  alignas(Job) unsigned char memory[sizeof(Job)];
  const auto holds = [&](const G1& sum) {
    const unsigned char* x = reinterpret_cast<const unsigned char*>(&sum.X);
    return std::search(memory, memory + sizeof(memory), x, x + sizeof(sum.X)) !=
           memory + sizeof(memory);
  };
  for (const bool ones : {false, true}) {
    auto inst = make_instance<G1>(300, 61);
    if (ones) inst.scalars.assign(inst.scalars.size(), Fr::one());  // summed by prepare()
    const G1 expected = dlog_oracle(inst);
    std::memset(memory, 0, sizeof(memory));
    Job* job = new (memory) Job(inst.points.data(), inst.scalars.data(), inst.points.size());
    size_t tasks = job->prepare(sequential_pool());
    for (size_t t = 0; t < tasks; ++t) job->run(t);
    const G1 sum = job->finish();
    EXPECT_EQ(sum, expected);
    EXPECT_FALSE(holds(sum)) << "finished, ones " << ones;
    job->~Job();
    // The same job destroyed before it answers: with every scalar 1 its sum is made by prepare()
    // (the same words as above), and is in the job until the job is destroyed.
    if (!ones) continue;
    job = new (memory) Job(inst.points.data(), inst.scalars.data(), inst.points.size());
    tasks = job->prepare(sequential_pool());
    EXPECT_EQ(tasks, 0u);
    EXPECT_TRUE(holds(sum)) << "the search finds the sum in a live job";
    job->~Job();
    EXPECT_FALSE(holds(sum)) << "destroyed unfinished";
  }
}

// FixedBaseMsm (the verifier's public-input sum): the same sums as the oracle, on both of its
// paths (fewer than 64 nonzero digits: Jacobian buckets; more: batch-affine), for any window.
TEST(FixedBaseMsm, MatchesTheOracle) {
  for (size_t n : {size_t(0), size_t(1), size_t(3), size_t(50), size_t(130)}) {
    auto inst = make_instance<G1>(n, 1000 + n);
    for (unsigned c : {4u, 8u, 11u}) {
      const FixedBaseMsm<Fp, G1Params> fixed(inst.points, c);
      ASSERT_EQ(fixed.size(), n);
      EXPECT_EQ(fixed.eval(inst.scalars), dlog_oracle(inst)) << "n=" << n << " c=" << c;
    }
  }
}

TEST(FixedBaseMsm, EdgeScalarsAndPoints) {
  auto inst = make_instance<G1>(60, 1100);
  const FixedBaseMsm<Fp, G1Params> fixed(inst.points);
  auto check = [&](const char* what) {
    EXPECT_EQ(fixed.eval(inst.scalars), dlog_oracle(inst)) << what;
  };
  const auto saved = inst.scalars;
  std::fill(inst.scalars.begin(), inst.scalars.end(), Fr::zero());
  EXPECT_TRUE(fixed.eval(inst.scalars).is_infinity());
  std::fill(inst.scalars.begin(), inst.scalars.end(), Fr::one());
  check("all ones (one bucket)");
  std::fill(inst.scalars.begin(), inst.scalars.end(), fr_minus_one());
  check("all r-1 (every digit nonzero, top carry)");
  inst.scalars = saved;
  inst.scalars[3] = Fr::zero();
  inst.scalars[4] = Fr::from_u64(2);
  check("mixed");
  // A base at infinity contributes nothing; a repeated base and its negation cancel.
  inst.points[7] = G1Affine::infinity();
  inst.points[8] = inst.points[9];
  inst.dlogs[8] = inst.dlogs[9];
  inst.points[10] = -inst.points[9];
  inst.dlogs[10] = -inst.dlogs[9];
  inst.scalars[10] = inst.scalars[9];
  const FixedBaseMsm<Fp, G1Params> odd(inst.points);
  EXPECT_EQ(odd.eval(inst.scalars), dlog_oracle(inst));
}

}  // namespace
}  // namespace enygma
