// enygma version: build facts (limb backend, compiler), as JSON.
#include <cstdio>

#include "core/parallel/thread_pool.hpp"
#include "native/cli.hpp"

namespace {

int run_version(int, char**) {
  printf("{\"name\":\"enygma-prover\",\"limbs\":\"%s\",\"hardware_threads\":%u}\n",
#if defined(ENYGMA_LIMB32)
         "32-bit",
#else
         "64-bit",
#endif
         enygma::ThreadPool::hardware_threads());
  return 0;
}

enygma::cli::Registration reg{{"version", "print build facts as JSON", &run_version}};

}  // namespace
