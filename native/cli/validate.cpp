// enygma validate: check a transfer request against R1..R15 natively (no proof), with the
// same error object the server answers with.
#include <sodium.h>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "core/transfer/request.hpp"
#include "core/transfer/validate.hpp"
#include "native/cli/commands.hpp"
#include "native/common/options.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"

namespace enygma::cli {
namespace {

const char kHelp[] =
    "usage: enygma validate --k K --input REQUEST.json [--all]\n"
    "\n"
    "Checks a transfer request (the reference JSON of POST /generateProofTransfer-{k}) for\n"
    "format and against rules R1..R15 of the transfer relation, in that order.\n"
    "\n"
    "  --k K          anonymity-set size, 2..16\n"
    "  --input FILE   the request; - for standard input\n"
    "  --all          report every failing rule (a JSON array on standard error), not only\n"
    "                 the first\n"
    "\n"
    "Exit status: 0 valid ({\"valid\":true} on standard output), 2 invalid (the error as\n"
    "{\"error\", \"rule\", \"field\"} on standard error), 1 usage or file error.\n";

int run_validate(int argc, char** argv) {
  Args args;
  if (!args.parse(argc, argv, {"k", "input"}, {"all"})) return 1;
  if (args.help()) {
    fputs(kHelp, stdout);
    return 0;
  }
  if (!args.get("k") || !args.get("input")) {
    return fail_with(make_error("--k and --input are required", "usage", ""), 1);
  }
  auto k = args.get_uint("k", 0, kMinK, kMaxK);
  if (!k) return 1;
  const std::string path = *args.get("input");
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    auto file = native::read_text_file(path);
    if (!file) return fail_with(file.error(), 1);
    text = std::move(*file);
  }
  auto request = parse_transfer_request(text, unsigned(*k));
  sodium_memzero(text.data(), text.size());  // the request's secrets as text
  if (!request) return fail_with(request.error(), 2);
  if (args.has("all")) {
    const auto errors = validate_transfer_all(*request);
    if (errors.empty()) {
      printf("{\"valid\":true}\n");
      return 0;
    }
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Error& e : errors) list.push_back(nlohmann::ordered_json::parse(error_json(e)));
    fprintf(stderr, "%s\n", list.dump().c_str());
    return 2;
  }
  if (Status st = validate_transfer(*request); !st) return fail_with(st.error(), 2);
  printf("{\"valid\":true}\n");
  return 0;
}

Registration reg{
    {"validate", "check a transfer request against R1..R15 (exit 0 valid, 2 not)", &run_validate}};

}  // namespace
}  // namespace enygma::cli
