// enygma validate: check a request of any circuit against its relation's rules natively (no
// proof), with the same error object the server answers with.
#include <sodium.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"
#include "native/common/options.hpp"

namespace enygma::cli {
namespace {

const char kValidateHelp[] =
    "usage: enygma validate [--circuit NAME] [--k K] --input REQUEST.json [--all]\n"
    "\n"
    "Checks a request (the reference JSON of the circuit's route, e.g. POST\n"
    "/generateProofTransfer-{k}) for format and against the rules of its relation, in order\n"
    "(transfer: R1..R16; deposit: R1..R15d, R16, D1; withdraw: ..., R16, W1..W5; join-split: "
    "J1..J11;\n"
    "ownership: O1..O7).\n"
    "\n"
    "  --circuit NAME transfer (default), deposit, withdraw, joinsplit-enygma,\n"
    "                 joinsplit-1155, ownership-721\n"
    "  --k K          anonymity-set size, for the circuits that have one\n"
    "  --input FILE   the request; - for standard input\n"
    "  --all          report every failing rule (a JSON array on standard error), not only\n"
    "                 the first\n"
    "\n"
    "Exit status: 0 valid ({\"valid\":true} on standard output), 2 invalid (the error as\n"
    "{\"error\", \"rule\", \"field\"} on standard error), 1 file error, 64 usage error.\n";

int run_validate(int argc, char** argv) {
  Args args;
  if (!args.parse(argc, argv, {"circuit", "k", "input"}, {"all"}, "enygma validate"))
    return native::kExitUsage;
  if (args.help()) {
    fputs(kValidateHelp, stdout);
    return 0;
  }
  if (!args.require("validate", {"input"})) return native::kExitUsage;
  auto circuit = native::circuit_option(args);
  if (!circuit) return fail(circuit.error());
  auto file = native::read_text_file(*args.get("input"));  // "-": standard input
  if (!file) return fail(file.error());
  const std::vector<Error> errors = circuit->family->validate_all(*file, circuit->k);
  release(*file);  // the request's secrets as text
  if (errors.empty()) {
    printf("{\"valid\":true}\n");
    return 0;
  }
  // A request that does not parse has one error; one that parses, one per failing rule.
  if (args.has("all")) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Error& e : errors) list.push_back(nlohmann::ordered_json::parse(error_json(e)));
    fprintf(stderr, "%s\n", list.dump().c_str());
    return native::kExitRefused;
  }
  return fail(errors.front());
}

Registration register_validate{
    {"validate", "check a request against its relation's rules (exit 0 valid, 2 not)",
     &run_validate}};

}  // namespace
}  // namespace enygma::cli
