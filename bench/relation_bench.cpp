// The transfer relation natively: Poseidon (2 and 3 inputs), Pedersen, parsing and validating
// the k = 6 reference request, and the wallet.
//
// The request is read from $ENYGMA_SHARED_DIR/vectors/transfer-k6.json, else from the shared/
// folder beside the repository (found from this file's path); failing both, a wallet-made k = 6
// request of the same shape is used (the benchmark label says which).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/primitives/babyjubjub.hpp"
#include "core/primitives/poseidon.hpp"
#include "core/transfer/request.hpp"
#include "core/transfer/validate.hpp"
#include "core/transfer/wallet.hpp"

namespace {

using namespace enygma;

std::string read(const std::string& path) {
  std::ifstream f(path);
  if (!f) return {};
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The k = 6 request text and where it came from.
const std::pair<std::string, std::string>& k6_request() {
  static const std::pair<std::string, std::string> r = [] {
    std::string dirs[2];
    if (const char* env = std::getenv("ENYGMA_SHARED_DIR")) dirs[0] = env;
    std::string here = __FILE__;
    dirs[1] = here.substr(0, here.find_last_of('/')) + "/../../shared";
    for (const std::string& d : dirs) {
      if (d.empty()) continue;
      std::string text = read(d + "/vectors/transfer-k6.json");
      if (!text.empty()) return std::pair{text, std::string("reference k=6")};
    }
    return std::pair{transfer_request_to_json(make_transfer(wallet_inputs_from_seed(6, 6u))),
                     std::string("wallet-made k=6 (reference not found)")};
  }();
  return r;
}

void BM_Poseidon2(benchmark::State& state) {
  Fr a = Fr::from_u64(1), b = Fr::from_u64(2);
  for (auto _ : state) {
    a = poseidon(a, b);  // dependent chain
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Poseidon2);

void BM_Poseidon3(benchmark::State& state) {
  Fr a = Fr::from_u64(1), b = Fr::from_u64(2), c = Fr::from_u64(3);
  for (auto _ : state) {
    a = poseidon(a, b, c);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Poseidon3);

void BM_Pedersen(benchmark::State& state) {
  Fr v = Fr::from_u64(1000), r = -Fr::from_u64(12345).inverse();
  for (auto _ : state) {
    BjjPoint p = babyjubjub::pedersen(v, r);
    benchmark::DoNotOptimize(p);
    r += Fr::one();
  }
}
BENCHMARK(BM_Pedersen);

void BM_ParseK6(benchmark::State& state) {
  const auto& [text, label] = k6_request();
  for (auto _ : state) {
    auto r = parse_transfer_request(text, 6);
    if (!r.ok()) state.SkipWithError(r.error().message.c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetLabel(label);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
}
BENCHMARK(BM_ParseK6);

// nlohmann's plain parse of the same text: what the project's reader (core/util/json_parse.hpp,
// with its member-name check and wiping) costs against it.
void BM_ParseK6NlohmannOnly(benchmark::State& state) {
  const auto& [text, label] = k6_request();
  for (auto _ : state) {
    auto j = nlohmann::json::parse(text, nullptr, false);
    benchmark::DoNotOptimize(j);
  }
  state.SetLabel(label);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
}
BENCHMARK(BM_ParseK6NlohmannOnly);

void BM_ValidateK6(benchmark::State& state) {
  const auto& [text, label] = k6_request();
  auto req = parse_transfer_request(text, 6);
  if (!req.ok()) {
    state.SkipWithError(req.error().message.c_str());
    return;
  }
  for (auto _ : state) {
    Status st = validate_transfer(*req);
    if (!st.ok()) state.SkipWithError(st.error().message.c_str());
    benchmark::DoNotOptimize(st);
  }
  state.SetLabel(label);
}
BENCHMARK(BM_ValidateK6)->Unit(benchmark::kMicrosecond);

void BM_MakeTransfer(benchmark::State& state) {
  const unsigned k = unsigned(state.range(0));
  const WalletInputs in = wallet_inputs_from_seed(k, uint64_t(k));
  for (auto _ : state) {
    TransferRequest q = make_transfer(in);
    benchmark::DoNotOptimize(q);
  }
}
BENCHMARK(BM_MakeTransfer)->Arg(2)->Arg(6)->Arg(16)->Unit(benchmark::kMicrosecond);

}  // namespace
