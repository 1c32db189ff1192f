// Witness generation for the payment circuits (transfer goal: under 20 ms at k = 6 natively;
// deposit and withdraw beside it) and the cost of building the transfer R1CS (done once per k
// and cached; measured here without the cache), plus the pieces that dominate: Poseidon and
// fixed-base multiplication in witness mode.
#include <benchmark/benchmark.h>

#include "core/circuit/builder.hpp"
#include "core/circuit/fixed_base.hpp"
#include "core/circuit/poseidon_gadget.hpp"
#include "core/deposit/deposit_circuit.hpp"
#include "core/deposit/wallet.hpp"
#include "core/payment/wallet.hpp"
#include "core/registry/registry.hpp"
#include "core/transfer/transfer_circuit.hpp"
#include "core/transfer/wallet.hpp"
#include "core/withdraw/wallet.hpp"
#include "core/withdraw/withdraw_circuit.hpp"

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

void BM_DepositWitness(benchmark::State& state) {
  const unsigned k = unsigned(state.range(0));
  const DepositRequest req =
      make_deposit_checked(deposit_inputs_from_seed(k, payment::seed_from_u64(7))).value();
  const R1cs& r1cs = circuit_r1cs(*find_circuit("deposit", k));  // tables warm
  (void)deposit_witness(req);
  for (auto _ : state) {
    std::vector<Fr> w = deposit_witness(req);
    benchmark::DoNotOptimize(w.data());
  }
  state.counters["wires"] = double(r1cs.num_wires);
}
BENCHMARK(BM_DepositWitness)->Arg(2)->Arg(6)->Arg(16)->Unit(benchmark::kMillisecond);

// `notes` = 10: every slot opened (the cost does not depend on how many are used).
void BM_WithdrawWitness(benchmark::State& state) {
  const unsigned k = unsigned(state.range(0));
  const WithdrawRequest req =
      make_withdraw_checked(withdraw_inputs_from_seed(k, payment::seed_from_u64(7), 10)).value();
  const R1cs& r1cs = circuit_r1cs(*find_circuit("withdraw", k));  // tables warm
  (void)withdraw_witness(req);
  for (auto _ : state) {
    std::vector<Fr> w = withdraw_witness(req);
    benchmark::DoNotOptimize(w.data());
  }
  state.counters["wires"] = double(r1cs.num_wires);
}
BENCHMARK(BM_WithdrawWitness)->Arg(2)->Arg(6)->Arg(16)->Unit(benchmark::kMillisecond);

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
