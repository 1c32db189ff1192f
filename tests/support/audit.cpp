#include "support/audit.hpp"

#include <algorithm>

namespace enygma::circuit {

WireConstraintIndex::WireConstraintIndex(const R1cs& r1cs) {
  std::vector<std::vector<uint32_t>> per_wire(r1cs.num_wires);
  for (size_t i = 0; i < r1cs.num_constraints(); ++i) {
    for (const SparseMatrix* m : {&r1cs.a, &r1cs.b, &r1cs.c}) {
      for (const auto& t : m->row(i)) {
        auto& list = per_wire[t.wire];
        if (list.empty() || list.back() != uint32_t(i)) list.push_back(uint32_t(i));
      }
    }
  }
  start_.assign(1, 0);
  for (const auto& list : per_wire) {
    ids_.insert(ids_.end(), list.begin(), list.end());
    start_.push_back(uint32_t(ids_.size()));
  }
}

bool holds_with(const R1cs& r1cs, const WireConstraintIndex& index, std::span<Fr> witness,
                uint32_t wire, const Fr& value) {
  const Fr saved = witness[wire];
  witness[wire] = value;
  bool ok = true;
  for (uint32_t i : index.constraints_of(wire)) {
    if (!(r1cs.a.dot(i, witness) * r1cs.b.dot(i, witness) == r1cs.c.dot(i, witness))) {
      ok = false;
      break;
    }
  }
  witness[wire] = saved;
  return ok;
}

std::vector<uint32_t> wires_free_to_change(const R1cs& r1cs, std::span<const Fr> witness,
                                           uint32_t first, uint32_t last,
                                           std::span<const Fr> deltas) {
  const WireConstraintIndex index(r1cs);
  std::vector<Fr> w(witness.begin(), witness.end());
  std::vector<uint32_t> free;
  for (uint32_t wire = first; wire < last && wire < r1cs.num_wires; ++wire) {
    for (const Fr& d : deltas) {
      if (holds_with(r1cs, index, w, wire, w[wire] + d)) {
        free.push_back(wire);
        break;
      }
    }
  }
  std::fill(w.begin(), w.end(), Fr::zero());
  return free;
}

std::string audit(const R1cs& r1cs, std::span<const Fr> witness, uint32_t first, uint32_t last) {
  // Built with += only: g++ 12 warns (-Wrestrict, a false positive) on string operator+ chains.
  auto append_label = [&](std::string& out, size_t i) {
    if (i < r1cs.labels.size()) {
      out += r1cs.labels[i];
    } else {
      out += '#';
      out += std::to_string(i);
    }
  };
  std::string out;
  if (auto bad = r1cs.first_unsatisfied(witness)) {
    out += "unsatisfied constraint ";
    out += std::to_string(*bad);
    out += " (";
    append_label(out, *bad);
    out += ')';
    return out;
  }
  const Fr deltas[] = {Fr::one(), -Fr::one(),
                       Fr::constant("9876543210987654321098765432109876543210")};
  const std::vector<uint32_t> free = wires_free_to_change(r1cs, witness, first, last, deltas);
  if (free.empty()) return out;
  const WireConstraintIndex index(r1cs);
  out += std::to_string(free.size());
  out += " free wire(s):";
  for (size_t n = 0; n < free.size() && n < 5; ++n) {
    out += " wire ";
    out += std::to_string(free[n]);
    out += " in {";
    for (uint32_t c : index.constraints_of(free[n])) {
      out += ' ';
      append_label(out, c);
      out += ';';
    }
    out += " }";
  }
  return out;
}

}  // namespace enygma::circuit
