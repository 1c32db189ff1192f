#include "core/r1cs/r1cs.hpp"

#include "core/r1cs/r1cs_digest.hpp"

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
  R1csDigestWriter d{uint32_t(num_wires), uint32_t(num_public), uint32_t(num_constraints())};
  for (const SparseMatrix* m : {&a, &b, &c}) {
    d.row_starts(m->row_start);
    for (const auto& t : m->terms) {
      uint8_t be[32];
      t.coeff.to_be_bytes(be);
      d.term(t.wire, be);
    }
  }
  return d.finish();
}

}  // namespace enygma
