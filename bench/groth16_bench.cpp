// Groth16 on a random R1CS that fills a 2^15 domain (the size of the k=6 transfer circuit):
// prove and verify, at 1 and 2 threads, and loading its proving key from memory in both point
// formats (raw: the native key file; compressed: the browser download). The circuit's witness
// mixes bits, small and full-size values like a real one.
#include <benchmark/benchmark.h>

#include <memory>

#include "core/groth16/key_format.hpp"
#include "core/groth16/proof_format.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/setup.hpp"
#include "core/groth16/verifier.hpp"
#include "support/random_r1cs.hpp"

namespace {

using namespace enygma;

struct Instance {
  test::RandomCircuit rc;
  Groth16Keys keys;
  PreparedVerifyingKey pvk;
  // Proofs with their own randomness, verified in turn (on one proof again and again the branch
  // predictor learns the verifier's data-dependent branches).
  std::vector<Proof> proofs;
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
    for (int i = 0; i < 8; ++i) {
      in->proofs.push_back(*groth16_prove(in->keys.pk, in->rc.r1cs, in->rc.witness, pool));
    }
    in->pub.assign(in->rc.witness.begin() + 1, in->rc.witness.begin() + 51);
    return in;
  }();
  return *inst;
}

void BM_Prove2e15(benchmark::State& state) {
  const Instance& in = instance();
  ThreadPool pool(unsigned(state.range(0)));
  state.counters["constraints"] = double(in.rc.r1cs.num_constraints());
  state.counters["domain"] = double(in.keys.pk.domain_size);
  for (auto _ : state) {
    auto proof = groth16_prove(in.keys.pk, in.rc.r1cs, in.rc.witness, pool);
    benchmark::DoNotOptimize(proof);
  }
}

// range(0) threads: 1 is the sequential three-pair check, 2 splits it in two halves.
void BM_Verify(benchmark::State& state) {
  const Instance& in = instance();
  ThreadPool pool(unsigned(state.range(0)));
  size_t i = 0;
  for (auto _ : state) {
    auto st = groth16_verify(in.pvk, in.proofs[i], in.pub, pool);
    i = (i + 1) % in.proofs.size();
    benchmark::DoNotOptimize(st);
  }
}

// The other half of a verify request: a proof response (the reference's JSON: three points and
// the 50 public inputs as decimal strings) parsed into the proof and field elements.
void BM_ParseProofResponse(benchmark::State& state) {
  const Instance& in = instance();
  const std::string text = proof_to_reference_json(in.proofs[0], in.pub);
  for (auto _ : state) {
    auto parsed = proof_from_reference_json(text);
    if (!parsed) state.SkipWithError(parsed.error().message.c_str());
    benchmark::DoNotOptimize(parsed);
  }
  state.counters["bytes"] = double(text.size());
}

// Digest check and decoding of the proving key's file image (no disk), by point format and
// threads (raw on two: the digest beside the parse); counters: the file's size and decoded
// points per second.
void BM_LoadProvingKey(benchmark::State& state) {
  const Instance& in = instance();
  const PointFormat format = state.range(0) ? PointFormat::kCompressed : PointFormat::kRaw;
  const std::vector<uint8_t> file = serialize_proving_key(in.keys.pk, "bench-2e15", format);
  ThreadPool pool(unsigned(state.range(1)));
  for (auto _ : state) {
    auto pk = load_proving_key(file, "bench-2e15", pool);
    if (!pk) state.SkipWithError(pk.error().message.c_str());
    benchmark::DoNotOptimize(pk);
  }
  state.counters["file_mib"] = double(file.size()) / (1024.0 * 1024.0);
}

BENCHMARK(BM_Prove2e15)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Verify)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_ParseProofResponse)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LoadProvingKey)
    ->ArgNames({"compressed", "threads"})
    ->Args({0, 1})
    ->Args({0, 2})
    ->Args({1, 1})
    ->Args({1, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
