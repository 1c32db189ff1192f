// enygma prove: one proof of any circuit from a request JSON (the reference response JSON out).
#include <sodium.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"
#include "native/common/key_loading.hpp"
#include "native/common/options.hpp"

namespace {

using namespace enygma;

const char* kProveHelp =
    "usage: enygma prove [--circuit NAME] [--k K] --input REQ.json [--keys DIR]\n"
    "                    [--out RESP.json] [--threads N] [--test-seed TEXT] [--timings]\n"
    "\n"
    "Validates the request against the rules of its relation, builds the witness and writes\n"
    "the Groth16 proof as the reference service's response JSON (stdout, or --out), with the\n"
    "keys DIR/<circuit>.pk and .vk.\n"
    "\n"
    "  --circuit NAME    transfer (default), deposit, withdraw, joinsplit-enygma,\n"
    "                    joinsplit-1155, ownership-721\n"
    "  --k K             anonymity-set size, for the circuits that have one\n"
    "  --input REQ.json  the request (the relation document's JSON); - for standard input\n"
    "  --out RESP.json   where to write the response (default: stdout)\n"
    "  --keys DIR        key folder (default keys/dev)\n"
    "  --threads N       prover threads (default or 0: all cores)\n"
    "  --test-seed TEXT  deterministic blinding derived from TEXT: INSECURE, for cross-target\n"
    "                    tests only (the same keys, request and seed give the same bytes).\n"
    "  --timings         the milliseconds of each step as JSON on stderr: start_up (CPU time\n"
    "                    before the command ran), read_request, witness, thread_pool,\n"
    "                    read_keys, r1cs (a key without its constraint shape only),\n"
    "                    verifying_key, proving_key, the proof's stages (constraints,\n"
    "                    quotient, msm_a, msm_b1, msm_b2, msm_c, msm_h, done), output, total.\n"
    "\n"
    "Exit codes: 0 proved, 2 invalid request (the error as JSON on stderr), 64 usage error,\n"
    "1 other failures (keys, files).\n";

// Wall-clock milliseconds of consecutive steps, for --timings: mark(name) ends the step before
// and starts `name`.
class StepTimer {
 public:
  using Clock = std::chrono::steady_clock;
  explicit StepTimer(bool on) : on_(on), start_(Clock::now()), last_(start_) {
    if (!on_) return;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    // Everything before the command ran on this one thread: the loader, static initialisers.
    out_["start_up"] = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                       double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
  }
  void mark(const std::string& name) {
    if (!on_) return;
    const auto now = Clock::now();
    if (!name_.empty()) out_[name_] = out_.value(name_, 0.0) + ms(last_, now);
    name_ = name;
    last_ = now;
  }
  // Ends the last step and prints the JSON object.
  void print() {
    if (!on_) return;
    mark("");
    out_["total"] = ms(start_, last_);
    fprintf(stderr, "%s\n", out_.dump().c_str());
  }

 private:
  static double ms(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  }
  bool on_;
  Clock::time_point start_, last_;
  std::string name_;
  nlohmann::ordered_json out_;
};

int run_prove(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"circuit", "k", "input", "keys", "out", "threads", "test-seed"},
                  {"timings"}, "enygma prove")) {
    return native::kExitUsage;
  }
  StepTimer timer(args.has("timings"));
  if (args.help()) {
    fputs(kProveHelp, stdout);
    return 0;
  }
  auto circuit = native::circuit_option(args);
  if (!circuit) return cli::fail(circuit.error());
  auto threads = args.get_uint("threads", 0, 0, 1024);
  if (!threads) return cli::fail(threads.error());
  if (!args.require("prove", {"input"})) return native::kExitUsage;
  // Where the proof goes, checked before it is made.
  if (auto out = args.get("out")) {
    if (auto st = native::check_output_place(*out); !st) return cli::fail(st.error());
  }
  timer.mark("read_request");
  auto request = native::read_text_file(*args.get("input"));
  if (!request) return cli::fail(request.error());
  // The request first: a bad request is reported even where no keys exist.
  timer.mark("witness");
  auto witness = circuit->family->witness(*request, circuit->k);
  sodium_memzero(request->data(), request->size());  // the request's secrets as text
  if (!witness) return cli::fail(witness.error());
  timer.mark("thread_pool");
  ThreadPool pool{unsigned(*threads)};
  CircuitLoadOptions load;
  load.prepare_verifier = false;  // this process proves once and never verifies
  // A key with its constraint shape needs no R1CS: not built to compare digests either (a key
  // made for another version of the circuit is then reported by the proof itself).
  load.check_circuit_digest = false;
  load.on_step = [&](const char* step) { timer.mark(step); };
  const std::string keys = args.get_or("keys", "keys/dev");
  auto prover = native::load_circuit_prover(keys, *circuit, true, pool, load);
  if (!prover) {
    sodium_memzero(witness->data(), witness->size() * sizeof(Fr));
    return cli::fail(prover.error());
  }
  ProveOptions options;
  options.on_stage = [&](ProveStage stage) { timer.mark(prove_stage_name(stage)); };
  std::array<uint8_t, 32> seed;
  if (auto text = args.get("test-seed")) {
    fputs("enygma prove: WARNING: --test-seed makes the blinding deterministic (INSECURE)\n",
          stderr);
    seed = native::test_seed_from_text(*text);
    options.insecure_test_seed = seed;
  }
  auto proof = (*prover)->prove_witness(std::move(*witness), pool, options);
  if (!proof) {
    // A key the proof finds wrong (not checked against the circuit above) named as at the load.
    const Error& e = proof.error();
    return cli::fail(e.field == "proving_key"
                         ? native::naming_file(e, native::proving_key_path(keys, *circuit))
                         : e);
  }
  timer.mark("output");
  if (auto out = args.get("out")) {
    if (auto st = native::write_output_file(*out, proof->response_json + "\n"); !st) {
      return cli::fail(st.error());
    }
  } else {
    printf("%s\n", proof->response_json.c_str());
  }
  timer.print();
  return 0;
}

cli::Registration register_prove{
    {"prove", "prove a request (reference response JSON out)", &run_prove}};

}  // namespace
