// enygma: command-line entry point. Each subcommand lives in its own native/cli_*.cpp and
// registers itself in the table below.
#include <cstdio>
#include <cstring>
#include <string>

#include "native/cli.hpp"

int main(int argc, char** argv) {
  using namespace enygma::cli;
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    print_usage(stdout);
    return argc < 2 ? 2 : 0;
  }
  const Command* cmd = find_command(argv[1]);
  if (!cmd) {
    fprintf(stderr, "enygma: unknown command '%s'\n\n", argv[1]);
    print_usage(stderr);
    return 2;
  }
  return cmd->run(argc - 1, argv + 1);
}
