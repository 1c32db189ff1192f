// A small re-solver for coordinated forgeries: a prover who picks several wires at once (a
// quotient and its remainder, every bit of a decomposition) and lets the circuit compute the
// rest, as an honest prover's witness generator would from the forged values.
//
// What it solves. Given an R1CS, a witness that satisfies it and a set of forced wire values:
//  - forced wires (public or private) take their forced values;
//  - every other private wire after the first forced one is recomputed, in wire order, from the
//    FIRST constraint that mentions it, when that constraint defines it: the wire appears in A
//    or in B (not both) and/or in C, with a non-zero coefficient once the other wires are
//    evaluated, and every other wire of the constraint is settled (of a lower index, or forced).
//    The builder adds the constraint that defines a computed wire right after the wire, so this
//    recomputes: mul wires (x * y = z), selections, zero-test flags, S-box powers, the runs of
//    bound walks, the lambdas and coordinates of point additions, a wire packed from bits
//    allocated before it;
//  - every other wire keeps its honest value: bits (their first constraint is booleanity or a
//    bound-walk step, quadratic in them), hints whose first constraint holds a wire allocated
//    after them (is_zero's inverse), the circuit's free inputs, and wires before the first forced
//    one;
//  - it reports the first constraint the forged witness does not satisfy, with its label.
//
// What it does not solve. It never searches: no wire is solved from a later constraint, no
// system of constraints is solved jointly, a hint whose first constraint does not define it
// keeps its honest value even where a consistent value exists (a test that wants one forces it),
// and public inputs change only when forced. So a forged witness that fails is not a proof that
// no forgery exists; the tests use it to check WHERE a chosen forgery is refused: with a
// quotient and every remainder bit forced, the recomposition holds and everything downstream is
// recomputed, so the first unsatisfied constraint is the bound that refuses the forgery, or, if
// that bound is missing, something downstream (or nothing at all).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/r1cs/r1cs.hpp"

namespace enygma::test {

struct ForcedWire {
  uint32_t wire;
  Fr value;
};

struct Forgery {
  std::vector<Fr> witness;
  std::optional<size_t> first_unsatisfied;  // nullopt: the forged witness satisfies the R1CS
  std::string label;                        // that constraint's label ("" if none)
  size_t recomputed = 0;                    // wires that recomputation moved off their honest value
};

class Forger {
 public:
  explicit Forger(const R1cs& r1cs);  // keeps a reference: the R1CS must outlive the Forger

  // The forged witness of `honest` (a satisfying witness of the R1CS) with `forced` applied.
  Forgery forge(std::span<const Fr> honest, std::span<const ForcedWire> forced) const;

  const R1cs& r1cs() const { return r1cs_; }

 private:
  // The value of `wire` that satisfies constraint `c`, the other wires taken from `w`; nullopt
  // when `c` does not define it (see the top).
  std::optional<Fr> solve(size_t c, uint32_t wire, std::span<const Fr> w,
                          const std::vector<uint8_t>& forced) const;

  const R1cs& r1cs_;
  std::vector<uint32_t> first_constraint_;  // per wire; kNone when no constraint mentions it
  static constexpr uint32_t kNone = UINT32_MAX;
};

}  // namespace enygma::test
