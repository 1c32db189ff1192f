// Groth16 on a random R1CS that fills a 2^15 domain (the size of the k=6 transfer circuit):
// prove and verify, at 1 and 2 threads. The circuit's witness mixes bits, small and full-size
// values like a real one.
#include <benchmark/benchmark.h>

#include <memory>

#include "support/random_r1cs.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/setup.hpp"
#include "core/groth16/verifier.hpp"

namespace {

using namespace enygma;

struct Instance {
  test::RandomCircuit rc;
  Groth16Keys keys;
  PreparedVerifyingKey pvk;
  Proof proof;
  std::vector<Fr> pub;
};

const Instance& instance() {
  static std::unique_ptr<Instance> inst = [] {
    auto in = std::make_unique<Instance>();
    test::TestRng rng(2024);
    // 32768 - 51 public rows - 1: the largest circuit in 2^15 with 50 public inputs
    in->rc = test::random_circuit(rng, 50, 30000, 32716 - 30051, 3);
    ThreadPool pool(0);
    const uint8_t seed[] = {1};
    in->keys = groth16_setup_insecure_from_seed(in->rc.r1cs, seed, pool);
    in->pvk = prepare_verifying_key(in->keys.vk);
    in->proof = *groth16_prove(in->keys.pk, in->rc.r1cs, in->rc.witness, pool);
    in->pub.assign(in->rc.witness.begin() + 1, in->rc.witness.begin() + 51);
    return in;
  }();
  return *inst;
}

void BM_Prove2e15(benchmark::State& state) {
  const Instance& in = instance();
  ThreadPool pool(unsigned(state.range(0)));
  state.counters["constraints"] = double(in.rc.r1cs.num_constraints());
  state.counters["log_n"] = in.keys.pk.log_n;
  for (auto _ : state) {
    auto proof = groth16_prove(in.keys.pk, in.rc.r1cs, in.rc.witness, pool);
    benchmark::DoNotOptimize(proof);
  }
}

// range(0) threads: 1 is the sequential three-pair check, 2 splits it in two halves.
void BM_Verify(benchmark::State& state) {
  const Instance& in = instance();
  ThreadPool pool(unsigned(state.range(0)));
  for (auto _ : state) {
    auto st = groth16_verify(in.pvk, in.proof, in.pub, pool);
    benchmark::DoNotOptimize(st);
  }
}

BENCHMARK(BM_Prove2e15)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Verify)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
