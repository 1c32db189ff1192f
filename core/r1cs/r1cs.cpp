#include "core/r1cs/r1cs.hpp"

#include <sodium.h>

namespace enygma {

void R1cs::add_constraint(std::span<const R1csTerm> ta, std::span<const R1csTerm> tb,
                          std::span<const R1csTerm> tc, std::string label) {
  a.append_row(ta);
  b.append_row(tb);
  c.append_row(tc);
  if (!label.empty() || !labels.empty()) {
    labels.resize(num_constraints() - 1);
    labels.push_back(std::move(label));
  }
}

std::optional<size_t> R1cs::first_unsatisfied(std::span<const Fr> witness) const {
  if (witness.size() != num_wires || !(witness[0] == Fr::one())) return size_t(0);
  for (size_t i = 0; i < num_constraints(); ++i) {
    if (!(a.dot(i, witness) * b.dot(i, witness) == c.dot(i, witness))) return i;
  }
  return std::nullopt;
}

std::array<uint8_t, 32> R1cs::digest() const {
  crypto_generichash_state st;
  crypto_generichash_init(&st, nullptr, 0, 32);
  auto put_u32 = [&](uint32_t v) {
    uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
    crypto_generichash_update(&st, b, 4);
  };
  const char tag[] = "enygma-r1cs-v1";
  crypto_generichash_update(&st, reinterpret_cast<const uint8_t*>(tag), sizeof tag - 1);
  put_u32(num_wires);
  put_u32(num_public);
  put_u32(uint32_t(num_constraints()));
  for (const SparseMatrix* m : {&a, &b, &c}) {
    for (uint32_t s : m->row_start) put_u32(s);
    for (const auto& t : m->terms) {
      put_u32(t.wire);
      uint8_t be[32];
      t.coeff.to_be_bytes(be);
      crypto_generichash_update(&st, be, 32);
    }
  }
  std::array<uint8_t, 32> out;
  crypto_generichash_final(&st, out.data(), out.size());
  return out;
}

}  // namespace enygma
