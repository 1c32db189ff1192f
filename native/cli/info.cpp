// enygma info: the size of circuits (constraints, wires, public inputs, the Groth16 FFT domain),
// as JSON.
#include <cstdio>
#include <string>

#include "core/registry/registry.hpp"
#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/options.hpp"

namespace enygma::cli {
namespace {

const char kInfoHelp[] =
    "usage: enygma info [--circuit LIST] [--k K] [--digest]\n"
    "\n"
    "Prints the size of a circuit as JSON:\n"
    "  {\"circuit\", \"k\", \"constraints\", \"wires\", \"public_inputs\", \"private_wires\",\n"
    "   \"domain\", \"fft_domain\", \"prove_route\"}\n"
    "domain is the Groth16 evaluation domain of this project's keys: the smallest 2^k or\n"
    "3 * 2^k holding the constraints plus one row per public input and one for the constant\n"
    "wire; fft_domain the smallest power of two (snarkjs's domain, e.g. for the powers of\n"
    "tau it needs). Several circuits print a JSON array.\n"
    "\n"
    "  --circuit LIST  families or circuit ids, or all (default transfer)\n"
    "  --k K           anonymity-set sizes, e.g. 6, 2-16 or 2,6 (default: each family's\n"
    "                  defaults, 2-6); with all, a --k leaves out the families without k\n"
    "                  unless they are named\n"
    "  --digest        also print \"digest\": the BLAKE2b-256 of the R1CS (hex), as in key files\n"
    "\n"
    "Exit status: 0, or 64 on a usage error.\n";

std::string info_json(const CircuitId& circuit, bool with_digest) {
  const CircuitInfo info = circuit_info(circuit);
  // Appends only: g++ 12 warns (-Wrestrict, PR 105651) on "literal" + std::string chains.
  std::string out = "{";
  out += circuit_json_fields(circuit);
  auto field = [&](const char* name, size_t value) {
    out += ",\"";
    out += name;
    out += "\":";
    out += std::to_string(value);
  };
  field("constraints", info.constraints);
  field("wires", info.wires);
  field("public_inputs", info.public_inputs);
  field("private_wires", info.private_wires);
  field("domain", info.domain_size);
  field("fft_domain", size_t(1) << info.fft_log_domain);
  out += ",\"prove_route\":";
  out += json_string(circuit.prove_route());
  if (with_digest) {
    static const char hex[] = "0123456789abcdef";
    out += ",\"digest\":\"";
    for (uint8_t byte : circuit_digest(circuit)) {
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
  if (!args.parse(argc, argv, {"circuit", "k"}, {"digest"}, "enygma info"))
    return native::kExitUsage;
  if (args.help()) {
    fputs(kInfoHelp, stdout);
    return 0;
  }
  auto circuits = native::circuits_option(args, "transfer");
  if (!circuits) return fail(circuits.error());
  const bool digest = args.has("digest");
  if (circuits->size() == 1) {
    printf("%s\n", info_json(circuits->front(), digest).c_str());
    return 0;
  }
  printf("[");
  for (size_t i = 0; i < circuits->size(); ++i) {
    printf("%s%s", i ? "," : "", info_json((*circuits)[i], digest).c_str());
  }
  printf("]\n");
  return 0;
}

Registration register_info{
    {"info", "print circuit sizes (constraints, wires, domain) as JSON", &run_info}};

}  // namespace
}  // namespace enygma::cli
