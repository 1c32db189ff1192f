// NTT benchmarks: forward transform of random coefficients. Arguments: log2(n) / threads.
// Wall time (real time), since the thread pool does the work.
//   ./bench/ntt_bench --benchmark_filter='ntt_forward/20/1$' --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <vector>

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
BENCHMARK(BM_NttCosetInverse)
    ->Name("ntt_coset_inverse")
    ->Args({16, 1})
    ->Args({20, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
