// MSM benchmarks: random points (k_i G) and random full scalars. Arguments are
// log2(points) / threads [/ window bits, 0 = automatic]. Wall time (real time), since the
// thread pool does the work. msm_g1/msm_g2 split the scalars by the GLV endomorphism (the points
// are in the order-r subgroup, as a proving key's); the *_glv_off runs are the same without it.
//   ./bench/msm_bench --benchmark_filter='msm_g1/16/1$' --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "core/msm/batch_affine.hpp"
#include "core/msm/batch_affine_lanes.hpp"
#include "core/msm/fixed_base_msm.hpp"
#include "core/msm/msm.hpp"
#include "core/msm/pippenger.hpp"

namespace {

using namespace enygma;

// Deterministic pseudo-random scalars (SplitMix64 reduced into Fr).
Fr random_fr(uint64_t& state) {
  uint8_t b[64];
  for (int i = 0; i < 64; i += 8) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    for (int j = 0; j < 8; ++j) b[i + j] = uint8_t(z >> (8 * j));
  }
  return Fr::from_wide_le_bytes(b);
}

template <class J>
struct Input {
  std::vector<typename J::Affine> points;
  std::vector<Fr> scalars;
};

// Built once per size and kept: generating 2^18 points costs more than one MSM.
template <class J>
const Input<J>& input(unsigned log_n) {
  static std::map<unsigned, std::unique_ptr<Input<J>>> cache;
  auto& slot = cache[log_n];
  if (!slot) {
    slot = std::make_unique<Input<J>>();
    const size_t n = size_t(1) << log_n;
    uint64_t state = 42 + log_n;
    J p = J::generator().mul_vartime(random_fr(state).to_u256());
    const J step = J::generator().mul_vartime(random_fr(state).to_u256());
    std::vector<J> jac(n);
    for (size_t i = 0; i < n; ++i) {
      jac[i] = p;
      p += step;
      slot->scalars.push_back(random_fr(state));
    }
    slot->points.resize(n);
    J::batch_to_affine(jac.data(), slot->points.data(), n);
  }
  return *slot;
}

template <class J, MsmOptions::Endomorphism kEndo = MsmOptions::Endomorphism::kOn>
void BM_Msm(benchmark::State& state) {
  const unsigned log_n = unsigned(state.range(0));
  const Input<J>& in = input<J>(log_n);
  ThreadPool pool(unsigned(state.range(1)));
  MsmOptions opt;
  opt.endomorphism = kEndo;
  if (state.range(2) > 0) {
    opt.path = MsmOptions::Path::kBatchAffine;
    opt.window_bits = unsigned(state.range(2));
  } else if (state.range(2) < 0) {
    opt.path = MsmOptions::Path::kReference;
  }
  for (auto _ : state) {
    J r = msm_detail::msm(in.points.data(), in.scalars.data(), in.points.size(), pool, opt);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * int64_t(in.points.size()));
}

void g1_sizes(benchmark::internal::Benchmark* b) {
  for (int t : {1, 2}) {
    for (int log_n = 12; log_n <= 18; ++log_n) b->Args({log_n, t, 0});
  }
}
void g2_sizes(benchmark::internal::Benchmark* b) {
  for (int t : {1, 2}) {
    for (int log_n = 12; log_n <= 16; ++log_n) b->Args({log_n, t, 0});
  }
}
// Window-size sweep for tuning the plan (third argument: c; -1 = Jacobian reference path).
void g1_window_sweep(benchmark::internal::Benchmark* b) {
  for (int log_n : {12, 14, 16, 18}) {
    for (int c = 9; c <= 16; ++c) b->Args({log_n, 1, c});
    b->Args({log_n, 1, -1});
  }
}

BENCHMARK(BM_Msm<G1>)
    ->Name("msm_g1")
    ->Apply(g1_sizes)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_Msm<G2>)
    ->Name("msm_g2")
    ->Apply(g2_sizes)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_Msm<G1, MsmOptions::Endomorphism::kOff>)
    ->Name("msm_g1_glv_off")
    ->Apply(g2_sizes)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_Msm<G2, MsmOptions::Endomorphism::kOff>)
    ->Name("msm_g2_glv_off")
    ->Apply(g2_sizes)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_Msm<G1>)
    ->Name("msm_g1_window")
    ->Apply(g1_window_sweep)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The same MSMs with the build's lane kernel for batch-affine additions (AVX-512 IFMA) switched
// off: the scalar code's time, for comparison.
template <class J>
void BM_MsmWithoutLanes(benchmark::State& state) {
  const bool was = batch_lanes_enabled();
  set_batch_lanes_enabled(false);
  BM_Msm<J>(state);
  set_batch_lanes_enabled(was);
}
BENCHMARK(BM_MsmWithoutLanes<G1>)
    ->Name("msm_g1_without_lanes")
    ->Args({15, 1, 0})
    ->Args({16, 1, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_MsmWithoutLanes<G2>)
    ->Name("msm_g2_without_lanes")
    ->Args({14, 1, 0})
    ->Args({15, 1, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The verifier's public-input sum over n fixed points (k=6: 50): a plain MSM on one thread
// (range(1) = 0) against FixedBaseMsm with window c = range(1); the table is built outside.
void BM_PublicInputSum(benchmark::State& state) {
  const size_t n = size_t(state.range(0));
  const Input<G1>& in = input<G1>(8);
  const std::span<const G1Affine> points(in.points.data(), n);
  const std::span<const Fr> scalars(in.scalars.data(), n);
  const unsigned c = unsigned(state.range(1));
  const FixedBaseMsm<Fp, G1Params> fixed =
      c ? FixedBaseMsm<Fp, G1Params>(points, c) : FixedBaseMsm<Fp, G1Params>();
  for (auto _ : state) {
    G1 r = c ? fixed.eval(scalars) : msm_g1(points.data(), scalars.data(), n, sequential_pool());
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_PublicInputSum)
    ->Name("public_input_sum")
    ->ArgNames({"n", "fixed_c"})
    ->ArgsProduct({{18, 50, 130}, {0, 6, 8, 10}})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

// One batch of n independent affine additions with one shared inversion: the scalar
// batch_add_pairs (range(1) = 0) against the build's lane kernel (range(1) = 1: AVX-512 IFMA,
// eight lanes; skipped where the build has none).
template <class J>
void BM_BatchAdd(benchmark::State& state) {
  using Affine = typename J::Affine;
  using F = decltype(Affine{}.x);
  const size_t n = size_t(state.range(0));
  const Input<J>& in = input<J>(12);
  std::vector<Affine> out(n);
  if (state.range(1) == 1) {
    if constexpr (msm_detail::kHasLaneBatchAdd<F>) {
#if defined(ENYGMA_HAVE_IFMA_KERNEL)
      if (!cpu_supports_ifma()) {
        state.SkipWithError("no AVX-512 IFMA on this CPU");
        return;
      }
#endif
      std::vector<msm_detail::AffineAddJob> jobs(n);
      for (size_t j = 0; j < n; ++j) {
        const Affine& a = in.points[2 * j];
        const Affine& b = in.points[2 * j + 1];
        jobs[j] = {msm_detail::words_of(a.x), msm_detail::words_of(b.x), msm_detail::words_of(b.y),
                   msm_detail::words_of(out[j].x)};
      }
      SecureVector<uint64_t> scratch;
      for (auto _ : state) {
        msm_detail::batch_add_lanes<F>(jobs.data(), n, scratch);
        benchmark::DoNotOptimize(out.data());
      }
    } else {
      state.SkipWithError("no lane kernel in this build");
      return;
    }
  } else {
    std::vector<msm_detail::PairAdd<Affine>> ops(n);
    msm_detail::BatchAddScratch<F> scratch;
    const bool was = batch_lanes_enabled();
    set_batch_lanes_enabled(false);
    for (auto _ : state) {
      for (size_t j = 0; j < n; ++j) ops[j] = {in.points[2 * j], in.points[2 * j + 1], &out[j]};
      msm_detail::batch_add_pairs(ops.data(), n, scratch);
      benchmark::DoNotOptimize(out.data());
    }
    set_batch_lanes_enabled(was);
  }
  state.SetItemsProcessed(state.iterations() * int64_t(n));
}
BENCHMARK(BM_BatchAdd<G1>)
    ->Name("batch_add_g1")
    ->ArgNames({"n", "lanes"})
    ->ArgsProduct({{256, 1024}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BatchAdd<G2>)
    ->Name("batch_add_g2")
    ->ArgNames({"n", "lanes"})
    ->ArgsProduct({{256, 1024}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);
