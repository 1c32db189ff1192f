// enygma setup: Groth16 keys for the circuits.
#include "core/groth16/setup.hpp"

#include <sodium.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "core/groth16/key_format.hpp"
#include "core/registry/registry.hpp"
#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"
#include "native/common/key_loading.hpp"
#include "native/common/options.hpp"

namespace {

using namespace enygma;

const char* kSetupHelp =
    "usage: enygma setup [--circuit LIST] [--k K] [--out DIR] [--threads N]\n"
    "                    [--insecure-seed TEXT]\n"
    "\n"
    "Generates Groth16 proving and verifying keys for each circuit chosen and writes\n"
    "DIR/<circuit>.pk and DIR/<circuit>.vk, e.g. keys/dev/transfer-k6.pk (atomically: an\n"
    "interrupted run never leaves a half-written key under its final name). With no option:\n"
    "every circuit the server serves by default.\n"
    "\n"
    "  --circuit LIST        families (transfer,deposit,withdraw,joinsplit-enygma,\n"
    "                        joinsplit-1155,ownership-721), circuit ids (transfer-k6) or all\n"
    "                        (default all)\n"
    "  --k K                 anonymity-set sizes of the families that have them: 4, 2-6 or\n"
    "                        2,3,6 (default: each family's defaults, 2-6); with all, a --k\n"
    "                        leaves out the families without k unless they are named\n"
    "  --out DIR             output folder (default keys/dev)\n"
    "  --threads N           worker threads (default or 0: all cores)\n"
    "  --insecure-seed TEXT  derive the toxic waste from TEXT: reproducible keys that ANYONE\n"
    "                        knowing TEXT can forge proofs with. Development and tests only.\n"
    "\n"
    "Without --insecure-seed the toxic waste comes from libsodium's CSPRNG and is wiped after\n"
    "use. These are still single-party keys: production keys should come from a multi-party\n"
    "ceremony (see docs/interop.md, 'Production keys').\n";

int run_setup(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"circuit", "k", "out", "threads", "insecure-seed"}, {},
                  "enygma setup")) {
    return native::kExitUsage;
  }
  if (args.help()) {
    fputs(kSetupHelp, stdout);
    return 0;
  }
  auto circuits = native::circuits_option(args, "all");
  if (!circuits) return cli::fail(circuits.error());
  auto threads = args.get_uint("threads", 0, 0, 1024);
  if (!threads) return cli::fail(threads.error());
  const std::string dir = args.get_or("out", "keys/dev");
  if (auto st = native::check_key_folder_option(dir); !st) return cli::fail(st.error());
  auto seed = args.get("insecure-seed");
  if (auto st = native::make_directories(dir); !st) return cli::fail(st.error());
  if (sodium_init() < 0) return 1;
  if (seed) {
    fprintf(stderr,
            "enygma setup: WARNING: --insecure-seed makes INSECURE development keys; anyone who "
            "knows the seed can forge proofs.\n");
  }
  ThreadPool pool{unsigned(*threads)};
  for (const CircuitId& circuit : *circuits) {
    auto t0 = std::chrono::steady_clock::now();
    const R1cs& r1cs = circuit_r1cs(circuit);
    Groth16Keys keys;
    if (seed) {
      std::string s = insecure_setup_seed_text(*seed, circuit);
      keys = groth16_setup_insecure_from_seed(
          r1cs, {reinterpret_cast<const uint8_t*>(s.data()), s.size()}, pool);
    } else {
      keys = groth16_setup(r1cs, pool);
    }
    const std::string name = circuit.key_name();
    auto pk_path = native::proving_key_path(dir, circuit);
    auto vk_path = native::verifying_key_path(dir, circuit);
    // Both or neither: a failed write (a full disk) keeps the pair that was there.
    const std::vector<uint8_t> vk_bytes = serialize_verifying_key(keys.vk, name),
                               pk_bytes = serialize_proving_key(keys.pk, name);
    const native::OutputFile pair[] = {{vk_path, vk_bytes.data(), vk_bytes.size()},
                                       {pk_path, pk_bytes.data(), pk_bytes.size()}};
    if (auto st = native::write_output_files(pair); !st) return cli::fail(st.error());
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf(
        "{%s,\"proving_key\":%s,\"verifying_key\":%s,\"constraints\":%zu,"
        "\"insecure_dev\":%s,\"seconds\":%.2f}\n",
        cli::circuit_json_fields(circuit).c_str(), cli::json_string(pk_path).c_str(),
        cli::json_string(vk_path).c_str(), r1cs.num_constraints(), seed ? "true" : "false", secs);
    fflush(stdout);
  }
  return 0;
}

cli::Registration register_setup{{"setup", "generate Groth16 keys for the circuits", &run_setup}};

}  // namespace
