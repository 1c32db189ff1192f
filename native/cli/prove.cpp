// enygma prove: one transfer proof from a request JSON (the reference response JSON out).
#include <cstdio>
#include <string>

#include "core/transfer/request.hpp"
#include "core/transfer/validate.hpp"
#include "native/cli/commands.hpp"
#include "native/common/options.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"
#include "native/common/key_loading.hpp"

namespace {

using namespace enygma;

const char* kHelp =
    "usage: enygma prove --k K --input REQ.json [--keys DIR] [--out RESP.json] [--threads N]\n"
    "                    [--test-seed TEXT]\n"
    "\n"
    "Validates the request against rules R1..R15, builds the witness and writes the Groth16\n"
    "proof as the reference service's response JSON (stdout, or --out).\n"
    "Exit codes: 0 proved, 2 invalid request (the error as JSON on stderr), 1 other failures.\n"
    "\n"
    "  --keys DIR        key folder (default keys/dev)\n"
    "  --threads N       prover threads (default: all cores)\n"
    "  --test-seed TEXT  deterministic blinding derived from TEXT: INSECURE, for cross-target\n"
    "                    tests only (the same keys, request and seed give the same bytes).\n";

int run_prove(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"k", "input", "keys", "out", "threads", "test-seed"})) return 2;
  if (args.help()) {
    fputs(kHelp, stdout);
    return 0;
  }
  auto k = args.get_uint("k", 0, kMinK, kMaxK);
  auto threads = args.get_uint("threads", 0, 0, 1024);
  if (!k || !threads || !args.get("input")) {
    if (!args.get("input")) fputs("enygma prove: --input REQ.json is required\n", stderr);
    return 2;
  }
  auto request = native::read_text_file(*args.get("input"));
  if (!request) return cli::fail_with(request.error(), 1);
  // The request first: a bad request is reported even where no keys exist.
  auto parsed = parse_transfer_request(*request, unsigned(*k));
  if (!parsed) return cli::fail_with(parsed.error(), 2);
  if (auto valid = validate_transfer(*parsed); !valid) return cli::fail_with(valid.error(), 2);
  ThreadPool pool{unsigned(*threads)};
  auto prover = native::load_transfer_prover(args.get_or("keys", "keys/dev"), unsigned(*k), true,
                                             pool);
  if (!prover) return cli::fail_with(prover.error(), 1);
  ProveOptions options;
  std::array<uint8_t, 32> seed;
  if (auto text = args.get("test-seed")) {
    fputs("enygma prove: WARNING: --test-seed makes the blinding deterministic (INSECURE)\n",
          stderr);
    seed = native::test_seed_from_text(*text);
    options.insecure_test_seed = seed;
  }
  auto proof = (*prover)->prove(*parsed, pool, options);
  if (!proof) return cli::fail_with(proof.error(), cli::is_request_error(proof.error()) ? 2 : 1);
  if (auto out = args.get("out")) {
    if (auto st = native::write_file_atomic(*out, proof->response_json + "\n"); !st) {
      return cli::fail_with(st.error(), 1);
    }
  } else {
    printf("%s\n", proof->response_json.c_str());
  }
  return 0;
}

cli::Registration reg{{"prove", "prove a transfer request (reference response JSON out)",
                       &run_prove}};

}  // namespace
