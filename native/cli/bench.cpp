// enygma bench: end-to-end timings of a circuit's prover on this machine (medians of several
// runs): key load, witness generation, each proving stage, the whole proof, verification.
#include <sodium.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/field/cpu_features.hpp"
#include "core/registry/circuit_prover.hpp"
#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"
#include "native/common/key_loading.hpp"
#include "native/common/options.hpp"

namespace {

using namespace enygma;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n == 0 ? 0 : (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

int run_bench(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"circuit", "k", "keys", "threads", "runs", "input"}, {},
                  "enygma bench")) {
    return native::kExitUsage;
  }
  if (args.help()) {
    fputs(
        "usage: enygma bench [--circuit NAME] [--k K] [--keys DIR] [--threads N] [--runs R]\n"
        "                    [--input REQ.json]\n"
        "\nTimes key loading, witness generation (parse, validate, witness), proving (by stage)\n"
        "and verification of a circuit (default transfer, k 6) and prints medians over R runs\n"
        "(default 10) as JSON, with the peak resident memory. Without --input the request is\n"
        "the circuit's wallet request made from a fixed seed. prove_cpu is the process's CPU\n"
        "time during a proof (all threads). With two or more threads the prover runs the MSMs\n"
        "beside the constraints and the quotient, so a stage's time is then the interval between\n"
        "stage starts on the calling thread, not the stage's own work. The C and H queries are\n"
        "one MSM: msm_h holds both, msm_c is ~0.\n",
        stdout);
    return 0;
  }
  auto circuit = native::circuit_option(args, 6);
  if (!circuit) return cli::fail(circuit.error());
  auto threads = args.get_uint("threads", 0, 0, 1024);
  auto runs = args.get_uint("runs", 10, 1, 100000);
  if (!threads) return cli::fail(threads.error());
  if (!runs) return cli::fail(runs.error());
  const std::string dir = args.get_or("keys", "keys/dev");
  ThreadPool pool{unsigned(*threads)};

  std::string request;
  if (auto input = args.get("input")) {
    auto text = native::read_text_file(*input);
    if (!text) return cli::fail(text.error());
    request.assign(text->begin(), text->end());
  } else {
    std::array<uint8_t, 32> seed{1};
    auto made = circuit->family->make_request(circuit->k, seed, 0);
    if (!made) return cli::fail(made.error());
    request = std::move(*made);
  }
  if (auto w = circuit->family->witness(request, circuit->k); !w) {
    return cli::fail(w.error());
  } else {
    sodium_memzero(w->data(), w->size() * sizeof(Fr));
  }
  circuit_r1cs(*circuit);  // build the circuit once, outside the timings

  std::vector<double> load, witness, prove, prove_cpu, verify, verify_pool, verify_after_prove;
  auto cpu_ms = [] {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
  };
  std::map<std::string, std::vector<double>> stages;
  std::shared_ptr<const CircuitProver> prover;
  std::vector<CircuitProof> proofs;  // one per run, each with its own randomness
  for (unsigned long run = 0; run < *runs; ++run) {
    auto t0 = Clock::now();
    auto loaded = native::load_circuit_prover(dir, *circuit, true, pool);
    if (!loaded) return cli::fail(loaded.error());
    load.push_back(ms_since(t0));
    prover = *loaded;

    t0 = Clock::now();
    auto w = circuit->family->witness(request, circuit->k);
    witness.push_back(ms_since(t0));
    if (!w) return cli::fail(w.error());
    sodium_memzero(w->data(), w->size() * sizeof(Fr));

    ProveOptions options;
    Clock::time_point stage_start;
    std::string stage_name;
    options.on_stage = [&](ProveStage s) {
      auto now = Clock::now();
      if (!stage_name.empty()) {
        stages[stage_name].push_back(
            std::chrono::duration<double, std::milli>(now - stage_start).count());
      }
      stage_name = prove_stage_name(s);
      stage_start = now;
    };
    t0 = Clock::now();
    const double c0 = cpu_ms();
    auto proof = prover->prove_request(request, pool, options);
    prove.push_back(ms_since(t0));
    prove_cpu.push_back(cpu_ms() - c0);
    if (!proof) return cli::fail(proof.error());

    // The first verification after a proof, on one thread: the proof's ~40 MB of memory
    // traffic has evicted the verifier's tables and lines from the caches.
    t0 = Clock::now();
    auto st = prover->verify(proof->proof, proof->public_inputs);
    verify_after_prove.push_back(ms_since(t0));
    if (!st) return cli::fail(st.error());
    proofs.push_back(std::move(*proof));
  }
  // Verification as a verifying service does it, proof after proof: on one thread ("verify")
  // and split over the pool ("verify_pool"), alternating, ten of each per run (one
  // verification is under a millisecond, short against the clock's noise). The runs' proofs in
  // turn, not one proof again and again: on one input the branch predictor learns the
  // verifier's data-dependent branches and flatters it.
  for (unsigned long rep = 0; rep < 10 * *runs; ++rep) {
    const CircuitProof& p = proofs[rep % proofs.size()];
    auto t0 = Clock::now();
    auto st = prover->verify(p.proof, p.public_inputs);
    verify.push_back(ms_since(t0));
    if (!st) return cli::fail(st.error());
    t0 = Clock::now();
    st = prover->verify(p.proof, p.public_inputs, pool);
    verify_pool.push_back(ms_since(t0));
    if (!st) return cli::fail(st.error());
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  nlohmann::ordered_json j;
  j["circuit"] = circuit->str();
  if (circuit->family->has_k()) j["k"] = circuit->k;
  j["threads"] = pool.size();
  j["runs"] = *runs;
  j["constraints"] = circuit_r1cs(*circuit).num_constraints();
  j["median_ms"] = {{"key_load", median(load)},
                    {"witness", median(witness)},
                    {"prove_total", median(prove)},
                    {"prove_cpu", median(prove_cpu)},
                    {"verify", median(verify)},
                    {"verify_pool", median(verify_pool)},
                    {"verify_after_prove", median(verify_after_prove)}};
  nlohmann::ordered_json st;
  for (const char* name :
       {"constraints", "quotient", "msm_a", "msm_b1", "msm_b2", "msm_c", "msm_h"}) {
    st[name] = median(stages[name]);
  }
  j["prove_stages_median_ms"] = st;
  j["peak_rss_mib"] = double(ru.ru_maxrss) / 1024.0;
  j["kernels"] = {{"adx", adx_enabled()}, {"ifma", ifma_enabled()}};
  j["cpu"] = nlohmann::ordered_json::parse(cli::cpu_json());
  printf("%s\n", j.dump(2).c_str());
  sodium_memzero(request.data(), request.size());
  return 0;
}

cli::Registration register_bench{
    {"bench", "time key load, witness, proving stages and verification", &run_bench}};

}  // namespace
