// enygma version: build facts (limb backend, hardware threads, the key file format it reads and
// writes), the x86-64 kernels in use and the CPU (cpuid's vendor, family, model, brand)
// (ADX/MULX field multiplication, AVX-512 IFMA batch additions; chosen from cpuid, and
// ENYGMA_DISABLE_KERNELS turns them off), as JSON.
#include <cstdio>

#include "core/field/cpu_features.hpp"
#include "core/groth16/key_format.hpp"
#include "core/parallel/thread_pool.hpp"
#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/options.hpp"

namespace {

int run_version(int argc, char** argv) {
  enygma::cli::Args args;
  if (!args.parse(argc, argv, {}, {}, "enygma version")) return enygma::native::kExitUsage;
  if (args.help()) {
    fputs(
        "usage: enygma version\n\nBuild facts, the x86-64 kernels in use and the CPU, as JSON\n"
        "(ENYGMA_DISABLE_KERNELS=adx,ifma or all turns kernels off).\n",
        stdout);
    return 0;
  }
  printf(
      "{\"name\":\"enygma-prover\",\"limbs\":\"%s\",\"hardware_threads\":%u,\"key_format\":%u,"
      "\"kernels\":{\"adx\":%s,\"ifma\":%s},\"cpu\":%s}\n",
#if defined(ENYGMA_LIMB32)
      "32-bit",
#else
      "64-bit",
#endif
      enygma::ThreadPool::hardware_threads(), unsigned(enygma::kKeyFormatVersion),
      enygma::adx_enabled() ? "true" : "false", enygma::ifma_enabled() ? "true" : "false",
      enygma::cli::cpu_json().c_str());
  return 0;
}

enygma::cli::Registration register_version{{"version", "print build facts as JSON", &run_version}};

}  // namespace
