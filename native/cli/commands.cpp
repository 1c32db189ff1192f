#include "native/cli/commands.hpp"

#include <algorithm>
#include <cstring>

namespace enygma::cli {

static std::vector<Command>& registry() {
  static std::vector<Command> commands;
  return commands;
}

Registration::Registration(Command c) {
  registry().push_back(c);
}

const Command* find_command(const std::string& name) {
  for (const auto& c : registry()) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

void print_usage(FILE* out) {
  fprintf(out, "usage: enygma <command> [options]\n\ncommands:\n");
  auto cmds = registry();
  std::sort(cmds.begin(), cmds.end(),
            [](const Command& a, const Command& b) { return strcmp(a.name, b.name) < 0; });
  for (const auto& c : cmds) fprintf(out, "  %-16s %s\n", c.name, c.summary);
  fprintf(out,
          "\nRun 'enygma <command> --help' for the options of a command.\n"
          "Exit codes: 0 success; 2 the request (or verify's proof file) refused, the error as\n"
          "JSON on stderr; 1 anything else (keys, files; verify: a proof that does not verify);\n"
          "64 a usage error.\n");
}

}  // namespace enygma::cli
