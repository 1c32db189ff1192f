// interop_tool: the random-circuit side of the interoperability script tests (tests/interop/*.mjs)
// and of scripts/bench-vs-snarkjs.sh. It does for any R1CS what `enygma` does for the transfer
// circuit, through the same core functions:
//   random     --seed S --public P --private Q --constraints M --r1cs OUT [--wtns OUT]
//   dev-setup  --r1cs F --pk OUT --vk OUT [--name NAME]        (seeded, INSECURE test keys)
//   import     --r1cs F --zkey Z --pk OUT --vk OUT [--name NAME] [--allow-insecure]
//   prove      --r1cs F --wtns W --pk PK [--seed S] [--runs N] [--threads T]
//              [--proof proof.json] [--public public.json] [--reference ref.json]
//              [--all-proofs proofs.json]  (every proof of the series, warm-up included, as
//              [{"proof": snarkjs proof.json, "public": public.json}, ...])
//   export-vk  --vk F --out verification_key.json
//   verify     --vk F --proof proof.json --public public.json   (snarkjs JSON; exit 0 valid)
//   check      --r1cs F --wtns W                                  (exit 0 satisfied)
//   ptau       --power P --out F [--seed S]   (prepared ptau of a KNOWN tau: test_ptau.hpp)
// Test support only: not part of the product CLI.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/groth16/key_format.hpp"
#include "core/groth16/proof_format.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/setup.hpp"
#include "core/groth16/verifier.hpp"
#include "core/groth16/zkey_import.hpp"
#include "core/r1cs/r1cs_file.hpp"
#include "core/r1cs/wtns_file.hpp"
#include "interop/test_ptau.hpp"
#include "native/common/file_io.hpp"
#include "support/random_r1cs.hpp"

namespace {

using namespace enygma;

using Options = std::map<std::string, std::string>;

bool parse(int argc, char** argv, Options& out) {
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0) return false;
    if (a == "--allow-insecure") {
      out.insert_or_assign(std::string("allow-insecure"), std::string("1"));
      continue;
    }
    if (i + 1 >= argc) return false;
    out.insert_or_assign(a.substr(2), std::string(argv[++i]));
  }
  return true;
}

int fail(const Error& e) {
  fprintf(stderr, "interop_tool: %s (rule %s, field %s)\n", e.message.c_str(), e.rule.c_str(),
          e.field.c_str());
  return 1;
}

int fail(const std::string& message) {
  fprintf(stderr, "interop_tool: %s\n", message.c_str());
  return 2;
}

std::string need(const Options& o, const std::string& key) {
  auto it = o.find(key);
  if (it == o.end()) {
    fprintf(stderr, "interop_tool: --%s is required\n", key.c_str());
    exit(2);
  }
  return it->second;
}

unsigned long number(const Options& o, const std::string& key, unsigned long fallback) {
  auto it = o.find(key);
  return it == o.end() ? fallback : std::stoul(it->second);
}

Result<R1cs> load_r1cs(const std::string& path) {
  auto bytes = native::read_file(path);
  if (!bytes) return bytes.error();
  auto file = read_r1cs_file(*bytes);
  if (!file) return file.error();
  return std::move(file->r1cs);
}

Status write(const std::string& path, const std::string& text) {
  return native::write_output_file(path, text);
}

int cmd_random(const Options& o) {
  test::TestRng rng(number(o, "seed", 1));
  auto rc = test::random_circuit(rng, uint32_t(number(o, "public", 2)),
                                 uint32_t(number(o, "private", 10)), number(o, "constraints", 20));
  if (auto st = native::write_output_file(need(o, "r1cs"), write_r1cs_file(rc.r1cs)); !st) {
    return fail(st.error());
  }
  if (o.count("wtns")) {
    auto bytes = write_wtns_file(rc.witness);
    auto st = native::write_output_file(o.at("wtns"), bytes.data(), bytes.size());
    if (!st) return fail(st.error());
  }
  printf("{\"wires\":%u,\"public\":%u,\"constraints\":%zu}\n", rc.r1cs.num_wires,
         rc.r1cs.num_public, rc.r1cs.num_constraints());
  return 0;
}

Status write_keys(const Groth16Keys& keys, const Options& o) {
  const std::string name = o.count("name") ? o.at("name") : "interop-random";
  if (auto st = native::write_output_file(need(o, "pk"), serialize_proving_key(keys.pk, name));
      !st) {
    return st;
  }
  return native::write_output_file(need(o, "vk"), serialize_verifying_key(keys.vk, name));
}

int cmd_dev_setup(const Options& o) {
  auto r1cs = load_r1cs(need(o, "r1cs"));
  if (!r1cs) return fail(r1cs.error());
  const std::string seed = o.count("seed") ? o.at("seed") : "interop";
  ThreadPool pool(2);
  auto keys = groth16_setup_insecure_from_seed(
      *r1cs, {reinterpret_cast<const uint8_t*>(seed.data()), seed.size()}, pool);
  if (auto st = write_keys(keys, o); !st) return fail(st.error());
  return 0;
}

int cmd_import(const Options& o) {
  auto r1cs = load_r1cs(need(o, "r1cs"));
  if (!r1cs) return fail(r1cs.error());
  auto zkey = native::read_file(need(o, "zkey"));
  if (!zkey) return fail(zkey.error());
  ThreadPool pool(2);
  ZkeyImportOptions options;
  options.allow_no_contributions = o.count("allow-insecure") > 0;
  auto imported = import_zkey(*zkey, *r1cs, pool, options);
  if (!imported) return fail(imported.error());
  if (auto st = write_keys(imported->keys, o); !st) return fail(st.error());
  printf("{\"contributions\":%zu,\"insecure\":%s}\n", imported->info.contributions.size(),
         imported->keys.pk.insecure_dev ? "true" : "false");
  return 0;
}

int cmd_prove(const Options& o) {
  auto r1cs = load_r1cs(need(o, "r1cs"));
  if (!r1cs) return fail(r1cs.error());
  auto wtns_bytes = native::read_file(need(o, "wtns"));
  if (!wtns_bytes) return fail(wtns_bytes.error());
  auto witness = read_wtns_file(*wtns_bytes);
  if (!witness) return fail(witness.error());
  auto pk_bytes = native::read_file(need(o, "pk"));
  if (!pk_bytes) return fail(pk_bytes.error());
  ThreadPool pool(unsigned(number(o, "threads", ThreadPool::hardware_threads())));
  auto pk = load_proving_key(*pk_bytes, "", pool);
  if (!pk) return fail(pk.error());
  ProveOptions options;
  std::string seed = o.count("seed") ? o.at("seed") : "";
  options.insecure_test_seed = {reinterpret_cast<const uint8_t*>(seed.data()), seed.size()};

  // --runs N: time N proofs (after one warm-up); print the median and each stage's median, in
  // milliseconds.
  const unsigned long runs = number(o, "runs", 0);
  using Clock = std::chrono::steady_clock;
  std::vector<double> ms;
  std::map<std::string, std::vector<double>> stage_ms;
  ProveStage current = ProveStage::kConstraints;
  Clock::time_point stage_start;
  options.on_stage = [&](ProveStage s) {
    auto now = Clock::now();
    if (s != ProveStage::kConstraints) {
      stage_ms[prove_stage_name(current)].push_back(
          std::chrono::duration<double, std::milli>(now - stage_start).count());
    }
    current = s;
    stage_start = now;
  };
  Result<Proof> proof = make_error("not run");
  std::vector<Proof> all;
  for (unsigned long i = 0; i <= runs; ++i) {
    if (i == 1) stage_ms.clear();  // drop the warm-up
    auto t0 = Clock::now();
    proof = groth16_prove(*pk, *r1cs, *witness, pool, options);
    auto t1 = Clock::now();
    if (!proof) return fail(proof.error());
    if (i > 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    all.push_back(*proof);
  }
  std::vector<Fr> pub(witness->begin() + 1, witness->begin() + 1 + r1cs->num_public);
  if (o.count("all-proofs")) {
    const std::string pub_json = public_to_snarkjs_json(pub);
    std::string text = "[";
    for (size_t i = 0; i < all.size(); ++i) {
      text += (i ? ",\n{\"proof\":" : "\n{\"proof\":") + proof_to_snarkjs_json(all[i]) +
              ",\"public\":" + pub_json + "}";
    }
    if (auto st = write(o.at("all-proofs"), text + "\n]\n"); !st) return fail(st.error());
  }
  if (o.count("proof")) {
    if (auto st = write(o.at("proof"), proof_to_snarkjs_json(*proof) + "\n"); !st) {
      return fail(st.error());
    }
  }
  if (o.count("public")) {
    if (auto st = write(o.at("public"), public_to_snarkjs_json(pub) + "\n"); !st) {
      return fail(st.error());
    }
  }
  if (o.count("reference")) {
    if (auto st = write(o.at("reference"), proof_to_reference_json(*proof, pub) + "\n"); !st) {
      return fail(st.error());
    }
  }
  if (!ms.empty()) {
    std::sort(ms.begin(), ms.end());
    std::string stages;
    for (auto& [name, v] : stage_ms) {
      std::sort(v.begin(), v.end());
      char b[64];
      snprintf(b, sizeof b, "%s\"%s\":%.2f", stages.empty() ? "" : ",", name.c_str(),
               v[v.size() / 2]);
      stages += b;
    }
    printf(
        "{\"runs\":%zu,\"median_ms\":%.2f,\"min_ms\":%.2f,\"threads\":%u,"
        "\"stages_median_ms\":{%s}}\n",
        ms.size(), ms[ms.size() / 2], ms.front(), pool.size(), stages.c_str());
  }
  return 0;
}

Result<VerifyingKey> load_vk(const std::string& path) {
  auto bytes = native::read_file(path);
  if (!bytes) return bytes.error();
  return load_verifying_key(*bytes, "");
}

int cmd_export_vk(const Options& o) {
  auto vk = load_vk(need(o, "vk"));
  if (!vk) return fail(vk.error());
  if (auto st = write(need(o, "out"), verifying_key_to_snarkjs_json(*vk) + "\n"); !st) {
    return fail(st.error());
  }
  return 0;
}

int cmd_verify(const Options& o) {
  auto vk = load_vk(need(o, "vk"));
  if (!vk) return fail(vk.error());
  auto proof_text = native::read_text_file(need(o, "proof"));
  if (!proof_text) return fail(proof_text.error());
  auto public_text = native::read_text_file(need(o, "public"));
  if (!public_text) return fail(public_text.error());
  const std::string proof_path = need(o, "proof"), public_path = need(o, "public");
  auto proof = proof_from_snarkjs_json(*proof_text, {proof_path, "proof"});
  if (!proof) return fail(proof.error());
  auto pub = public_from_snarkjs_json(*public_text, {public_path, "public"});
  if (!pub) return fail(pub.error());
  auto st = groth16_verify(prepare_verifying_key(*vk), *proof, *pub);
  printf("{\"valid\":%s}\n", st ? "true" : "false");
  return st ? 0 : 1;
}

int cmd_check(const Options& o) {
  auto r1cs = load_r1cs(need(o, "r1cs"));
  if (!r1cs) return fail(r1cs.error());
  auto bytes = native::read_file(need(o, "wtns"));
  if (!bytes) return fail(bytes.error());
  auto witness = read_wtns_file(*bytes);
  if (!witness) return fail(witness.error());
  auto bad = r1cs->first_unsatisfied(*witness);
  printf("{\"satisfied\":%s}\n", bad ? "false" : "true");
  return bad ? 1 : 0;
}

int cmd_ptau(const Options& o) {
  const unsigned long power = number(o, "power", 0);
  if (power < 1 || power > 26) return fail("--power must be in 1..26");
  const std::string seed = o.count("seed") ? o.at("seed") : "enygma interop test ptau";
  ThreadPool pool(ThreadPool::hardware_threads());
  auto bytes = test::make_test_ptau(
      unsigned(power), {reinterpret_cast<const uint8_t*>(seed.data()), seed.size()}, pool);
  if (auto st = native::write_output_file(need(o, "out"), bytes); !st) return fail(st.error());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fputs(
        "usage: interop_tool random|dev-setup|import|prove|export-vk|verify|check|ptau [options]\n",
        stderr);
    return 2;
  }
  Options o;
  if (!parse(argc, argv, o)) return fail("bad options (--name value pairs expected)");
  const std::string cmd = argv[1];
  if (cmd == "random") return cmd_random(o);
  if (cmd == "dev-setup") return cmd_dev_setup(o);
  if (cmd == "import") return cmd_import(o);
  if (cmd == "prove") return cmd_prove(o);
  if (cmd == "export-vk") return cmd_export_vk(o);
  if (cmd == "verify") return cmd_verify(o);
  if (cmd == "check") return cmd_check(o);
  if (cmd == "ptau") return cmd_ptau(o);
  return fail("unknown command " + cmd);
}
