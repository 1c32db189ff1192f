// enygma setup: Groth16 keys for the transfer circuit.
#include <sodium.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "core/groth16/key_format.hpp"
#include "core/groth16/setup.hpp"
#include "core/transfer/request.hpp"
#include "core/transfer/transfer_circuit.hpp"
#include "core/transfer/transfer_prover.hpp"
#include "native/cli/commands.hpp"
#include "native/common/options.hpp"
#include "native/common/file_io.hpp"

namespace {

using namespace enygma;

const char* kHelp =
    "usage: enygma setup [--k K] [--out DIR] [--threads N] [--insecure-seed TEXT]\n"
    "\n"
    "Generates Groth16 proving and verifying keys for the transfer circuit of each k and writes\n"
    "DIR/transfer-k<K>.pk and DIR/transfer-k<K>.vk (atomically: an interrupted run never leaves a\n"
    "half-written key under its final name).\n"
    "\n"
    "  --k K                 anonymity-set sizes: 4, 2-6 or 2,3,6 (default 2-6)\n"
    "  --out DIR             output folder (default keys/dev)\n"
    "  --threads N           worker threads (default: all cores)\n"
    "  --insecure-seed TEXT  derive the toxic waste from TEXT: reproducible keys that ANYONE\n"
    "                        knowing TEXT can forge proofs with. Development and tests only.\n"
    "\n"
    "Without --insecure-seed the toxic waste comes from libsodium's CSPRNG and is wiped after\n"
    "use. These are still single-party keys: production keys should come from a multi-party\n"
    "ceremony (see docs/interop.md, 'Production keys').\n";

int run_setup(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"k", "out", "threads", "insecure-seed"})) return 2;
  if (args.help()) {
    fputs(kHelp, stdout);
    return 0;
  }
  auto ks = cli::parse_k_list(args.get_or("k", "2-6"), kMinK, kMaxK);
  if (!ks) {
    fprintf(stderr, "enygma setup: --k must list sizes in %u..%u\n", kMinK, kMaxK);
    return 2;
  }
  auto threads = args.get_uint("threads", 0, 0, 1024);
  if (!threads) return 2;
  const std::string dir = args.get_or("out", "keys/dev");
  if (auto st = native::make_directories(dir); !st) {
    fprintf(stderr, "enygma setup: %s\n", st.error().message.c_str());
    return 1;
  }
  if (sodium_init() < 0) return 1;
  auto seed = args.get("insecure-seed");
  if (seed) {
    fprintf(stderr,
            "enygma setup: WARNING: --insecure-seed makes INSECURE development keys; anyone who "
            "knows the seed can forge proofs.\n");
  }
  ThreadPool pool{unsigned(*threads)};
  for (unsigned k : *ks) {
    auto t0 = std::chrono::steady_clock::now();
    const R1cs& r1cs = transfer_r1cs(k);
    Groth16Keys keys;
    if (seed) {
      std::string s = *seed + "/k=" + std::to_string(k);
      keys = groth16_setup_insecure_from_seed(
          r1cs, {reinterpret_cast<const uint8_t*>(s.data()), s.size()}, pool);
    } else {
      keys = groth16_setup(r1cs, pool);
    }
    const std::string name = transfer_circuit_name(k);
    auto pk_path = native::proving_key_path(dir, k), vk_path = native::verifying_key_path(dir, k);
    auto st = native::write_file_atomic(vk_path, serialize_verifying_key(keys.vk, name));
    if (st) st = native::write_file_atomic(pk_path, serialize_proving_key(keys.pk, name));
    if (!st) {
      fprintf(stderr, "enygma setup: %s\n", st.error().message.c_str());
      return 1;
    }
    double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("{\"k\":%u,\"proving_key\":\"%s\",\"verifying_key\":\"%s\",\"constraints\":%zu,"
           "\"insecure_dev\":%s,\"seconds\":%.2f}\n",
           k, pk_path.c_str(), vk_path.c_str(), r1cs.num_constraints(), seed ? "true" : "false",
           secs);
    fflush(stdout);
  }
  return 0;
}

cli::Registration reg{{"setup", "generate Groth16 keys for the transfer circuit", &run_setup}};

}  // namespace
