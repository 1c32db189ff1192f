// Rank-1 constraint systems over Fr: <A_i, w> * <B_i, w> = <C_i, w> for every constraint i.
//
// Wire layout (the iden3 / snarkjs convention, so .r1cs/.wtns/.zkey interoperate):
//   wire 0                      the constant 1
//   wires 1 .. num_public       public inputs, in the order of the statement
//   wires num_public+1 ..       private wires (secret inputs and intermediate values)
// Matrices are stored row by row in compressed sparse row form: one concern, no pointers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/field/fr.hpp"

namespace enygma {

struct R1csTerm {
  uint32_t wire;
  Fr coeff;
};

// One sparse matrix in CSR form: row i is terms[row_start[i] .. row_start[i+1]).
struct SparseMatrix {
  std::vector<uint32_t> row_start{0};
  std::vector<R1csTerm> terms;

  size_t rows() const { return row_start.size() - 1; }
  std::span<const R1csTerm> row(size_t i) const {
    return {terms.data() + row_start[i], terms.data() + row_start[i + 1]};
  }
  void append_row(std::span<const R1csTerm> t) {
    terms.insert(terms.end(), t.begin(), t.end());
    row_start.push_back(uint32_t(terms.size()));
  }
  // <row i, w>
  Fr dot(size_t i, std::span<const Fr> w) const {
    Fr acc = Fr::zero();
    for (const auto& t : row(i)) acc += t.coeff * w[t.wire];
    return acc;
  }
};

struct R1cs {
  uint32_t num_wires = 1;   // including the constant wire 0
  uint32_t num_public = 0;  // public inputs (wires 1 .. num_public)
  SparseMatrix a, b, c;
  std::vector<std::string> labels;  // optional, one per constraint: what the constraint enforces

  size_t num_constraints() const { return a.rows(); }
  size_t num_private() const { return num_wires - 1 - num_public; }

  void add_constraint(std::span<const R1csTerm> ta, std::span<const R1csTerm> tb,
                      std::span<const R1csTerm> tc, std::string label = {});

  // Index of the first constraint the witness violates (nullopt: all hold). The witness has
  // num_wires entries and witness[0] == 1.
  std::optional<size_t> first_unsatisfied(std::span<const Fr> witness) const;

  // BLAKE2b-256 over a canonical serialisation: identifies the circuit in key files.
  std::array<uint8_t, 32> digest() const;
};

}  // namespace enygma
