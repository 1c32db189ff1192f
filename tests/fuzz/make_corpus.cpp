// Writes the seed corpus of every fuzz target into tests/fuzz/corpus/<name>/ from real data:
// the shared request vectors (../shared/vectors) and the real snarkjs ceremony of
// tests/interop/fixtures (a tiny circuit: its .r1cs, .wtns, .zkey, proof and keys). JSON seeds
// are written compact: small seeds make faster fuzzing. Build and run (any build folder):
//   cmake --build BUILD --target fuzz_make_corpus && BUILD/fuzz/fuzz_make_corpus
// The output is deterministic; rerun it when a format changes.
#include <sodium.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/groth16/key_format.hpp"
#include "core/groth16/zkey_import.hpp"
#include "core/r1cs/r1cs_file.hpp"
#include "core/registry/registry.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace enygma;
namespace fs = std::filesystem;

const fs::path kCorpus = fs::path(ENYGMA_SOURCE_DIR) / "tests/fuzz/corpus";

void write(const std::string& target, const std::string& name, const void* data, size_t size) {
  fs::create_directories(kCorpus / target);
  const fs::path path = kCorpus / target / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), std::streamsize(size));
  FUZZ_CHECK(out.good());
  printf("%6zu bytes  %s\n", size, path.c_str());
}
void write(const std::string& target, const std::string& name, const std::string& text) {
  write(target, name, text.data(), text.size());
}
void write(const std::string& target, const std::string& name, const std::vector<uint8_t>& b) {
  write(target, name, b.data(), b.size());
}

std::string compact_json(const std::string& text) {
  return nlohmann::ordered_json::parse(text).dump();
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  FUZZ_CHECK(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main() {
  if (sodium_init() < 0) return 1;
  const std::string fixtures = "tests/interop/fixtures/";

  // Requests: the shared vectors (valid and rule-breaking, k = 2 and 6).
  const fs::path vectors = fs::path(ENYGMA_SHARED_DIR) / "vectors";
  for (const char* name :
       {"transfer-k2.json", "transfer-k2-bad.json", "transfer-k6.json", "transfer-k6-bad.json"}) {
    write("request", name, compact_json(read_text(vectors / name)));
  }
  // Every family's requests at k = 2 (or without k), valid and rule-breaking.
  for (const CircuitFamily* family : circuit_families()) {
    auto id = find_circuit(family->name, family->has_k() ? 2 : 0);
    FUZZ_CHECK(id.ok());
    for (const std::string& name : {id->str() + ".json", id->str() + "-bad.json"}) {
      if (fs::exists(vectors / name)) {
        write("circuit_request", name, compact_json(read_text(vectors / name)));
      }
    }
  }

  // Proofs: the fixture's snarkjs proof in every format, and its valid (-A, -B, C) twin.
  const auto& f = fuzz::proof_fixture();
  const Proof twin{-f.proof.a, -f.proof.b, f.proof.c};
  for (const auto& [name, proof] : {std::pair{"proof.bin", f.proof}, {"proof-negated.bin", twin}}) {
    const auto bytes = proof_to_bytes(proof);
    write("proof_binary", name, bytes.data(), bytes.size());
  }
  write("proof_reference_json", "proof.json", proof_to_reference_json(f.proof, f.public_inputs));
  for (const char* name : {"proof.json", "public.json", "verification_key.json"}) {
    write("proof_snarkjs_json", name, compact_json(fuzz::read_source_text(fixtures + name)));
  }

  // circom files and the zkey, as snarkjs wrote them; the .r1cs also without its wire map.
  const auto r1cs_bytes = fuzz::read_source_file(fixtures + "circuit.r1cs");
  write("r1cs_file", "circuit.r1cs", r1cs_bytes);
  auto r1cs = read_r1cs_file(r1cs_bytes);
  FUZZ_CHECK(r1cs.ok());
  R1csFileOptions no_map;
  no_map.wire_map = false;
  write("r1cs_file", "circuit-no-wire-map.r1cs", write_r1cs_file(r1cs->r1cs, no_map));
  write("wtns_file", "witness.wtns", fuzz::read_source_file(fixtures + "witness.wtns"));
  const auto zkey = fuzz::read_source_file(fixtures + "circuit_final.zkey");
  write("zkey", "circuit_final.zkey", zkey);

  // Key files: the fixture ceremony's keys in our format, raw and compressed.
  auto imported = import_zkey(zkey, r1cs->r1cs, sequential_pool());
  FUZZ_CHECK(imported.ok());
  const Groth16Keys& keys = imported->keys;
  write("key_file", "fixture.pk", serialize_proving_key(keys.pk, "fixture", PointFormat::kRaw));
  write("key_file", "fixture-compressed.pk",
        serialize_proving_key(keys.pk, "fixture", PointFormat::kCompressed));
  write("key_file", "fixture.vk", serialize_verifying_key(keys.vk, "fixture", PointFormat::kRaw));
  write("key_file", "fixture-compressed.vk",
        serialize_verifying_key(keys.vk, "fixture", PointFormat::kCompressed));
  return 0;
}
