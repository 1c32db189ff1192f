#include "native/common/key_loading.hpp"

#include <sodium.h>
#include <sys/stat.h>

#include "core/groth16/key_format.hpp"
#include "native/common/file_io.hpp"

namespace enygma::native {

namespace {

std::string setup_hint(const std::string& dir, const CircuitId& circuit) {
  // --keys names a folder; a key file given instead gets no advice to write keys into it.
  if (struct stat st; stat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
    return " (--keys names the folder of the key files, not a file)";
  }
  std::string hint = " (generate keys with `enygma setup --circuit ";
  hint += circuit.family->name;
  if (circuit.family->has_k()) hint += " --k " + std::to_string(circuit.k);
  return hint + " --out " + dir + "`)";
}

}  // namespace

Status check_key_folder_option(const std::string& dir) {
  if (dir != "-") return Ok{};
  return make_error("--out names the folder of the key files, not - (standard output)", "usage",
                    "out");
}

Status check_key_file(const std::string& path, KeyKind expected, size_t max_bytes,
                      const std::string& option) {
  auto head = read_file_head(path, kKeyHeaderSize);
  if (!head) return head.error();
  auto header = read_key_header(head->bytes);
  if (!header) return naming_file(header.error(), path);
  const auto kind_name = [](KeyKind k) {
    return std::string(k == KeyKind::kVerifying ? "verifying" : "proving");
  };
  if (header->kind != expected) {
    const std::string found = "a " + kind_name(header->kind) + " key";
    return naming_file(
        make_error(option.empty()
                       ? found + ", not a " + kind_name(expected) + " key"
                       : found + "; --" + option + " takes a " + kind_name(expected) + " key (" +
                             (expected == KeyKind::kVerifying ? ".vk" : ".pk") + ")",
                   "key"),
        path);
  }
  if (head->size > max_bytes) {
    const std::string kind = kind_name(header->kind);
    return naming_file(make_error(std::to_string(head->size) + " bytes is more than a " + kind +
                                      " key file holds (" + std::to_string(max_bytes) + ")",
                                  "key"),
                       path);
  }
  if (header->body_length != head->size - kKeyHeaderSize) {
    return naming_file(
        make_error("the header says " + std::to_string(header->body_length) +
                       " body bytes, the file has " + std::to_string(head->size - kKeyHeaderSize) +
                       (header->body_length > head->size - kKeyHeaderSize ? " (truncated?)" : ""),
                   "key"),
        path);
  }
  return Ok{};
}

Result<std::shared_ptr<const CircuitProver>> load_circuit_prover(
    const std::string& dir, const CircuitId& circuit, bool with_proving_key, ThreadPool& pool,
    const CircuitLoadOptions& options) {
  if (options.on_step) options.on_step("read_keys");
  const std::string vk_path = verifying_key_path(dir, circuit);
  const std::string pk_path = proving_key_path(dir, circuit);
  // Each file's header is checked before the file is read (a large file named by mistake is
  // refused at once); one that cannot be opened gets the advice to make keys.
  const auto checked = [&](const std::string& path, KeyKind kind, size_t max_bytes) -> Status {
    auto ok = check_key_file(path, kind, max_bytes);
    if (!ok && ok.error().rule == "io") {
      return make_error(ok.error().message + setup_hint(dir, circuit), "key", path);
    }
    return ok;
  };
  if (auto ok = checked(vk_path, KeyKind::kVerifying, kMaxVerifyingKeyFileBytes); !ok) {
    return ok.error();
  }
  auto vk = read_file(vk_path);
  if (!vk) return make_error(vk.error().message + setup_hint(dir, circuit), "key", vk_path);
  // The proving key mapped, not read: ~10 MB that the loader hashes and copies once.
  MappedFile pk;
  if (with_proving_key) {
    if (auto ok = checked(pk_path, KeyKind::kProving, SIZE_MAX); !ok) return ok.error();
    auto mapped = map_file(pk_path);
    if (!mapped) {
      return make_error(mapped.error().message + setup_hint(dir, circuit), "key", pk_path);
    }
    pk = std::move(*mapped);
  }
  std::optional<std::span<const uint8_t>> pk_bytes;
  if (with_proving_key) pk_bytes = pk.bytes();
  auto prover = CircuitProver::load(circuit, pk_bytes, *vk, pool, options);
  if (!prover) {
    // say which file (the error's field names the key)
    const Error& e = prover.error();
    return naming_file(e, e.field == "proving_key" ? pk_path : vk_path);
  }
  return prover;
}

std::array<uint8_t, 32> test_seed_from_text(const std::string& text) {
  std::array<uint8_t, 32> seed;
  crypto_generichash(seed.data(), seed.size(), reinterpret_cast<const uint8_t*>(text.data()),
                     text.size(), nullptr, 0);
  return seed;
}

}  // namespace enygma::native
