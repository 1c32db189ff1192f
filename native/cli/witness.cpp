// enygma witness: the full witness of a transfer request as circom's .wtns file, so that
// snarkjs (`snarkjs wtns check`, `snarkjs groth16 prove`) and rapidsnark can use our circuit.

#include <sodium.h>

#include <cstdio>
#include <string>

#include "core/r1cs/wtns_file.hpp"
#include "core/transfer/request.hpp"
#include "core/transfer/transfer_circuit.hpp"
#include "core/transfer/validate.hpp"
#include "core/util/secure_vector.hpp"
#include "native/cli/commands.hpp"
#include "native/common/options.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"

namespace {

using namespace enygma;

int run_witness(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"k", "input", "out"})) return 2;
  if (args.help()) {
    fputs(
        "usage: enygma witness --k K --input REQ.json --out FILE.wtns\n"
        "\n"
        "Validates the request (rules R1..R15), computes the transfer circuit's witness and\n"
        "writes it in circom's .wtns format. The file holds every secret of the transfer:\n"
        "keep it private and delete it after use.\n"
        "  snarkjs wtns check transfer-kK.r1cs FILE.wtns\n"
        "Exit codes: 0 written, 2 invalid request (the error as JSON on stderr), 1 other.\n",
        stdout);
    return 0;
  }
  auto k = args.get_uint("k", 0, kMinK, kMaxK);
  if (!k) return 2;
  if (!args.require("witness", {"input", "out"})) return 2;
  auto input = args.get("input");
  auto out = args.get("out");
  auto text = native::read_text_file(*input);
  if (!text) return cli::fail_with(text.error(), 1);
  auto req = parse_transfer_request(*text, unsigned(*k));
  sodium_memzero(text->data(), text->size());
  if (!req) return cli::fail_with(req.error(), 2);
  if (auto st = validate_transfer(*req); !st) return cli::fail_with(st.error(), 2);

  std::vector<Fr> witness = transfer_witness(*req);
  const R1cs& r1cs = transfer_r1cs(unsigned(*k));
  if (witness.size() != r1cs.num_wires || r1cs.first_unsatisfied(witness)) {
    sodium_memzero(witness.data(), witness.size() * sizeof(Fr));
    return cli::fail_with(
        make_error("the witness does not satisfy the circuit (internal error)", "internal"), 1);
  }
  SecureVector<uint8_t> bytes = write_wtns_file(witness);
  sodium_memzero(witness.data(), witness.size() * sizeof(Fr));
  if (auto st = native::write_file_atomic(*out, bytes.data(), bytes.size()); !st) {
    return cli::fail_with(st.error(), 1);
  }
  printf("{\"k\":%lu,\"wires\":%u,\"out\":%s}\n", *k, r1cs.num_wires,
         cli::json_string(*out).c_str());
  return 0;
}

enygma::cli::Registration reg{
    {"witness", "write a request's witness as circom's .wtns (for snarkjs)", &run_witness}};

}  // namespace
