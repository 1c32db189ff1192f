// Witness generation for the transfer circuit (goal: under 20 ms at k = 6 natively) and the cost
// of building its R1CS (done once per k and cached; measured here without the cache), plus the
// pieces that dominate: Poseidon and fixed-base multiplication in witness mode.
#include <benchmark/benchmark.h>

#include "core/circuit/builder.hpp"
#include "core/circuit/fixed_base.hpp"
#include "core/circuit/poseidon_gadget.hpp"
#include "core/transfer/transfer_circuit.hpp"
#include "core/transfer/wallet.hpp"

namespace {

using namespace enygma;

void BM_TransferWitness(benchmark::State& state) {
  const unsigned k = unsigned(state.range(0));
  const TransferRequest req = make_transfer(wallet_inputs_from_seed(k, 7));
  transfer_r1cs(k);  // tables and caches warm, as in a running prover
  (void)transfer_witness(req);
  for (auto _ : state) {
    std::vector<Fr> w = transfer_witness(req);
    benchmark::DoNotOptimize(w.data());
  }
  state.counters["wires"] = double(transfer_r1cs(k).num_wires);
}
BENCHMARK(BM_TransferWitness)->Arg(2)->Arg(6)->Arg(16)->Unit(benchmark::kMillisecond);

void BM_TransferR1csBuild(benchmark::State& state) {
  const unsigned k = unsigned(state.range(0));
  transfer_r1cs(k);  // tables warm
  for (auto _ : state) {
    circuit::CircuitBuilder b(circuit::BuildMode::kShape);
    b.reserve(transfer_r1cs_size_hint(k));
    define_transfer_circuit(b, k, nullptr);
    R1cs r = b.take_r1cs();
    benchmark::DoNotOptimize(r.a.terms.data());
  }
  state.counters["constraints"] = double(transfer_r1cs(k).num_constraints());
}
BENCHMARK(BM_TransferR1csBuild)->Arg(2)->Arg(6)->Unit(benchmark::kMillisecond);

void BM_PoseidonWitness(benchmark::State& state) {
  for (auto _ : state) {
    circuit::CircuitBuilder b(circuit::BuildMode::kWitness);
    const circuit::PoseidonInput in[2] = {b.private_wire(Fr::from_u64(1)),
                                          b.private_wire(Fr::from_u64(2))};
    circuit::Lc out = circuit::poseidon_gadget(b, in, "h");
    benchmark::DoNotOptimize(out.value());
  }
}
BENCHMARK(BM_PoseidonWitness)->Unit(benchmark::kMicrosecond);

void BM_FixedBaseWitness(benchmark::State& state) {
  U256 s{{0x0123456789abcdefull, 0xfedcba9876543210ull, 0x0f1e2d3c4b5a6978ull, 0x1234ull}};
  for (auto _ : state) {
    circuit::CircuitBuilder b(circuit::BuildMode::kWitness);
    std::vector<circuit::Var> bits;
    for (unsigned i = 0; i < 254; ++i)
      bits.push_back(b.private_wire(s.bit(i) ? Fr::one() : Fr::zero()));
    circuit::PointLc p = circuit::fixed_base_mul(b, circuit::FixedBase::kH, bits, "mul");
    benchmark::DoNotOptimize(p.x.value());
  }
}
BENCHMARK(BM_FixedBaseWitness)->Unit(benchmark::kMicrosecond);

}  // namespace
