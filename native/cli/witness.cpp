// enygma witness: the full witness of a request of any circuit as circom's .wtns file, so that
// snarkjs (`snarkjs wtns check`, `snarkjs groth16 prove`) and rapidsnark can use our circuit.

#include <sodium.h>

#include <cstdio>
#include <string>

#include "core/r1cs/wtns_file.hpp"
#include "core/registry/registry.hpp"
#include "core/util/secure_vector.hpp"
#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"
#include "native/common/options.hpp"

namespace {

using namespace enygma;

int run_witness(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"circuit", "k", "input", "out"}, {"explain"}, "enygma witness")) {
    return native::kExitUsage;
  }
  if (args.help()) {
    fputs(
        "usage: enygma witness [--circuit NAME] [--k K] --input REQ.json --out FILE.wtns\n"
        "       enygma witness [--circuit NAME] [--k K] --input REQ.json --explain\n"
        "\n"
        "Validates the request (the rules of its relation), computes the circuit's witness and\n"
        "writes it in circom's .wtns format (--input -: the request from standard input).\n"
        "The file holds every secret of the request: keep it private and delete it after use.\n"
        "  snarkjs wtns check transfer-k6.r1cs FILE.wtns\n"
        "--explain: validation bypassed, print the label of the first constraint the request's\n"
        "witness violates ({\"satisfied\":true} when none does): why a request fails.\n"
        "Exit codes: 0 written (--explain: satisfied), 2 invalid request (the error as JSON on\n"
        "stderr; --explain: a constraint violated), 64 usage error, 1 other.\n",
        stdout);
    return 0;
  }
  auto circuit = native::circuit_option(args);
  if (!circuit) return cli::fail(circuit.error());
  if (args.has("explain")) {
    if (!args.require("witness", {"input"})) return native::kExitUsage;
    if (args.has("out")) {
      return cli::usage_error("--explain writes no witness: --out cannot be given with it");
    }
    auto text = native::read_text_file(*args.get("input"));
    if (!text) return cli::fail(text.error());
    auto label = circuit->family->first_violation(*text, circuit->k);
    sodium_memzero(text->data(), text->size());
    if (!label) return cli::fail(label.error());
    if (label->empty()) {
      printf("{\"satisfied\":true}\n");
      return 0;
    }
    printf("{\"satisfied\":false,\"first_violated\":%s}\n", cli::json_string(*label).c_str());
    return native::kExitRefused;
  }
  if (!args.require("witness", {"input", "out"})) return native::kExitUsage;
  auto input = args.get("input");
  auto out = args.get("out");
  if (auto st = native::check_output_place(*out); !st) return cli::fail(st.error());
  auto text = native::read_text_file(*input);
  if (!text) return cli::fail(text.error());
  auto computed = circuit->family->witness(*text, circuit->k);
  sodium_memzero(text->data(), text->size());
  if (!computed) return cli::fail(computed.error());
  std::vector<Fr> witness = std::move(*computed);
  const R1cs& r1cs = circuit_r1cs(*circuit);
  if (witness.size() != r1cs.num_wires || r1cs.first_unsatisfied(witness)) {
    sodium_memzero(witness.data(), witness.size() * sizeof(Fr));
    return cli::fail(
        make_error("the witness does not satisfy the circuit (internal error)", "internal"));
  }
  SecureVector<uint8_t> bytes = write_wtns_file(witness);
  sodium_memzero(witness.data(), witness.size() * sizeof(Fr));
  if (auto st = native::write_output_file(*out, bytes.data(), bytes.size(),
                                          native::FileAccess::kOwnerOnly);
      !st) {
    return cli::fail(st.error());
  }
  fprintf(cli::summary_stream(*out), "{%s,\"wires\":%u,\"out\":%s}\n",
          cli::circuit_json_fields(*circuit).c_str(), r1cs.num_wires,
          cli::json_string(*out).c_str());
  return 0;
}

enygma::cli::Registration register_witness{
    {"witness", "write a request's witness as circom's .wtns (for snarkjs)", &run_witness}};

}  // namespace
