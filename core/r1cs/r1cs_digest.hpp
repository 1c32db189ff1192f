// The serialisation that a circuit digest hashes (BLAKE2b-256): the tag "enygma-r1cs-v1", the
// number of wires, of public inputs and of constraints, then for each of A, B and C its row
// starts and its terms (wire, then the coefficient as 32 big-endian bytes); integers as 4 bytes,
// little-endian. R1cs::digest and ConstraintShape::digest (a proving key's copy of the
// constraints) both write through this class, so that they cannot drift apart.
#pragma once

#include <sodium.h>

#include <array>
#include <cstdint>
#include <span>

namespace enygma {

class R1csDigestWriter {
 public:
  R1csDigestWriter(uint32_t num_wires, uint32_t num_public, uint32_t num_constraints) {
    crypto_generichash_init(&state_, nullptr, 0, 32);
    static constexpr char kTag[] = "enygma-r1cs-v1";
    crypto_generichash_update(&state_, reinterpret_cast<const uint8_t*>(kTag), sizeof kTag - 1);
    put_u32(num_wires);
    put_u32(num_public);
    put_u32(num_constraints);
  }

  // One matrix: its row starts first, then each of its terms in order.
  void row_starts(std::span<const uint32_t> starts) {
    for (uint32_t s : starts) put_u32(s);
  }
  void term(uint32_t wire, const uint8_t coefficient_be[32]) {
    put_u32(wire);
    crypto_generichash_update(&state_, coefficient_be, 32);
  }

  std::array<uint8_t, 32> finish() {
    std::array<uint8_t, 32> out;
    crypto_generichash_final(&state_, out.data(), out.size());
    return out;
  }

 private:
  void put_u32(uint32_t v) {
    const uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
    crypto_generichash_update(&state_, b, 4);
  }

  crypto_generichash_state state_;
};

}  // namespace enygma
