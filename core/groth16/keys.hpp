// Groth16 keys and proofs (Groth, "On the Size of Pairing-based Non-interactive Arguments",
// EUROCRYPT 2016), in the conventions of snarkjs/rapidsnark so that their .zkey files import
// without conversion:
// - the domain has n >= constraints + num_public + 1 rows, n = 2^k or 3 * 2^k (the smaller that
//   holds them, core/poly/evaluation_domain.hpp; snarkjs's are 2^k); the extra rows are the
//   "IC rows" A[constraints + s][s] = 1 for s = 0..num_public that make the public inputs'
//   polynomials independent;
// - the H query holds [L^(2n)_(2i+1)(tau) / delta]_1, the Lagrange basis of the 2n-th roots at
//   the odd indices, so the prover evaluates the quotient on the coset of odd 2n-th roots
//   (core/groth16/quotient.hpp) instead of dividing by the vanishing polynomial.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/groth16/constraint_shape.hpp"
#include "core/util/shared_array.hpp"

namespace enygma {

// A sparse query: points[k] belongs to wire wires[k]; wires whose point is the identity are
// left out (most wires of a transfer circuit do not appear in B, for example).
template <class Affine>
struct SparseQuery {
  SharedArray<uint32_t> wires;
  SharedArray<Affine> points;
  size_t size() const { return wires.size(); }
  bool consistent() const { return points.size() == wires.size(); }  // a point for each wire
};

struct VerifyingKey {
  uint32_t num_public = 0;  // public inputs (without the constant wire)
  G1Affine alpha1;
  G2Affine beta2, gamma2, delta2;
  std::vector<G1Affine> ic;  // num_public + 1 points: [(beta*A_j + alpha*B_j + C_j)/gamma]_1
  std::array<uint8_t, 32> circuit_digest{};
  bool insecure_dev = false;  // as ProvingKey's: from a seeded setup (or delta = 1), never deploy
};

struct ProvingKey {
  uint32_t num_wires = 0;
  uint32_t num_public = 0;
  uint32_t domain_size = 0;  // n: 2^k or 3 * 2^k (EvaluationDomain::valid_size)
  std::array<uint8_t, 32> circuit_digest{};
  bool insecure_dev = false;  // made by the deterministic (seeded) setup: never for production
  G1Affine alpha1, beta1, delta1;
  G2Affine beta2, delta2;
  SparseQuery<G1Affine> a;   // [A_j(tau)]_1
  SparseQuery<G1Affine> b1;  // [B_j(tau)]_1
  SparseQuery<G2Affine> b2;  // [B_j(tau)]_2
  SparseQuery<G1Affine> c;   // private wires: [(beta*A_j + alpha*B_j + C_j)/delta]_1
  SharedArray<G1Affine> h;   // domain_size points, see the file comment
  // The constraint system the key was made for (setup and zkey import fill it; key files of
  // the raw format carry it), so that proving needs no R1cs. May be absent (older key files,
  // the compressed format): the prover then takes the circuit's R1cs.
  std::shared_ptr<const ConstraintShape> shape;
};

struct Proof {
  G1Affine a;
  G2Affine b;
  G1Affine c;
  bool operator==(const Proof& o) const { return a == o.a && b == o.b && c == o.c; }
};

}  // namespace enygma
