// The pairing and its parts: tower arithmetic, Miller loop, final exponentiation, one pairing,
// and the Groth16 verifier shape (3 pairs, 2 of them with prepared G2 points).
#include <benchmark/benchmark.h>

#include <array>
#include <vector>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/pairing/fp12.hpp"
#include "core/pairing/pairing.hpp"

namespace {

using namespace enygma;

U256 scalar(uint64_t seed) {
  return U256{{seed * 0x9e3779b97f4a7c15ull, seed ^ 0x1234567, seed + 77, 0x0fffffff}};
}
G1Affine g1(uint64_t seed) {
  return G1::generator().mul_vartime(scalar(seed)).to_affine();
}
G2Affine g2(uint64_t seed) {
  return G2::generator().mul_vartime(scalar(seed)).to_affine();
}

Fp12 sample() {
  return pairing(g1(1), g2(2));
}

// The pairing benchmarks cycle through kInputs different inputs: repeated on one input, the
// branch predictor learns the data-dependent branches of a run (measured: code with a branchy
// modular addition looked several percent faster on one input than on varied ones).
constexpr size_t kInputs = 16;

// kInputs pairs of points: G1 points from seeds p_seed + 100 i, G2 points from q_seed + 100 i.
struct PairInputs {
  std::vector<G1Affine> p;
  std::vector<G2Affine> q;
};
PairInputs pair_inputs(uint64_t p_seed, uint64_t q_seed) {
  PairInputs in;
  for (uint64_t i = 0; i < kInputs; ++i) {
    in.p.push_back(g1(p_seed + 100 * i));
    in.q.push_back(g2(q_seed + 100 * i));
  }
  return in;
}

// The tower's small steps, chained (latency): an Fp2 addition, a multiplication by xi = 9 + u,
// and the nine independent Fp2 squarings of a cyclotomic squaring (fp2_square_many: the lanes
// where they run).
void BM_Fp2Add(benchmark::State& state) {
  const Fp12 s = sample();
  Fp2 a = s.c0.c0;
  const Fp2 b = s.c1.c1;
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i) a = a + b;
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 100);
}

void BM_Fp2MulByXi(benchmark::State& state) {
  Fp2 a = sample().c0.c0;
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i) a = a.mul_by_xi();
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 100);
}

void BM_Fp2SquareMany9(benchmark::State& state) {
  const Fp12 s = sample();
  Fp2 x[9] = {s.c0.c0, s.c0.c1, s.c0.c2, s.c1.c0, s.c1.c1, s.c1.c2, s.c0.c0, s.c1.c1, s.c0.c2};
  const Fp2* in[9];
  for (int i = 0; i < 9; ++i) in[i] = &x[i];
  for (auto _ : state) {
    for (int i = 0; i < 10; ++i) fp2_square_many(x, in, 9);
    benchmark::DoNotOptimize(x);
  }
  state.SetItemsProcessed(state.iterations() * 10);
}

void BM_Fp12Mul(benchmark::State& state) {
  Fp12 a = sample(), b = a.square();
  for (auto _ : state) {
    for (int i = 0; i < 10; ++i) a = a * b;
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 10);
}

void BM_Fp12Square(benchmark::State& state) {
  Fp12 a = sample();
  for (auto _ : state) {
    for (int i = 0; i < 10; ++i) a = a.square();
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 10);
}

void BM_Fp12CyclotomicSquare(benchmark::State& state) {
  Fp12 a = sample();
  for (auto _ : state) {
    for (int i = 0; i < 10; ++i) a = a.cyclotomic_square();
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 10);
}

void BM_Fp12MulBy034(benchmark::State& state) {
  Fp12 a = sample();
  const Fp2 l0 = a.c0.c1, l1 = a.c1.c2, l3 = a.c0.c2;
  for (auto _ : state) {
    for (int i = 0; i < 10; ++i) a = a.mul_by_034(l0, l1, l3);
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 10);
}

void BM_Fp12MulByMonicLine(benchmark::State& state) {
  Fp12 a = sample();
  const Fp2 l1 = a.c1.c2, l3 = a.c0.c2;
  for (auto _ : state) {
    for (int i = 0; i < 10; ++i) a = a.mul_by_monic_line(l1, l3);
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 10);
}

void BM_Fp12Inverse(benchmark::State& state) {
  Fp12 a = sample();
  for (auto _ : state) {
    a = a.inverse();
    benchmark::DoNotOptimize(a);
  }
}

void BM_MillerLoop(benchmark::State& state) {
  const PairInputs in = pair_inputs(3, 4);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(miller_loop(std::span<const G1Affine>(&in.p[i], 1),
                                         std::span<const G2Affine>(&in.q[i], 1)));
    i = (i + 1) % kInputs;
  }
}

void BM_MillerLoopPrepared(benchmark::State& state) {
  const PairInputs in = pair_inputs(3, 4);
  std::vector<G2Prepared> q;
  for (const G2Affine& x : in.q) q.push_back(prepare_g2(x));
  size_t i = 0;
  for (auto _ : state) {
    const G2Prepared* qp = &q[i];
    benchmark::DoNotOptimize(miller_loop(std::span<const G1Affine>(&in.p[i], 1),
                                         std::span<const G2Prepared* const>(&qp, 1)));
    i = (i + 1) % kInputs;
  }
}

void BM_PrepareG2(benchmark::State& state) {
  const PairInputs in = pair_inputs(3, 4);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(prepare_g2(in.q[i]));
    i = (i + 1) % kInputs;
  }
}

void BM_FinalExponentiation(benchmark::State& state) {
  const PairInputs in = pair_inputs(5, 6);
  std::vector<Fp12> f;
  for (size_t i = 0; i < kInputs; ++i) {
    f.push_back(miller_loop(std::span<const G1Affine>(&in.p[i], 1),
                            std::span<const G2Affine>(&in.q[i], 1)));
  }
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(final_exponentiation(f[i]));
    i = (i + 1) % kInputs;
  }
}

void BM_Pairing(benchmark::State& state) {
  const PairInputs in = pair_inputs(7, 8);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(pairing(in.p[i], in.q[i]));
    i = (i + 1) % kInputs;
  }
}

// e(A, B) e(L, gamma) e(C, delta) with gamma, delta prepared: the Groth16 verification (A, B,
// L and C vary over kInputs sets; gamma and delta are the key's).
void BM_VerifierShape(benchmark::State& state) {
  std::vector<std::array<G1Affine, 3>> ps;
  std::vector<G2Affine> b;
  for (uint64_t i = 0; i < kInputs; ++i) {
    ps.push_back({g1(9 + 100 * i), g1(10 + 100 * i), g1(11 + 100 * i)});
    b.push_back(g2(12 + 100 * i));
  }
  // As the verifier prepares them (core/groth16/verifier.cpp).
  const G2Prepared gamma = prepare_g2_monic(g2(13)), delta = prepare_g2_monic(g2(14));
  const Fp12 target = pairing(g1(15), g2(16));
  size_t i = 0;
  for (auto _ : state) {
    const G2Prepared bp = prepare_g2(b[i]);
    const G2Prepared* qs[3] = {&bp, &gamma, &delta};
    benchmark::DoNotOptimize(final_exponentiation(miller_loop(ps[i], qs)) == target);
    i = (i + 1) % kInputs;
  }
}

void BM_MultiPairing3Unprepared(benchmark::State& state) {
  const G1Affine ps[3] = {g1(9), g1(10), g1(11)};
  const G2Affine qs[3] = {g2(12), g2(13), g2(14)};
  for (auto _ : state) benchmark::DoNotOptimize(pairing_product_is_one(ps, qs));
}

BENCHMARK(BM_Fp2Add)->Name("fp2_add_x100");
BENCHMARK(BM_Fp2MulByXi)->Name("fp2_mul_by_xi_x100");
BENCHMARK(BM_Fp2SquareMany9)->Name("fp2_square_many_9_x10");
BENCHMARK(BM_Fp12Mul)->Name("fp12_mul_x10");
BENCHMARK(BM_Fp12Square)->Name("fp12_square_x10");
BENCHMARK(BM_Fp12CyclotomicSquare)->Name("fp12_cyclotomic_square_x10");
BENCHMARK(BM_Fp12MulBy034)->Name("fp12_mul_by_line_x10");
BENCHMARK(BM_Fp12MulByMonicLine)->Name("fp12_mul_by_monic_line_x10");
BENCHMARK(BM_Fp12Inverse)->Name("fp12_inverse")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PrepareG2)->Name("prepare_g2")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MillerLoop)->Name("miller_loop")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MillerLoopPrepared)->Name("miller_loop_prepared")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FinalExponentiation)->Name("final_exponentiation")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Pairing)->Name("pairing")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_VerifierShape)->Name("verifier_3_pairs_2_prepared")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MultiPairing3Unprepared)
    ->Name("pairing_product_3_pairs")
    ->Unit(benchmark::kMicrosecond);

}  // namespace
