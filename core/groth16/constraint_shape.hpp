// The constraint system as the prover reads it, compactly: each matrix row by row (CSR), and a
// term's coefficient an index into one table of the system's distinct values, whose first two
// entries are 1 and -1 (a third of a payment circuit's terms, added or subtracted without a
// multiplication). 8 bytes a term against the R1cs's 40, and no labels: it travels inside the
// proving key file (core/groth16/key_format.hpp), covered by the file's digest and made from the
// R1CS whose digest the key carries, so that a one-shot prover need not rebuild the circuit.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/field/fr.hpp"
#include "core/r1cs/r1cs.hpp"
#include "core/util/shared_array.hpp"

namespace enygma {

struct ConstraintShape {
  struct Matrix {
    SharedArray<uint32_t> row_start = std::vector<uint32_t>{0};  // row i: [row_start[i], [i + 1])
    SharedArray<uint32_t> wire, coeff;  // a term's wire, its coefficient's index
  };
  uint32_t num_wires = 0, num_public = 0;
  SharedArray<Fr> coefficients;  // [0] = 1, [1] = -1, then the others in order of appearance
  Matrix a, b, c;

  size_t num_constraints() const { return a.row_start.size() - 1; }
  size_t num_terms() const { return a.wire.size() + b.wire.size() + c.wire.size(); }

  static ConstraintShape from_r1cs(const R1cs& r1cs);

  // <row i of m, w>. A quarter of a payment circuit's other terms meet a wire of value 0 or 1
  // (bits): those skip the multiplication (witness-dependent time, as the MSMs' zero and one
  // scalars, docs/hardening.md).
  Fr dot(const Matrix& m, size_t i, std::span<const Fr> w) const {
    Fr acc = Fr::zero();
    for (uint32_t t = m.row_start[i]; t < m.row_start[i + 1]; ++t) {
      const uint32_t k = m.coeff[t];
      const Fr& x = w[m.wire[t]];
      if (k == 0) {
        acc += x;
      } else if (k == 1) {
        acc -= x;
      } else if (x == Fr::one()) {
        acc += coefficients[k];
      } else if (!x.is_zero()) {
        acc += coefficients[k] * x;
      }
    }
    return acc;
  }

  // Structure of a decoded shape: three matrices of equal row counts, row starts increasing to
  // the term counts, wires below num_wires, coefficient indices in the table, the table starting
  // with 1 and -1. Empty when sound, otherwise what is wrong.
  std::string check() const;

  // R1cs::digest of the system it encodes, computed without building the R1cs: for tests and
  // audits of a key's shape against the circuit digest in its header.
  std::array<uint8_t, 32> digest() const;

  bool operator==(const ConstraintShape& o) const;
};

}  // namespace enygma
