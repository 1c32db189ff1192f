// enygma make-request: a valid request of any circuit, built by its wallet code from a seed (the
// wallet's side of the relation documents), as the reference request JSON. make-transfer has
// more options for the transfer circuit (explicit values, recipients).
#include <sodium.h>

#include <cstdio>
#include <string>

#include "core/registry/registry.hpp"
#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/options.hpp"

namespace enygma::cli {
namespace {

const char kMakeRequestHelp[] =
    "usage: enygma make-request [--circuit NAME] [--k K] [--seed S] [--count N] [--out FILE]\n"
    "\n"
    "Builds a valid request of a circuit (default transfer) with its wallet code and prints it\n"
    "as the reference JSON of its route.\n"
    "\n"
    "  --circuit NAME  transfer, deposit, withdraw, joinsplit-enygma, joinsplit-1155,\n"
    "                  ownership-721\n"
    "  --k K           anonymity-set size, for the circuits that have one\n"
    "  --seed S        derive every value from S (a decimal 64-bit integer without leading\n"
    "                  zeros, or 64 hex digits for a 32-byte seed): the same seed gives the\n"
    "                  same request; without it a fresh random one\n"
    "  --count N       the circuit's main count: transfer, the recipients sharing the amount\n"
    "                  (1..k-1); withdraw, the notes consumed (1..10); join-split, the real\n"
    "                  inputs (1..10); deposit and ownership, 1; 0 or none: the circuit's\n"
    "                  default\n"
    "  --out FILE      write the JSON to FILE instead of standard output\n"
    "\n"
    "Exit status: 0 written, 2 the values cannot make a valid request (the error as JSON on\n"
    "standard error), 1 FILE cannot be written, 64 a usage error.\n";

// The circuits' wallets refuse a count or a k they cannot take naming it as the WebAssembly
// module's callers know it ("count (the recipients) = 2 is not in 1..k-1"): here the option that
// gave it, the wallet's words after its field's name kept (rule "wallet" kept).
Error naming_count_option(const Error& e) {
  if (e.rule != "wallet" || (e.field != "k" && e.field != "count")) return e;
  if (e.message.rfind(e.field + " ", 0) != 0) return e;
  return make_error("--" + e.field + e.message.substr(e.field.size()), "wallet", "--" + e.field);
}

int run_make_request(int argc, char** argv) {
  Args args;
  if (!args.parse(argc, argv, {"circuit", "k", "seed", "count", "out"}, {},
                  "enygma make-request")) {
    return native::kExitUsage;
  }
  if (args.help()) {
    fputs(kMakeRequestHelp, stdout);
    return 0;
  }
  auto circuit = native::circuit_option(args);
  if (!circuit) return fail(circuit.error());
  auto count = args.get_uint("count", 0, 0, 1000);
  if (!count) return fail(count.error());
  std::array<uint8_t, 32> seed{};
  if (const std::string* text = args.value("seed")) {
    auto parsed = parse_seed(*text);
    if (!parsed) return fail(parsed.error());
    seed = *parsed;
  } else {
    randombytes_buf(seed.data(), seed.size());
  }
  auto request = circuit->family->make_request(circuit->k, seed, unsigned(*count));
  sodium_memzero(seed.data(), seed.size());
  if (!request) return fail(naming_count_option(request.error()));
  std::string text = request_text_line(*request);
  return write_request_text(args, text);
}

Registration register_make_request{
    {"make-request", "build a valid request of any circuit (JSON) from a seed (wallet side)",
     &run_make_request}};

}  // namespace
}  // namespace enygma::cli
