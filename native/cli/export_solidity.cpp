// enygma export-solidity: a Solidity verifier contract for a verifying key (ours, from
// `enygma setup` or `enygma import-zkey`), with the reference proof JSON's calling convention:
// verifyProof(pi_a, pi_b, pi_c, public_signal) -> bool. See core/groth16/solidity_verifier.hpp.
#include <cctype>
#include <cstdio>
#include <string>

#include "core/groth16/key_format.hpp"
#include "core/groth16/solidity_verifier.hpp"
#include "core/registry/registry.hpp"
#include "native/cli/commands.hpp"
#include "native/cli/output.hpp"
#include "native/common/file_io.hpp"
#include "native/common/key_loading.hpp"
#include "native/common/options.hpp"

namespace {

using namespace enygma;

int run_export_solidity(int argc, char** argv) {
  cli::Args args;
  if (!args.parse(argc, argv, {"circuit", "k", "keys", "vk", "out", "contract", "license"}, {},
                  "enygma export-solidity")) {
    return native::kExitUsage;
  }
  if (args.help()) {
    fputs(
        "usage: enygma export-solidity ([--circuit NAME] [--k K] [--keys DIR] | --vk FILE.vk)\n"
        "                              --out Verifier.sol [--contract NAME] [--license SPDX]\n"
        "\n"
        "Writes a Groth16 verifier contract for the verifying key DIR/<circuit>.vk (default\n"
        "circuit transfer, DIR keys/dev) or FILE.vk:\n"
        "  function verifyProof(uint256[2] pA, uint256[2][2] pB, uint256[2] pC,\n"
        "                       uint256[N] pubSignals) external view returns (bool)\n"
        "with the reference proof JSON's values: pA = pi_a, pB = pi_b (imaginary part first),\n"
        "pC = pi_c, pubSignals = public_signal (N: the circuit's public inputs, 8K+2 for the\n"
        "transfer circuit). It uses the\n"
        "BN254 precompiles 0x06, 0x07, 0x08 and returns false for any input >= r.\n"
        "  --contract NAME   contract name (default Enygma<Circuit>Verifier[K<K>], e.g.\n"
        "                    EnygmaTransferVerifierK6, EnygmaOwnership721Verifier; with --vk\n"
        "                    Groth16Verifier)\n"
        "  --license SPDX    SPDX license expression of the file (default UNLICENSED): ids\n"
        "                    such as MIT or LicenseRef-x, with AND, OR, WITH and parentheses\n"
        "Deploy only verifiers of ceremony keys (enygma import-zkey), never of development keys.\n",
        stdout);
    return 0;
  }
  auto out = args.get("out");
  const bool from_keys = args.has("k") || args.has("circuit") || args.has("keys");
  if (from_keys && args.has("vk")) {
    return cli::usage_error(
        "--vk names the key file; --circuit, --k and --keys name a key folder's: give one or the "
        "other");
  }
  if (!out || !(from_keys || args.has("vk"))) {
    return cli::usage_error("--out and one of --circuit/--k or --vk are required");
  }
  SolidityVerifierOptions options;
  std::string vk_path, expected_name;
  if (from_keys) {
    auto circuit = native::circuit_option(args);
    if (!circuit) return cli::fail(circuit.error());
    vk_path = native::verifying_key_path(args.get_or("keys", "keys/dev"), *circuit);
    expected_name = circuit->key_name();
    // "joinsplit-enygma" -> "JoinsplitEnygma"
    std::string camel;
    bool upper = true;
    for (char c : circuit->family->name) {
      if (c == '-') {
        upper = true;
        continue;
      }
      camel += upper ? char(toupper(static_cast<unsigned char>(c))) : c;
      upper = false;
    }
    options.contract_name = "Enygma" + camel + "Verifier";
    if (circuit->family->has_k()) options.contract_name += "K" + std::to_string(circuit->k);
  } else {
    vk_path = *args.get("vk");
  }
  options.contract_name = args.get_or("contract", options.contract_name);
  options.license = args.get_or("license", options.license);
  if (!is_usable_contract_name(options.contract_name)) {
    return cli::usage_error(
        "--contract '" + native::shown_on_one_line(options.contract_name) +
        "' is not a valid contract name (letters, digits, _ and $, not first a digit; not a "
        "Solidity keyword, type or built-in, nor a name the contract declares)");
  }
  if (!is_spdx_expression(options.license)) {
    return cli::usage_error(
        "--license must be an SPDX expression (license ids or LicenseRef-... of letters, digits, "
        "'.' and '-', a final '+', combined with AND, OR, WITH and parentheses), got '" +
        native::shown_on_one_line(options.license) + "'");
  }

  if (auto ok = native::check_key_file(vk_path, KeyKind::kVerifying,
                                       native::kMaxVerifyingKeyFileBytes, from_keys ? "" : "vk");
      !ok) {
    return cli::fail(ok.error());
  }
  auto bytes = native::read_file(vk_path);
  if (!bytes) return cli::fail(bytes.error());
  // A key's errors name the file, as the commands that load keys from a folder do.
  auto header = read_key_header(*bytes);
  if (!header) return cli::fail(native::naming_file(header.error(), vk_path));
  auto vk = load_verifying_key(*bytes, expected_name);
  if (!vk) return cli::fail(native::naming_file(vk.error(), vk_path));
  options.circuit_name = header->circuit_name;
  if (auto st = native::write_output_file(*out, solidity_verifier_source(*vk, options)); !st) {
    return cli::fail(st.error());
  }
  fprintf(cli::summary_stream(*out),
          "{\"contract\":%s,\"circuit\":%s,\"public_inputs\":%u,\"insecure_dev_key\":%s,"
          "\"out\":%s}\n",
          cli::json_string(options.contract_name).c_str(),
          cli::json_string(header->circuit_name).c_str(), vk->num_public,
          vk->insecure_dev ? "true" : "false", cli::json_string(*out).c_str());
  cli::warn_if_insecure_verifying_key("export-solidity", vk->insecure_dev);
  return 0;
}

enygma::cli::Registration register_export_solidity{
    {"export-solidity", "write a Solidity Groth16 verifier contract for a verifying key",
     &run_export_solidity}};

}  // namespace
