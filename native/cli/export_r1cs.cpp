// enygma export-r1cs: the transfer circuit of k as circom's .r1cs file, for snarkjs
// (`snarkjs r1cs info`, `snarkjs groth16 setup`, `snarkjs wtns check`) and other circom tools.

#include <cstdio>
#include <string>

#include "core/r1cs/r1cs_file.hpp"
#include "core/transfer/request.hpp"
#include "core/transfer/transfer_circuit.hpp"
#include "native/cli/commands.hpp"
#include "native/common/options.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"

namespace {

using namespace enygma;

int run_export_r1cs(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"k", "out"})) return 2;
  if (args.help()) {
    fputs(
        "usage: enygma export-r1cs --k K --out FILE.r1cs\n"
        "\n"
        "Writes the R1CS of the transfer circuit for anonymity-set size K in circom's .r1cs\n"
        "format (wire 0 = 1, then the 8K+2 public inputs in the documented order, then the\n"
        "private wires; no outputs) and prints a summary as JSON. snarkjs reads it:\n"
        "  snarkjs r1cs info FILE.r1cs\n"
        "  snarkjs groth16 setup FILE.r1cs POT.ptau circuit_0000.zkey\n",
        stdout);
    return 0;
  }
  auto k = args.get_uint("k", 0, kMinK, kMaxK);
  if (!k) return 2;
  if (!args.require("export-r1cs", {"out"})) return 2;
  auto out = args.get("out");
  const R1cs& r1cs = transfer_r1cs(unsigned(*k));
  if (auto st = native::write_file_atomic(*out, write_r1cs_file(r1cs)); !st) {
    return cli::fail_with(st.error(), 1);
  }
  printf("{\"k\":%lu,\"constraints\":%zu,\"wires\":%u,\"public_inputs\":%u,\"out\":%s}\n", *k,
         r1cs.num_constraints(), r1cs.num_wires, r1cs.num_public, cli::json_string(*out).c_str());
  return 0;
}

enygma::cli::Registration reg{{"export-r1cs",
                               "write the transfer circuit as circom's .r1cs (for snarkjs)",
                               &run_export_r1cs}};

}  // namespace
