// enygma export-r1cs: a circuit as circom's .r1cs file, for snarkjs
// (`snarkjs r1cs info`, `snarkjs groth16 setup`, `snarkjs wtns check`) and other circom tools.

#include <cstdio>
#include <string>

#include "core/r1cs/r1cs_file.hpp"
#include "core/registry/registry.hpp"
#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"
#include "native/common/options.hpp"

namespace {

using namespace enygma;

int run_export_r1cs(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"circuit", "k", "out"}, {}, "enygma export-r1cs"))
    return native::kExitUsage;
  if (args.help()) {
    fputs(
        "usage: enygma export-r1cs [--circuit NAME] [--k K] --out FILE.r1cs\n"
        "\n"
        "Writes the R1CS of a circuit (default transfer; --k for the circuits with an\n"
        "anonymity-set size) in circom's .r1cs format (wire 0 = 1, then the public inputs in the\n"
        "documented public_signal order, then the private wires; no outputs) and prints a\n"
        "summary as JSON. snarkjs reads it:\n"
        "  snarkjs r1cs info FILE.r1cs\n"
        "  snarkjs groth16 setup FILE.r1cs POT.ptau circuit_0000.zkey\n",
        stdout);
    return 0;
  }
  auto circuit = native::circuit_option(args);
  if (!circuit) return cli::fail(circuit.error());
  if (!args.require("export-r1cs", {"out"})) return native::kExitUsage;
  auto out = args.get("out");
  const R1cs& r1cs = circuit_r1cs(*circuit);
  if (auto st = native::write_output_file(*out, write_r1cs_file(r1cs)); !st) {
    return cli::fail(st.error());
  }
  fprintf(cli::summary_stream(*out),
          "{%s,\"constraints\":%zu,\"wires\":%u,\"public_inputs\":%u,\"out\":%s}\n",
          cli::circuit_json_fields(*circuit).c_str(), r1cs.num_constraints(), r1cs.num_wires,
          r1cs.num_public, cli::json_string(*out).c_str());
  return 0;
}

enygma::cli::Registration register_export_r1cs{
    {"export-r1cs", "write a circuit as circom's .r1cs (for snarkjs)", &run_export_r1cs}};

}  // namespace
