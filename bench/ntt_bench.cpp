// NTT benchmarks: forward transform of random coefficients. Arguments: log2(n) / threads.
// Wall time (real time), since the thread pool does the work.
//   ./bench/ntt_bench --benchmark_filter='ntt_forward/20/1$' --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <vector>

#include "core/field/cpu_features.hpp"
#include "core/poly/evaluation_domain.hpp"
#include "core/poly/ntt.hpp"

namespace {

using namespace enygma;

void BM_NttForward(benchmark::State& state) {
  const unsigned log_n = unsigned(state.range(0));
  const NttDomain domain(log_n);
  ThreadPool pool(unsigned(state.range(1)));
  std::vector<Fr> a(domain.size());
  Fr x = Fr::from_u64(7);
  for (Fr& v : a) v = x = x * x + Fr::one();
  for (auto _ : state) {
    domain.forward(a.data(), pool);
    benchmark::DoNotOptimize(a.data());
  }
  state.SetItemsProcessed(state.iterations() * int64_t(domain.size()));
}

void BM_NttCosetInverse(benchmark::State& state) {
  const unsigned log_n = unsigned(state.range(0));
  const NttDomain domain(log_n);
  ThreadPool pool(unsigned(state.range(1)));
  std::vector<Fr> a(domain.size(), Fr::from_u64(3));
  for (auto _ : state) {
    domain.coset_inverse(a.data(), domain.omega_2n(), pool);
    benchmark::DoNotOptimize(a.data());
  }
  state.SetItemsProcessed(state.iterations() * int64_t(domain.size()));
}

// The Groth16 quotient's transforms (EvaluationDomain::odd_coset_product: three polynomials to
// the odd coset and a*b - c). Arguments: n (2^k or 3 * 2^k) / threads / IFMA kernel (0 = the
// scalar code; the transforms of the WebAssembly module built with relaxed SIMD are its f64
// lanes either way).
void BM_OddCosetProduct(benchmark::State& state) {
  const EvaluationDomain& domain = EvaluationDomain::shared(size_t(state.range(0)));
  ThreadPool pool(unsigned(state.range(1)));
  const bool had = ifma_enabled();
  if (state.range(2) && !cpu_supports_ifma()) {
    state.SkipWithError("no AVX-512 IFMA");
    return;
  }
  set_ifma_enabled(state.range(2) != 0);
  std::vector<Fr> a(domain.size()), b(domain.size()), c(domain.size());
  Fr x = Fr::from_u64(7);
  for (size_t i = 0; i < domain.size(); ++i) {
    a[i] = x = x * x + Fr::one();
    b[i] = x + Fr::one();
    c[i] = a[i] * b[i];
  }
  domain.odd_coset_product(a.data(), b.data(), c.data(), pool);  // tables built outside the loop
  for (auto _ : state) {
    domain.odd_coset_product(a.data(), b.data(), c.data(), pool);
    benchmark::DoNotOptimize(a.data());
  }
  set_ifma_enabled(had);
  state.SetItemsProcessed(state.iterations() * int64_t(domain.size()));
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int t : {1, 2}) {
    for (int log_n = 12; log_n <= 20; ++log_n) b->Args({log_n, t});
  }
}

BENCHMARK(BM_NttForward)
    ->Name("ntt_forward")
    ->Apply(sizes)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_OddCosetProduct)
    ->Name("odd_coset_product")
    ->ArgsProduct({{1 << 13, 3 << 12, 1 << 14, 3 << 13, 1 << 15, 1 << 16}, {1, 2}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_NttCosetInverse)
    ->Name("ntt_coset_inverse")
    ->Args({16, 1})
    ->Args({20, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
