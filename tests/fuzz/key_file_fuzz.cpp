// Fuzz target: proving and verifying key files (core/groth16/key_format.hpp).
// Each input is loaded twice: as it is (header, length and digest checks), and "resealed", with
// the header's format version, body length and BLAKE2b digest set for this build and the input's
// bytes, so that the body parser itself is reached by mutated bodies (a real file's digest stops
// them first) and by seeds of older versions. A proving key is loaded both copied and read in
// place (load_proving_key's file_owner): the same answer.
// Invariant: a key that loads serializes (same name, same point format) to a file that loads
// back and serializes to the same bytes.
#include <sodium.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "core/groth16/key_format.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace enygma;

void put_u64_le(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = uint8_t(v >> (8 * i));
}

void load_both(std::span<const uint8_t> file) {
  auto header = read_key_header(file);
  auto pk = load_proving_key(file, "", sequential_pool());
  auto vk = load_verifying_key(file, "");
  FUZZ_CHECK(!(pk.ok() && vk.ok()));
  {
    auto owned = std::make_shared<const std::vector<uint8_t>>(file.begin(), file.end());
    auto in_place = load_proving_key(*owned, "", sequential_pool(), owned);
    FUZZ_CHECK(in_place.ok() == pk.ok());
    if (pk.ok()) {
      FUZZ_CHECK(serialize_proving_key(*in_place, "x") == serialize_proving_key(*pk, "x"));
    } else {
      FUZZ_CHECK(in_place.error().message == pk.error().message);
    }
  }
  if (!pk.ok()) FUZZ_CHECK(pk.error().rule == "key" && !pk.error().message.empty());
  if (!vk.ok()) FUZZ_CHECK(vk.error().rule == "key" && !vk.error().message.empty());
  if (!header.ok()) {
    FUZZ_CHECK(!pk.ok() && !vk.ok());
    return;
  }
  const PointFormat format = header->compressed ? PointFormat::kCompressed : PointFormat::kRaw;
  if (pk.ok()) {
    const auto bytes = serialize_proving_key(*pk, header->circuit_name, format);
    auto again = load_proving_key(bytes, header->circuit_name, sequential_pool());
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(serialize_proving_key(*again, header->circuit_name, format) == bytes);
  }
  if (vk.ok()) {
    const auto bytes = serialize_verifying_key(*vk, header->circuit_name, format);
    auto again = load_verifying_key(bytes, header->circuit_name);
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(serialize_verifying_key(*again, header->circuit_name, format) == bytes);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool sodium_ready = sodium_init() >= 0;
  FUZZ_CHECK(sodium_ready);
  load_both({data, size});
  if (size >= kKeyHeaderSize) {
    std::vector<uint8_t> resealed(data, data + size);
    const size_t body = size - kKeyHeaderSize;
    for (int i = 0; i < 4; ++i) resealed[8 + i] = uint8_t(kKeyFormatVersion >> (8 * i));
    put_u64_le(resealed.data() + 96, body);
    // The file digest (format version 2 and later): header bytes 0..103, then the body.
    crypto_generichash_state state;
    crypto_generichash_init(&state, nullptr, 0, 32);
    crypto_generichash_update(&state, resealed.data(), 104);
    crypto_generichash_update(&state, resealed.data() + kKeyHeaderSize, body);
    crypto_generichash_final(&state, resealed.data() + 104, 32);
    load_both(resealed);
  }
  return 0;
}
