// enygma export-vk / export-proof: the snarkjs formats of our verifying key and proofs, so that
// `snarkjs groth16 verify verification_key.json public.json proof.json` can check them.
#include <cstdio>
#include <optional>
#include <string>

#include "core/groth16/proof_format.hpp"
#include "core/registry/registry.hpp"
#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"
#include "native/common/key_loading.hpp"
#include "native/common/options.hpp"

namespace {

using namespace enygma;

int run_export_vk(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"circuit", "k", "keys", "format", "out"}, {}, "enygma export-vk")) {
    return native::kExitUsage;
  }
  if (args.help()) {
    fputs(
        "usage: enygma export-vk [--circuit NAME] [--k K] [--keys DIR] [--format snarkjs]\n"
        "                        [--out FILE]\n"
        "\nWrites the verifying key DIR/<circuit>.vk as snarkjs's verification_key.json (stdout\n"
        "or --out).\n",
        stdout);
    return 0;
  }
  auto circuit = native::circuit_option(args);
  if (!circuit) return cli::fail(circuit.error());
  if (args.get_or("format", "snarkjs") != "snarkjs") {
    return cli::usage_error("the only --format is snarkjs");
  }
  auto prover = native::load_circuit_prover(args.get_or("keys", "keys/dev"), *circuit, false,
                                            sequential_pool());
  if (!prover) return cli::fail(prover.error());
  std::string text = verifying_key_to_snarkjs_json((*prover)->verifying_key()) + "\n";
  if (auto out = args.get("out")) {
    if (auto st = native::write_output_file(*out, text); !st) return cli::fail(st.error());
  } else {
    fputs(text.c_str(), stdout);
  }
  cli::warn_if_insecure_verifying_key("export-vk", (*prover)->verifying_key().insecure_dev);
  return 0;
}

int run_export_proof(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"proof", "format", "out-proof", "out-public", "circuit", "k"}, {},
                  "enygma export-proof")) {
    return native::kExitUsage;
  }
  if (args.help()) {
    fputs(
        "usage: enygma export-proof --proof RESP.json [--format snarkjs] --out-proof proof.json\n"
        "                           --out-public public.json [--circuit NAME] [--k K]\n"
        "\nConverts a reference response JSON (--proof -: from standard input) into snarkjs's\n"
        "proof.json and public.json. With --circuit (and --k) the public_signal must have\n"
        "exactly that circuit's number of public inputs: snarkjs groth16 verify does not\n"
        "compare public.json's length with the key's, and takes missing trailing inputs as 0.\n",
        stdout);
    return 0;
  }
  if (!args.require("export-proof", {"proof", "out-proof", "out-public"})) {
    return native::kExitUsage;
  }
  if (args.get_or("format", "snarkjs") != "snarkjs") {
    return cli::usage_error("the only --format is snarkjs");
  }
  // Two files: one path for both would keep only the second (the proof overwritten), and both
  // on standard output would be two JSON texts run together.
  const std::string out_proof = *args.get("out-proof"), out_public = *args.get("out-public");
  if (native::same_output_place(out_proof, out_public)) {
    return cli::usage_error("--out-proof and --out-public name the same file");
  }
  // The options and the output places are checked before the proof is read (standard input
  // consumed): a usage error is one whatever the proof, and a failed export never leaves a
  // proof.json beside a public.json of another proof.
  std::optional<CircuitId> circuit;
  if (args.has("circuit") || args.has("k")) {
    auto chosen = native::circuit_option(args);
    if (!chosen) return cli::fail(chosen.error());
    circuit = *chosen;
  }
  for (const std::string& out : {out_proof, out_public}) {
    if (Status st = native::check_output_place(out); !st) return cli::fail(st.error());
  }
  auto text = native::read_text_file(*args.get("proof"));
  if (!text) return cli::fail(text.error());
  const std::string proof_path = *args.get("proof");
  auto parsed = proof_from_reference_json(*text, cli::proof_file_document(proof_path));
  if (!parsed) return cli::fail(parsed.error());
  if (circuit) {
    const size_t expected = circuit_info(*circuit).public_inputs;
    if (parsed->public_inputs.size() != expected) {
      return cli::fail(make_error(
          "public_signal has " + std::to_string(parsed->public_inputs.size()) + " values; the " +
              circuit->str() + " circuit has " + std::to_string(expected) + " public inputs",
          "proof", "public_signal"));
    }
  }
  // Both or neither: a failure (a folder in the way, a full disk) never leaves a proof.json
  // beside a public.json of another proof.
  const std::string proof_text = proof_to_snarkjs_json(parsed->proof),
                    public_text = public_to_snarkjs_json(parsed->public_inputs);
  const native::OutputFile pair[] = {{out_proof, proof_text.data(), proof_text.size()},
                                     {out_public, public_text.data(), public_text.size()}};
  if (auto st = native::write_output_files(pair); !st) return cli::fail(st.error());
  return 0;
}

cli::Registration reg_vk{
    {"export-vk", "write the verifying key as snarkjs verification_key.json", &run_export_vk}};
cli::Registration reg_proof{
    {"export-proof", "convert a response JSON to snarkjs proof/public", &run_export_proof}};

}  // namespace
