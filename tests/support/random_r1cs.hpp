// Random satisfiable R1CS instances for engine tests: random sparse A and B rows, and a C row
// completed so that a random witness satisfies every constraint.
#pragma once

#include <vector>

#include "core/r1cs/r1cs.hpp"
#include "support/test_rng.hpp"

namespace enygma::test {

struct RandomCircuit {
  R1cs r1cs;
  std::vector<Fr> witness;
};

inline RandomCircuit random_circuit(TestRng& rng, uint32_t num_public, uint32_t num_private,
                                    size_t constraints, unsigned terms_per_row = 3) {
  RandomCircuit rc;
  R1cs& r = rc.r1cs;
  r.num_public = num_public;
  r.num_wires = 1 + num_public + num_private;
  rc.witness.resize(r.num_wires);
  rc.witness[0] = Fr::one();
  for (uint32_t j = 1; j < r.num_wires; ++j) {
    // mix of bits (as in real witnesses), small values and full-size values
    uint64_t kind = rng.next() % 4;
    rc.witness[j] = kind == 0   ? Fr::from_u64(rng.next() & 1)
                    : kind == 1 ? Fr::from_u64(rng.next() % 1000)
                                : rng.field<Fr>();
    if (rc.witness[j].is_zero()) rc.witness[j] = Fr::one();
  }
  auto row = [&](unsigned count) {
    std::vector<R1csTerm> t;
    for (unsigned k = 0; k < count; ++k) {
      t.push_back({uint32_t(rng.next() % r.num_wires), rng.field<Fr>()});
    }
    return t;
  };
  auto dot = [&](const std::vector<R1csTerm>& t) {
    Fr acc = Fr::zero();
    for (const auto& x : t) acc += x.coeff * rc.witness[x.wire];
    return acc;
  };
  for (size_t i = 0; i < constraints; ++i) {
    auto a = row(1 + rng.next() % terms_per_row);
    auto b = row(1 + rng.next() % terms_per_row);
    auto c = row(rng.next() % terms_per_row);
    // complete C with one more term on a non-zero wire so that a*b == c
    uint32_t wire = uint32_t(rng.next() % r.num_wires);
    Fr need = dot(a) * dot(b) - dot(c);
    c.push_back({wire, need * rc.witness[wire].inverse()});
    r.add_constraint(a, b, c);
  }
  // make sure every wire appears somewhere (so queries are not trivially empty)
  for (uint32_t j = 0; j < r.num_wires; ++j) {
    std::vector<R1csTerm> a = {{j, Fr::one()}}, b = {{0, Fr::one()}};
    std::vector<R1csTerm> c = {{j, Fr::one()}};
    r.add_constraint(a, b, c);
  }
  return rc;
}

}  // namespace enygma::test
