// G1/G2 group operations, Fp2 arithmetic, the G2 subgroup check and point decompression.
// Group operations run as dependent chains (latency, what scalar multiplication sees).
#include <benchmark/benchmark.h>

#include <vector>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/curve/g2_subgroup.hpp"
#include "core/curve/point_encoding.hpp"
#include "core/parallel/thread_pool.hpp"

namespace {

using namespace enygma;

U256 scalar(uint64_t seed) {
  return U256{{seed * 0x9e3779b97f4a7c15ull, seed ^ 0x1234567, seed + 77, 0x0fffffff}};
}

void BM_Fp2Mul(benchmark::State& state) {
  Fp2 a = {Fp::from_u64(3), Fp::from_u64(5)}, b = Fp2{Fp::from_u64(7), Fp::from_u64(11)}.inverse();
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i) a = a * b;
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 100);
}

// The three-reduction Karatsuba product (the portable path; with ADX, operator* reduces
// each coefficient once instead).
void BM_Fp2MulKaratsuba(benchmark::State& state) {
  Fp2 a = {Fp::from_u64(3), Fp::from_u64(5)}, b = Fp2{Fp::from_u64(7), Fp::from_u64(11)}.inverse();
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i) a = Fp2::mul_karatsuba(a, b);
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 100);
}

void BM_Fp2Square(benchmark::State& state) {
  Fp2 a = Fp2{Fp::from_u64(3), Fp::from_u64(5)}.inverse();
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i) a = a.square();
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 100);
}

// n independent Fp2 products (range(0)) as the pairing's Fp6/Fp12 steps make them, one group
// after another, each group depending on the previous one: fp2_mul_many (eight lanes at a time
// on the IFMA kernel where it runs) against the scalar products one by one (range(1) = 0).
void BM_Fp2MulMany(benchmark::State& state) {
  const size_t n = size_t(state.range(0));
  const bool lanes = state.range(1) != 0;
  std::vector<Fp2> a(n), b(n);
  std::vector<const Fp2*> pa(n), pb(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = Fp2{Fp::from_u64(3 + i), Fp::from_u64(5 * i)}.inverse();
    b[i] = Fp2{Fp::from_u64(7), Fp::from_u64(11 + i)}.inverse();
    pa[i] = &a[i];
    pb[i] = &b[i];
  }
  for (auto _ : state) {
    for (int r = 0; r < 10; ++r) {
      if (lanes) {
        fp2_mul_many(a.data(), pa.data(), pb.data(), n);
      } else {
        for (size_t i = 0; i < n; ++i) a[i] = a[i] * b[i];
      }
    }
    benchmark::DoNotOptimize(a.data());
  }
  state.SetItemsProcessed(state.iterations() * 10 * int64_t(n));
}

template <class J>
void BM_Double(benchmark::State& state) {
  J p = J::generator().mul_vartime(scalar(1));
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i) p = p.dbl();
    benchmark::DoNotOptimize(p);
  }
  state.SetItemsProcessed(state.iterations() * 100);
}

template <class J>
void BM_Add(benchmark::State& state) {
  J p = J::generator().mul_vartime(scalar(2));
  const J q = J::generator().mul_vartime(scalar(3));
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i) p = p + q;
    benchmark::DoNotOptimize(p);
  }
  state.SetItemsProcessed(state.iterations() * 100);
}

template <class J>
void BM_AddMixed(benchmark::State& state) {
  J p = J::generator().mul_vartime(scalar(4));
  const auto q = J::generator().mul_vartime(scalar(5)).to_affine();
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i) p = p.add_mixed(q);
    benchmark::DoNotOptimize(p);
  }
  state.SetItemsProcessed(state.iterations() * 100);
}

void BM_G2SubgroupCheck(benchmark::State& state) {
  const G2Affine q = G2::generator().mul_vartime(scalar(6)).to_affine();
  for (auto _ : state) benchmark::DoNotOptimize(g2_is_in_subgroup(q));
}

void BM_G2SubgroupCheckByOrder(benchmark::State& state) {
  const G2Affine q = G2::generator().mul_vartime(scalar(6)).to_affine();
  for (auto _ : state) benchmark::DoNotOptimize(g2_is_in_subgroup_by_order(q));
}

void BM_G1Decompress(benchmark::State& state) {
  uint8_t b[kG1CompressedBytes];
  g1_to_compressed(G1::generator().mul_vartime(scalar(7)).to_affine(), b);
  for (auto _ : state) benchmark::DoNotOptimize(g1_from_compressed(b));
}

void BM_G2Decompress(benchmark::State& state) {
  uint8_t b[kG2CompressedBytes];
  g2_to_compressed(G2::generator().mul_vartime(scalar(8)).to_affine(), b);
  const G2Check check = state.range(0) ? G2Check::kSubgroup : G2Check::kSkipSubgroupTrustedSource;
  for (auto _ : state) benchmark::DoNotOptimize(g2_from_compressed(b, check));
}

void BM_G1DecompressBatch(benchmark::State& state) {
  const size_t n = 1024;
  std::vector<uint8_t> bytes(n * kG1CompressedBytes);
  G1 p = G1::generator().mul_vartime(scalar(9));
  for (size_t i = 0; i < n; ++i) {
    g1_to_compressed(p.to_affine(), bytes.data() + i * kG1CompressedBytes);
    p = p.dbl();
  }
  std::vector<G1Affine> out(n);
  ThreadPool pool(unsigned(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(g1_from_compressed_batch(bytes, out, &pool));
  state.SetItemsProcessed(state.iterations() * int64_t(n));
}

void BM_Fp2SqrtBaseline(benchmark::State& state) {
  // The generic Fp2::sqrt, for comparison with the decompression square root.
  const Fp2 a = Fp2{Fp::from_u64(3), Fp::from_u64(5)}.square();
  for (auto _ : state) benchmark::DoNotOptimize(a.sqrt());
}
void BM_Fp2SqrtDecompression(benchmark::State& state) {
  const Fp2 a = Fp2{Fp::from_u64(3), Fp::from_u64(5)}.square();
  for (auto _ : state) benchmark::DoNotOptimize(encoding_detail::sqrt_fp2(a));
}

BENCHMARK(BM_Fp2Mul)->Name("fp2_mul_x100");
BENCHMARK(BM_Fp2MulKaratsuba)->Name("fp2_mul_karatsuba_x100");
BENCHMARK(BM_Fp2Square)->Name("fp2_square_x100");
BENCHMARK(BM_Fp2MulMany)
    ->Name("fp2_mul_many_x10")
    ->ArgNames({"n", "lanes"})
    ->ArgsProduct({{2, 4, 8, 16}, {0, 1}});
BENCHMARK(BM_Double<G1>)->Name("g1_double_x100");
BENCHMARK(BM_Add<G1>)->Name("g1_add_jacobian_x100");
BENCHMARK(BM_AddMixed<G1>)->Name("g1_add_mixed_x100");
BENCHMARK(BM_Double<G2>)->Name("g2_double_x100");
BENCHMARK(BM_Add<G2>)->Name("g2_add_jacobian_x100");
BENCHMARK(BM_AddMixed<G2>)->Name("g2_add_mixed_x100");
BENCHMARK(BM_G2SubgroupCheck)->Name("g2_subgroup_check")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G2SubgroupCheckByOrder)
    ->Name("g2_subgroup_check_by_order")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G1Decompress)->Name("g1_decompress")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G2Decompress)
    ->Name("g2_decompress")
    ->ArgName("subgroup_check")
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G1DecompressBatch)
    ->Name("g1_decompress_batch1024")
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_Fp2SqrtBaseline)->Name("fp2_sqrt_generic")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Fp2SqrtDecompression)->Name("fp2_sqrt_decompression")->Unit(benchmark::kMicrosecond);

}  // namespace
