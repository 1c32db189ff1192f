// enygma info: the size of the transfer circuit for k (constraints, wires, public inputs, the
// Groth16 FFT domain), as JSON.
#include <cstdio>
#include <string>

#include "core/r1cs/r1cs.hpp"
#include "core/transfer/transfer_circuit.hpp"
#include "native/cli/commands.hpp"
#include "native/common/options.hpp"
#include "native/cli/output.hpp"

namespace enygma::cli {
namespace {

const char kHelp[] =
    "usage: enygma info --k K [--digest]\n"
    "\n"
    "Prints the size of the transfer circuit for anonymity-set size K as JSON:\n"
    "  {\"k\", \"constraints\", \"wires\", \"public_inputs\", \"private_wires\", \"fft_domain\"}\n"
    "fft_domain is the Groth16 evaluation domain: the smallest power of two holding the\n"
    "constraints plus one row per public input and one for the constant wire.\n"
    "\n"
    "  --k K       anonymity-set size, 2..16; a list such as 2-16 or 2,6 prints a JSON array\n"
    "  --digest    also print \"digest\": the BLAKE2b-256 of the R1CS (hex), as in key files\n"
    "\n"
    "Exit status: 0, or 1 on a usage error.\n";

std::string info_json(unsigned k, bool with_digest) {
  const TransferCircuitInfo info = transfer_circuit_info(k);
  // Appends only: g++ 12 warns (-Wrestrict, PR 105651) on "literal" + std::string chains.
  std::string out;
  auto field = [&](const char* name, size_t value) {
    out += out.empty() ? "{\"" : ",\"";
    out += name;
    out += "\":";
    out += std::to_string(value);
  };
  field("k", info.k);
  field("constraints", info.constraints);
  field("wires", info.wires);
  field("public_inputs", info.public_inputs);
  field("private_wires", info.private_wires);
  field("fft_domain", size_t(1) << info.fft_log_domain);
  if (with_digest) {
    static const char hex[] = "0123456789abcdef";
    out += ",\"digest\":\"";
    for (uint8_t byte : transfer_r1cs(k).digest()) {
      out += hex[byte >> 4];
      out += hex[byte & 15];
    }
    out += '"';
  }
  out += '}';
  return out;
}

int run_info(int argc, char** argv) {
  Args args;
  if (!args.parse(argc, argv, {"k"}, {"digest"})) return 1;
  if (args.help()) {
    fputs(kHelp, stdout);
    return 0;
  }
  if (!args.get("k")) return fail_with(make_error("--k is required", "usage", "k"), 1);
  const auto ks = parse_k_list(*args.get("k"), kMinK, kMaxK);
  if (!ks || ks->empty()) {
    return fail_with(make_error("--k must be a size in 2..16, a range such as 2-16 or a list "
                                "such as 2,6",
                                "usage", "k"),
                     1);
  }
  const bool digest = args.has("digest");
  if (ks->size() == 1) {
    printf("%s\n", info_json(ks->front(), digest).c_str());
    return 0;
  }
  printf("[");
  for (size_t i = 0; i < ks->size(); ++i) {
    printf("%s%s", i ? "," : "", info_json((*ks)[i], digest).c_str());
  }
  printf("]\n");
  return 0;
}

Registration reg{{"info", "print the transfer circuit's size for k as JSON", &run_info}};

}  // namespace
}  // namespace enygma::cli
