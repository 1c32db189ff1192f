// enygma verify: check a proof of any circuit (a reference response JSON).
#include <cstdio>
#include <string>

#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"
#include "native/common/key_loading.hpp"
#include "native/common/options.hpp"

namespace {

using namespace enygma;

const char* kVerifyHelp =
    "usage: enygma verify [--circuit NAME] [--k K] --proof RESP.json [--keys DIR]\n"
    "\n"
    "Verifies a proof in the reference response format against DIR/<circuit>.vk\n"
    "(--circuit: transfer (default), deposit, withdraw, joinsplit-enygma, ...; --k for the\n"
    "circuits with an anonymity-set size). --proof -: the response from standard input.\n"
    "Prints {\"valid\":true} and exits 0, or {\"valid\":false,\"reason\":...} and exits 1;\n"
    "a malformed proof file exits 2 with the error as JSON on stderr; missing or bad keys and\n"
    "an unreadable file exit 1 (the error as JSON), a usage error 64.\n";

int run_verify(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"circuit", "k", "proof", "keys"}, {}, "enygma verify"))
    return native::kExitUsage;
  if (args.help()) {
    fputs(kVerifyHelp, stdout);
    return 0;
  }
  auto circuit = native::circuit_option(args);
  if (!circuit) return cli::fail(circuit.error());
  if (!args.require("verify", {"proof"})) return native::kExitUsage;
  auto text = native::read_text_file(*args.get("proof"));
  if (!text) return cli::fail(text.error());
  auto prover = native::load_circuit_prover(args.get_or("keys", "keys/dev"), *circuit, false,
                                            sequential_pool());
  if (!prover) return cli::fail(prover.error());
  const std::string proof_path = *args.get("proof");
  auto st = (*prover)->verify_response(*text, cli::proof_file_document(proof_path));
  if (st) {
    printf("{\"valid\":true}\n");
    return 0;
  }
  if (st.error().rule != "invalid") {
    return cli::fail(st.error());
  }
  printf("{\"valid\":false,\"reason\":%s}\n", cli::json_string(st.error().message).c_str());
  return native::kExitFailed;
}

cli::Registration register_verify{
    {"verify", "verify a proof (exit 0 valid, 1 invalid)", &run_verify}};

}  // namespace
