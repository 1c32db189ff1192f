// The subcommand registry of the enygma CLI. A subcommand is defined in its own file with
//   enygma::cli::Registration register_<name>{{"name", "one-line summary", &run_fn}};
// in an anonymous namespace (its name unique across the CLI: the CLI is a unity build) and
// receives argv with argv[0] = its own name.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace enygma::cli {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(int argc, char** argv);
};

struct Registration {
  explicit Registration(Command c);
};

const Command* find_command(const std::string& name);
void print_usage(FILE* out);

}  // namespace enygma::cli
