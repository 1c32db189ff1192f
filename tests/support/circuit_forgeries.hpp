// The coordinated forgeries of a whole circuit, for the soundness tests: the places where a
// prover choosing several hints together has an algebraic alternative to the honest values,
// found in a circuit's R1CS by the labels of its constraints, and the forgeries to try there.
//
//  - Exact reductions mod l (core/circuit/mod_l.hpp, "<scope>/x == q*l + r"): x == q*l + r in F_p
//    also holds for every other quotient q' with r' = x - q'*l (mod p), the wrapped
//    representations; those with r' below 2^n (n remainder bits) can be written in the bits.
//    Each must be refused by the remainder's bound walk ("<scope>/r/...", r <= l - 1, and
//    r <= p - 7l - 1 when q' == 7), the recomposition holding.
//  - Bound walks (core/circuit/compare.hpp: alloc_bits_at_most, alloc_bits_at_most_dual,
//    found by their step labels "boolean", "bit <= bound", ...) over n >= 254 bits: the bits of
//    v + p encode the same field element; the canonical bound p - 1 must refuse them. And walks
//    to l - 1 (a scalar of Baby Jubjub's order-l points, R16's R): the bits of v + l give the
//    same point; the bound must refuse them.
// Nothing else the circuits take has an alternative solution (the comments of
// tests/circuit_forgery_soundness_test.cpp say why), so nothing else is listed here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/field/u256.hpp"
#include "core/r1cs/r1cs.hpp"
#include "support/forge.hpp"

namespace enygma::test {

// One bound walk, read back from its constraints.
struct BoundWalk {
  std::string scope;            // "R5 hs[0]/mod l/r", "R14 P[1]/canonical bits"
  size_t first = 0, last = 0;   // its constraints, first..last (consecutive)
  std::vector<uint32_t> bits;   // its bit wires, least significant first
  U256 bound;                   // from the step labels: bit i is 1 where step i is "boolean" or
                                // "bit <= tighter"
  std::optional<U256> tighter;  // the second bound of a dual walk
};

// One exact reduction mod l, read from its recomposition "x == q*l + r": A = q*l + r (q's bits
// weighted 2^i * l, r's 2^i), B = 1, C = x.
struct ModLReduction {
  std::string scope;                     // "R5 hs[0]/mod l"
  size_t recomposition = 0;              // the constraint "x == q*l + r"
  std::vector<uint32_t> quotient_bits;   // least significant first
  std::vector<uint32_t> remainder_bits;  // least significant first
  std::optional<size_t> walk;  // the remainder's walk "<scope>/r" (index into walks), if any
};

struct CircuitInstances {
  std::vector<BoundWalk> walks;
  std::vector<ModLReduction> reductions;
  std::vector<size_t> p_alias_walks;  // walks of 254 bits or more, not a remainder's
  std::vector<size_t> l_alias_walks;  // walks to l - 1, not a remainder's
  std::string error;                  // a structure the finder does not know ("" if none)
};

CircuitInstances find_instances(const R1cs& r1cs);

// One forgery: the wires to force, and the walk that must refuse it first.
struct ForgeryCase {
  std::string what;  // "R5 hs[0]/mod l: x = ... (q = 3), forged q' = 2, r' = ..."
  std::vector<ForcedWire> forced;
  std::optional<size_t> walk;       // none: a reduction whose remainder has no walk at all
  std::string walk_scope;           // the walk's scope, or the one it should have
  std::optional<size_t> must_hold;  // a constraint the forgery satisfies (the recomposition)
};

// Every wrapped representation of reduction `i` in the witness: q' != q over all the quotient's
// bit patterns, r' = x - q'*l mod p when it fits in the remainder's bits. Empty when none fits
// (x decides: about a third of the values have one with 3 quotient bits and 251 remainder bits).
std::vector<ForgeryCase> wrapped_representations(const R1cs& r1cs, const CircuitInstances& inst,
                                                 size_t i, std::span<const Fr> witness);

// The aliases of walk `i`'s value v in the witness: v + m*p (m >= 1) when `modulus_p`, else
// v + m*l, those below 2^n.
std::vector<ForgeryCase> walk_aliases(const CircuitInstances& inst, size_t i,
                                      std::span<const Fr> witness, bool modulus_p);

// "" when the forged witness fails, first at a constraint of the case's walk (and satisfies
// must_hold); otherwise what happened, naming the case: accepted, or first refused elsewhere.
std::string refused_by_its_walk(const Forger& forger, const CircuitInstances& inst,
                                const ForgeryCase& c, std::span<const Fr> witness);

// The scope with every index replaced: "R5 hs[3]/mod l" -> "R5 hs[*]/mod l".
std::string instance_group(const std::string& scope);

}  // namespace enygma::test
