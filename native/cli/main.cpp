// enygma: command-line entry point. Each subcommand lives in its own native/cli/*.cpp and
// registers itself in the table below.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <system_error>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core/field/cpu_features.hpp"
#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/options.hpp"

namespace {

// ENYGMA_DISABLE_KERNELS=adx,ifma (or "all"): run the portable code instead of the x86-64
// kernels picked from cpuid, to compare them or to rule them out. Returns false on an unknown
// name.
bool apply_disabled_kernels(const char* list) {
  std::string rest = list;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string name = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    if (name == "adx" || name == "all") enygma::set_adx_enabled(false);
    if (name == "ifma" || name == "all") enygma::set_ifma_enabled(false);
    if (name != "adx" && name != "ifma" && name != "all" && !name.empty()) {
      fprintf(stderr,
              "enygma: ENYGMA_DISABLE_KERNELS: unknown kernel '%s' (known: adx, ifma, all)\n",
              enygma::native::shown_on_one_line(name).c_str());
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace enygma::cli;
#if defined(__GLIBC__)
  // One malloc arena for all threads: the prover's stage buffers are freed and reallocated by
  // different pool threads, and per-thread arenas kept each thread's freed blocks resident,
  // raising the peak RSS of a multi-threaded proof at no gain in time. A fixed mmap threshold
  // lowers the peak further but pays page faults on every proof. (Measured: CHANGELOG.md,
  // stop 11.)
  mallopt(M_ARENA_MAX, 1);
#endif
  if (const char* off = getenv("ENYGMA_DISABLE_KERNELS"); off && !apply_disabled_kernels(off)) {
    return enygma::native::kExitUsage;
  }
  int status;
  // `enygma help <command>` is `enygma <command> --help`
  char help_flag[] = "--help";
  char* help_argv[4] = {};
  if (argc == 3 && !strcmp(argv[1], "help")) {
    help_argv[0] = argv[0];
    help_argv[1] = argv[2];
    help_argv[2] = help_flag;
    argv = help_argv;  // argc stays 3
  }
  if (argc < 2) {
    // a usage error: the usage goes where errors go, stdout stays empty
    print_usage(stderr);
    return enygma::native::kExitUsage;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    print_usage(stdout);
    status = 0;
  } else if (const Command* cmd = find_command(argv[1])) {
    // What no command answers itself (the system refusing memory or threads) is an error that
    // says so, exit 1, not an abort.
    set_running_command(cmd->name);
    try {
      status = cmd->run(argc - 1, argv + 1);
    } catch (const std::bad_alloc&) {
      fprintf(stderr, "enygma %s: out of memory\n", argv[1]);
      return enygma::native::kExitFailed;
    } catch (const std::system_error& e) {
      fprintf(stderr,
              "enygma %s: the system refused a thread or another resource (%s); with many "
              "threads (--threads, --max-inflight x --prover-threads), ask for fewer\n",
              argv[1], e.what());
      return enygma::native::kExitFailed;
    } catch (const std::exception& e) {
      fprintf(stderr, "enygma %s: internal error: %s\n", argv[1], e.what());
      return enygma::native::kExitFailed;
    }
  } else {
    fprintf(stderr, "enygma: unknown command '%s'\n\n",
            enygma::native::shown_on_one_line(argv[1]).c_str());
    print_usage(stderr);
    return enygma::native::kExitUsage;
  }
  // What a command printed must have reached standard output (a full disk, a closed pipe): a
  // proof lost there is a failure, not exit 0.
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "enygma: cannot write standard output: %s\n", strerror(errno));
    return status == 0 ? enygma::native::kExitFailed : status;
  }
  return status;
}
