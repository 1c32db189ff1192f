// The subcommand registry of the enygma CLI. A subcommand is defined in its own file with
//   static enygma::cli::Registration reg{{"name", "one-line summary", &run_fn}};
// and receives argv with argv[0] = its own name.
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
