// core/field/wasm/f64_lanes.hpp and core/msm/batch_affine_f64.cpp on WebAssembly relaxed SIMD in
// V8: the checks of tests/f64_lanes_test.cpp (tests/support/f64_lanes_checks.hpp,
// batch_add_checks.hpp), compressed points decoded with the lanes' square roots against the
// scalar decoding, that the start-up check switched the lane kernel on, then the time of a
// lane product against the build's scalar Fp multiplication. Built with -mrelaxed-simd and renamed
// by scripts/wasm_relaxed_simd.py; run by CTest with Node's --experimental-wasm-relaxed-simd. Exit
// status 0 when every product is right (the times are printed, not judged).
#include <chrono>
#include <cstdio>

#include "core/curve/point_encoding.hpp"
#include "core/field/cpu_features.hpp"
#include "core/field/fp.hpp"
#include "core/field/fr.hpp"
#include "core/field/wasm/f64_lanes.hpp"
#include "core/msm/batch_affine.hpp"
#include "support/batch_add_checks.hpp"
#include "support/f64_lanes_checks.hpp"

using namespace enygma;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Four independent chains in each case: two lane pairs, and four scalar elements.
void time_products() {
  test::TestRng rng(7);
  U256 w[8];
  for (auto& x : w) {
    const Fp f = rng.field<Fp>();
    x = U256{{f.limbs[0], f.limbs[1], f.limbs[2], f.limbs[3]}};
  }
  f64_lanes::Fe2 x0 = f64_lanes::load(w[0].w, w[1].w), x1 = f64_lanes::load(w[2].w, w[3].w);
  const f64_lanes::Fe2 y = f64_lanes::load(w[4].w, w[5].w);
  Fp s0 = rng.field<Fp>(), s1 = rng.field<Fp>(), s2 = rng.field<Fp>(), s3 = rng.field<Fp>();
  const Fp t = rng.field<Fp>();
  constexpr int kSteps = 200000;
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kSteps; ++i) {
      f64_lanes::mul(x0, x0, y);
      f64_lanes::mul(x1, x1, y);
    }
    const double lanes = seconds_since(t0) / (4.0 * kSteps) * 1e9;
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kSteps; ++i) {
      s0 = s0 * t;
      s1 = s1 * t;
      s2 = s2 * t;
      s3 = s3 * t;
    }
    const double scalar = seconds_since(t0) / (4.0 * kSteps) * 1e9;
    std::printf("product: f64 lanes %.1f ns, scalar Fp %.1f ns (4 chains each)\n", lanes, scalar);
  }
  U256 out[2];
  f64_lanes::store(out[0].w, out[1].w, x0);
  std::printf("(%llx %llx)\n", (unsigned long long)(out[0].w[0] ^ out[1].w[0]),
              (unsigned long long)(s0 + s1 + s2 + s3).limbs[0]);
}

// A batch of 512 additions: the lane kernel against the scalar batch (one inversion each).
template <class J>
void time_batch_additions(const char* group) {
  using Affine = typename J::Affine;
  using F = decltype(Affine{}.x);
  constexpr size_t kAdds = 512;
  const auto a = test::random_points<J>(kAdds, 1), b = test::random_points<J>(kAdds, 2);
  std::vector<Affine> out(kAdds);
  std::vector<msm_detail::AffineAddJob> jobs(kAdds);
  std::vector<msm_detail::PairAdd<Affine>> ops(kAdds);
  for (size_t j = 0; j < kAdds; ++j) {
    jobs[j] = {msm_detail::words_of(a[j].x), msm_detail::words_of(b[j].x),
               msm_detail::words_of(b[j].y), msm_detail::words_of(out[j].x)};
    ops[j] = {a[j], b[j], &out[j]};
  }
  SecureVector<uint64_t> scratch;
  msm_detail::BatchAddScratch<F> batch_scratch;
  constexpr int kRounds = 40;
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < kRounds; ++r) msm_detail::batch_add_lanes<F>(jobs.data(), kAdds, scratch);
    const double lanes = seconds_since(t0) / (kRounds * kAdds) * 1e9;
    set_batch_lanes_enabled(false);
    t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < kRounds; ++r) msm_detail::batch_add_pairs(ops.data(), kAdds, batch_scratch);
    const double scalar = seconds_since(t0) / (kRounds * kAdds) * 1e9;
    set_batch_lanes_enabled(true);
    std::printf("%s addition in a batch of %zu: f64 lanes %.0f ns, scalar %.0f ns\n", group, kAdds,
                lanes, scalar);
  }
}

// Compressed points decoded with their square roots on the lanes (four exponentiations at a
// time), against the scalar decoding: an empty string when every point matches.
std::string check_decompression() {
  test::TestRng rng(11);
  constexpr size_t kPoints = 67;  // two groups of 32 and a partial one
  std::vector<uint8_t> b1(kPoints * kG1CompressedBytes), b2(kPoints * kG2CompressedBytes);
  for (size_t i = 0; i < kPoints; ++i) {
    const Fr s = rng.field<Fr>();
    g1_to_compressed(G1::generator().mul_vartime(s.to_u256()).to_affine(),
                     b1.data() + i * kG1CompressedBytes);
    g2_to_compressed(G2::generator().mul_vartime(s.to_u256()).to_affine(),
                     b2.data() + i * kG2CompressedBytes);
  }
  std::vector<G1Affine> lanes1(kPoints), scalar1(kPoints);
  std::vector<G2Affine> lanes2(kPoints), scalar2(kPoints);
  const bool ok = g1_from_compressed_batch(b1, lanes1).ok &&
                  g2_from_compressed_batch(b2, lanes2, G2Check::kSubgroup).ok;
  set_batch_lanes_enabled(false);
  const bool scalar_ok = g1_from_compressed_batch(b1, scalar1).ok &&
                         g2_from_compressed_batch(b2, scalar2, G2Check::kSubgroup).ok;
  set_batch_lanes_enabled(true);
  if (!ok || !scalar_ok) return "a batch failed to decode";
  if (lanes1 != scalar1) return "G1 points differ";
  if (lanes2 != scalar2) return "G2 points differ";
  // The exponentiations alone, with edge values among them.
  std::vector<Fp> x(9), want(9);
  const U256 e = rng.field<Fp>().to_u256();
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = i == 0 ? Fp::zero() : i == 1 ? Fp::one() : i == 2 ? -Fp::one() : rng.field<Fp>();
    want[i] = x[i].pow(e);
  }
  encoding_detail::fp_pow_many_f64(x.data(), x.size(), e);
  if (x != want) return "an exponentiation differs";
  return "";
}

// The square roots' exponentiations, 1,024 of them, on the lanes and one by one.
void time_exponentiations() {
  test::TestRng rng(12);
  std::vector<Fp> x(1024);
  for (Fp& v : x) v = rng.field<Fp>();
  const U256 e = (-Fp::one()).to_u256();  // a full-length exponent, as the square roots'
  for (int rep = 0; rep < 3; ++rep) {
    std::vector<Fp> a = x, b = x;
    auto t0 = std::chrono::steady_clock::now();
    encoding_detail::fp_pow_many(a.data(), a.size(), e);
    const double lanes = seconds_since(t0) / double(x.size()) * 1e6;
    set_batch_lanes_enabled(false);
    t0 = std::chrono::steady_clock::now();
    encoding_detail::fp_pow_many(b.data(), b.size(), e);
    const double scalar = seconds_since(t0) / double(x.size()) * 1e6;
    set_batch_lanes_enabled(true);
    std::printf("exponentiation (254 bits): f64 lanes %.1f us, scalar %.1f us%s\n", lanes, scalar,
                a == b ? "" : " (different results!)");
  }
}

}  // namespace

int main() {
  if (!f64_lanes::fused_fma_works()) {
    std::printf("f64x2.relaxed_madd is not fused on this engine and CPU\n");
    return 1;
  }
  for (const auto& [field, r] : {std::pair{"Fp", test::check_f64_lanes<Fp>(100000)},
                                 std::pair{"Fr", test::check_f64_lanes<Fr>(100000)}}) {
    std::printf("f64 lane products in %s: %zu checked, %zu wrong%s%s\n", field, r.checked, r.wrong,
                r.wrong ? ", first: " : "", r.first_wrong.c_str());
    if (r.wrong || r.checked == 0) return 1;
  }
  const std::string g1 = test::batch_additions_match_the_group_law<G1>(
      [](const msm_detail::AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& s) {
        msm_detail::g1_batch_add_f64(jobs, k, s);
      });
  const std::string g2 = test::batch_additions_match_the_group_law<G2>(
      [](const msm_detail::AffineAddJob* jobs, size_t k, SecureVector<uint64_t>& s) {
        msm_detail::g2_batch_add_f64(jobs, k, s);
      });
  std::printf("batch-affine additions: G1 %s, G2 %s\n", g1.empty() ? "right" : g1.c_str(),
              g2.empty() ? "right" : g2.c_str());
  if (!g1.empty() || !g2.empty()) return 1;
  const std::string fp2 = test::check_fp2_many_f64();
  std::printf("Fp2 products and squares: %s\n", fp2.empty() ? "right" : fp2.c_str());
  if (!fp2.empty()) return 1;
  const std::string roots = check_decompression();
  std::printf("compressed points' square roots: %s\n", roots.empty() ? "right" : roots.c_str());
  if (!roots.empty()) return 1;
  // The module's switch: on at start here (this program links the kernel).
  std::printf("lane kernel in use: %s\n", batch_lanes_enabled() ? "yes" : "no");
  if (!batch_lanes_enabled()) return 1;
  time_products();
  time_exponentiations();
  time_batch_additions<G1>("G1");
  time_batch_additions<G2>("G2");
  return 0;
}
