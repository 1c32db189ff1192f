// Field microbenchmarks: a dependent chain of multiplications, so the number is latency per
// operation (what the curve formulas see), not throughput of independent products.
#include <benchmark/benchmark.h>

#include "core/field/cpu_features.hpp"
#include "core/field/fp.hpp"
#include "core/field/fr.hpp"
#include "core/field/inverse_vartime.hpp"

namespace {

using namespace enygma;

template <class F>
void BM_Mul(benchmark::State& state) {
  F a = F::from_u64(0x1234567), b = F::from_u64(0xabcdef).inverse();
  for (auto _ : state) {
    for (int i = 0; i < 1000; ++i) a = a * b;
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}

// The same dependent chain with the in-place operator (a *= b): the kernel writes a's words
// directly, where a = a * b goes through a temporary that the compiler copies.
template <class F>
void BM_MulInPlace(benchmark::State& state) {
  F a = F::from_u64(0x1234567), b = F::from_u64(0xabcdef).inverse();
  for (auto _ : state) {
    for (int i = 0; i < 1000; ++i) a *= b;
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}

// Eight independent chains: throughput, which is what MSM buckets and NTT butterflies see.
template <class F>
void BM_MulThroughput(benchmark::State& state) {
  F a[8], b = F::from_u64(0xabcdef).inverse();
  for (int j = 0; j < 8; ++j) a[j] = F::from_u64(j + 1);
  for (auto _ : state) {
    for (int i = 0; i < 125; ++i) {
      for (int j = 0; j < 8; ++j) a[j] = a[j] * b;
    }
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}

template <class F>
void BM_Square(benchmark::State& state) {
  F a = F::from_u64(0x1234567).inverse();
  for (auto _ : state) {
    for (int i = 0; i < 1000; ++i) a = a.square();
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}

template <class F>
void BM_Add(benchmark::State& state) {
  F a = F::from_u64(0x1234567), b = F::from_u64(0xabcdef).inverse();
  for (auto _ : state) {
    for (int i = 0; i < 1000; ++i) a = a + b;
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}

template <class F>
void BM_Inverse(benchmark::State& state) {
  F a = F::from_u64(0x1234567);
  for (auto _ : state) {
    a = a.inverse();
    benchmark::DoNotOptimize(a);
  }
}

// Safegcd for public values; the input changes each round (its time depends on the input).
template <class F>
void BM_InverseVartime(benchmark::State& state) {
  F a = F::from_u64(0x1234567);
  for (auto _ : state) {
    a = inverse_vartime(a) + F::one();
    benchmark::DoNotOptimize(a);
  }
}

template <class F>
void BM_MulPortable(benchmark::State& state) {
  bool was = enygma::adx_enabled();
  enygma::set_adx_enabled(false);
  BM_MulThroughput<F>(state);
  enygma::set_adx_enabled(was);
}
template <class F>
void BM_MulPortableLatency(benchmark::State& state) {
  bool was = enygma::adx_enabled();
  enygma::set_adx_enabled(false);
  BM_Mul<F>(state);
  enygma::set_adx_enabled(was);
}

BENCHMARK(BM_Mul<Fp>)->Name("fp_mul_x1000");
BENCHMARK(BM_MulInPlace<Fp>)->Name("fp_mul_in_place_x1000");
BENCHMARK(BM_MulPortable<Fp>)->Name("fp_mul_throughput_portable_x1000");
BENCHMARK(BM_MulPortableLatency<Fp>)->Name("fp_mul_portable_x1000");
BENCHMARK(BM_MulThroughput<Fp>)->Name("fp_mul_throughput_x1000");
BENCHMARK(BM_Square<Fp>)->Name("fp_square_x1000");
BENCHMARK(BM_Add<Fp>)->Name("fp_add_x1000");
BENCHMARK(BM_Mul<Fr>)->Name("fr_mul_x1000");
BENCHMARK(BM_Inverse<Fp>)->Name("fp_inverse");
BENCHMARK(BM_InverseVartime<Fp>)->Name("fp_inverse_vartime");
BENCHMARK(BM_InverseVartime<Fr>)->Name("fr_inverse_vartime");

}  // namespace
