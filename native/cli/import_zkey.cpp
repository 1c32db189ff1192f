// enygma import-zkey: a snarkjs Groth16 .zkey (the outcome of a phase-2 ceremony) as our key
// files DIR/<circuit>.pk and .vk, so that `enygma prove` / the server prove with the
// ceremony's keys and snarkjs verifies those proofs with the ceremony's verification_key.json.

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>

#include "core/groth16/key_format.hpp"
#include "core/groth16/proof_format.hpp"
#include "core/groth16/zkey_import.hpp"
#include "core/registry/circuit_prover.hpp"
#include "core/registry/registry.hpp"
#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"
#include "native/common/key_loading.hpp"
#include "native/common/options.hpp"

namespace {

using namespace enygma;

// A refusal of the zkey, naming its file: "<path>: the zkey was made for another circuit...",
// without the "zkey: " the importer puts first where no file is named.
Error naming_zkey(const Error& e, const std::string& path) {
  Error named = e;
  if (named.message.rfind("zkey: ", 0) == 0) named.message.erase(0, 6);
  return native::naming_file(named, path);
}

int run_import_zkey(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"circuit", "k", "zkey", "out", "check-vk", "threads"},
                  {"allow-insecure"}, "enygma import-zkey")) {
    return native::kExitUsage;
  }
  if (args.help()) {
    fputs(
        "usage: enygma import-zkey [--circuit NAME] [--k K] --zkey FILE.zkey --out DIR\n"
        "                          [--check-vk VK.json] [--allow-insecure] [--threads N]\n"
        "\n"
        "Imports a snarkjs Groth16 .zkey made for `enygma export-r1cs --circuit NAME --k K` and\n"
        "writes DIR/<circuit>.pk and .vk (atomically). Refuses a zkey made for\n"
        "another circuit, a damaged one, and one without any phase-2 contribution (its delta\n"
        "is 1: anyone could forge proofs) unless --allow-insecure (the keys are then marked\n"
        "as insecure development keys).\n"
        "  --check-vk VK.json  also require the ceremony's published verification_key.json\n"
        "                      (snarkjs zkey export verificationkey) to be this key's\n"
        "  --threads N         worker threads (default or 0: all cores)\n"
        "It does not verify the ceremony's contribution chain: run\n"
        "  snarkjs zkey verify <circuit>.r1cs POT.ptau FILE.zkey\n"
        "first (docs/interop.md, \"Production keys\").\n",
        stdout);
    return 0;
  }
  auto circuit = native::circuit_option(args);
  if (!circuit) return cli::fail(circuit.error());
  auto threads = args.get_uint("threads", 0, 0, 1024);  // 0: all cores, as in the other commands
  if (!threads) return cli::fail(threads.error());
  if (!args.require("import-zkey", {"zkey", "out"})) return native::kExitUsage;
  auto zkey_path = args.get("zkey");
  auto dir = args.get("out");
  if (auto st = native::check_key_folder_option(*dir); !st) return cli::fail(st.error());
  if (*zkey_path == "-") {
    return cli::fail(
        make_error("--zkey - : a zkey is read from a file, not standard input", "usage", "zkey"));
  }
  // The output places and --check-vk checked before the zkey is read and imported (the work of
  // minutes for a large circuit): an --out that is a file, a key file's place taken by a folder,
  // a --check-vk file that is missing or no verifying key.
  const std::string pk_path = native::proving_key_path(*dir, *circuit);
  const std::string vk_path = native::verifying_key_path(*dir, *circuit);
  if (auto st = native::check_output_folder_place(*dir); !st) return cli::fail(st.error());
  if (std::error_code ec; std::filesystem::is_directory(*dir, ec)) {
    for (const std::string& path : {pk_path, vk_path}) {
      if (auto st = native::check_output_place(path); !st) return cli::fail(st.error());
    }
  }
  std::optional<VerifyingKey> published;
  if (auto check_path = args.get("check-vk")) {
    auto text = native::read_text_file(*check_path);
    if (!text) return cli::fail(text.error());
    auto parsed = verifying_key_from_snarkjs_json(*text, {"the file", "check-vk"});
    if (!parsed) {  // not a verifying key: a bad --check-vk file, not a refused request
      return cli::fail(make_error(*check_path + ": " + parsed.error().message, "key", "check-vk"));
    }
    published = std::move(*parsed);
  }
  // The container's magic checked before the file is read whole (a large file named by mistake
  // is refused at once, not read into memory first).
  auto head = native::read_file_head(*zkey_path, 4);
  if (!head) return cli::fail(head.error());
  if (head->bytes.size() < 4 || memcmp(head->bytes.data(), "zkey", 4) != 0) {
    return cli::fail(native::naming_file(
        make_error("not a snarkjs .zkey file (it does not start with \"zkey\")", "zkey"),
        *zkey_path));
  }
  // and its size against what a zkey of this circuit can hold (a large file named by mistake, or
  // made for a larger circuit, is not read into memory first)
  const R1cs& r1cs = circuit_r1cs(*circuit);
  if (const uint64_t bound = zkey_size_bound(r1cs); head->size > bound) {
    return cli::fail(native::naming_file(
        make_error(std::to_string(head->size) + " bytes is more than a zkey of " + circuit->str() +
                       " can hold (" + std::to_string(bound) + ")",
                   "zkey"),
        *zkey_path));
  }
  auto zkey = native::read_file(*zkey_path);
  if (!zkey) return cli::fail(zkey.error());
  ThreadPool pool(static_cast<unsigned>(*threads));
  ZkeyImportOptions options;
  options.allow_no_contributions = args.has("allow-insecure");
  auto imported = import_zkey(*zkey, r1cs, pool, options);
  if (!imported) return cli::fail(naming_zkey(imported.error(), *zkey_path));
  const Groth16Keys& keys = imported->keys;

  if (published) {
    // the first member that differs, as verification_key.json names it
    const char* differs = published->num_public != keys.vk.num_public ? "nPublic"
                          : published->ic != keys.vk.ic               ? "IC"
                          : published->alpha1 != keys.vk.alpha1       ? "vk_alpha_1"
                          : published->beta2 != keys.vk.beta2         ? "vk_beta_2"
                          : published->gamma2 != keys.vk.gamma2       ? "vk_gamma_2"
                          : published->delta2 != keys.vk.delta2       ? "vk_delta_2"
                                                                      : nullptr;
    if (differs) {
      return cli::fail(make_error(*args.get("check-vk") + " is not the verifying key of " +
                                      *zkey_path + " (its " + differs + " differs)",
                                  "key", "check-vk"));
    }
  }

  const std::string name = circuit->key_name();
  const std::vector<uint8_t> pk_bytes = serialize_proving_key(keys.pk, name),
                             vk_bytes = serialize_verifying_key(keys.vk, name);
  // Points on their curves may still make no valid proof (check_keys_prove): refused before any
  // file is written, not found by the first verification of a served proof.
  if (auto st = check_keys_prove(*circuit, pk_bytes, vk_bytes, pool); !st) {
    return cli::fail(naming_zkey(st.error(), *zkey_path));
  }
  if (auto st = native::make_directories(*dir); !st) return cli::fail(st.error());
  // Both or neither: a failed write (a full disk) keeps the pair that was there.
  const native::OutputFile pair[] = {{pk_path, pk_bytes.data(), pk_bytes.size()},
                                     {vk_path, vk_bytes.data(), vk_bytes.size()}};
  if (auto st = native::write_output_files(pair); !st) return cli::fail(st.error());

  std::string contributions;
  for (const auto& c : imported->info.contributions) {
    if (!contributions.empty()) contributions += ",";
    contributions += "{\"name\":" + cli::json_string(c.name) +
                     ",\"beacon\":" + (c.beacon ? "true" : "false") + "}";
  }
  std::string hash = format_zkey_hash(imported->info.circuit_hash);
  for (char& ch : hash) {
    if (ch == '\n') ch = ' ';
  }
  printf(
      "{%s,\"key_name\":%s,\"circuit_hash\":%s,\"contributions\":[%s],\"insecure\":%s,"
      "\"proving_key\":%s,\"verifying_key\":%s}\n",
      cli::circuit_json_fields(*circuit).c_str(), cli::json_string(name).c_str(),
      cli::json_string(hash).c_str(), contributions.c_str(),
      keys.pk.insecure_dev ? "true" : "false", cli::json_string(pk_path).c_str(),
      cli::json_string(vk_path).c_str());
  if (keys.pk.insecure_dev) {
    fputs("enygma import-zkey: WARNING: the zkey has no contribution; these keys are insecure\n",
          stderr);
  }
  return 0;
}

enygma::cli::Registration register_import_zkey{
    {"import-zkey", "import a snarkjs Groth16 .zkey (ceremony keys) as key files",
     &run_import_zkey}};

}  // namespace
