// enygma prove: one proof of any circuit from a request JSON (the reference response JSON out).
#include <cstdio>
#include <string>

#include <sodium.h>

#include "native/cli/commands.hpp"
#include "native/common/options.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"
#include "native/common/key_loading.hpp"

namespace {

using namespace enygma;

const char* kHelp =
    "usage: enygma prove [--circuit NAME] [--k K] --input REQ.json [--keys DIR]\n"
    "                    [--out RESP.json] [--threads N] [--test-seed TEXT]\n"
    "\n"
    "Validates the request against the rules of its relation, builds the witness and writes\n"
    "the Groth16 proof as the reference service's response JSON (stdout, or --out), with the\n"
    "keys DIR/<circuit>.pk and .vk.\n"
    "\n"
    "  --circuit NAME    transfer (default), deposit, withdraw, joinsplit-enygma,\n"
    "                    joinsplit-1155, ownership-721\n"
    "  --k K             anonymity-set size, for the circuits that have one\n"
    "Exit codes: 0 proved, 2 invalid request (the error as JSON on stderr), 1 other failures.\n"
    "\n"
    "  --keys DIR        key folder (default keys/dev)\n"
    "  --threads N       prover threads (default: all cores)\n"
    "  --test-seed TEXT  deterministic blinding derived from TEXT: INSECURE, for cross-target\n"
    "                    tests only (the same keys, request and seed give the same bytes).\n";

int run_prove(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"circuit", "k", "input", "keys", "out", "threads", "test-seed"})) {
    return 2;
  }
  if (args.help()) {
    fputs(kHelp, stdout);
    return 0;
  }
  auto circuit = native::circuit_option(args);
  if (!circuit) return cli::fail_with(circuit.error(), 2);
  auto threads = args.get_uint("threads", 0, 0, 1024);
  if (!threads || !args.get("input")) {
    if (!args.get("input")) fputs("enygma prove: --input REQ.json is required\n", stderr);
    return 2;
  }
  auto request = native::read_text_file(*args.get("input"));
  if (!request) return cli::fail_with(request.error(), 1);
  // The request first: a bad request is reported even where no keys exist.
  auto witness = circuit->family->witness(*request, circuit->k);
  sodium_memzero(request->data(), request->size());  // the request's secrets as text
  if (!witness) return cli::fail_with(witness.error(), 2);
  ThreadPool pool{unsigned(*threads)};
  auto prover = native::load_circuit_prover(args.get_or("keys", "keys/dev"), *circuit, true, pool);
  if (!prover) {
    sodium_memzero(witness->data(), witness->size() * sizeof(Fr));
    return cli::fail_with(prover.error(), 1);
  }
  ProveOptions options;
  std::array<uint8_t, 32> seed;
  if (auto text = args.get("test-seed")) {
    fputs("enygma prove: WARNING: --test-seed makes the blinding deterministic (INSECURE)\n",
          stderr);
    seed = native::test_seed_from_text(*text);
    options.insecure_test_seed = seed;
  }
  auto proof = (*prover)->prove_witness(std::move(*witness), pool, options);
  if (!proof) return cli::fail_with(proof.error(), is_request_error(proof.error()) ? 2 : 1);
  if (auto out = args.get("out")) {
    if (auto st = native::write_file_atomic(*out, proof->response_json + "\n"); !st) {
      return cli::fail_with(st.error(), 1);
    }
  } else {
    printf("%s\n", proof->response_json.c_str());
  }
  return 0;
}

cli::Registration reg{{"prove", "prove a request (reference response JSON out)", &run_prove}};

}  // namespace
