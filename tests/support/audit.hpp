// Auditing a constraint system against a satisfying witness: which witness values could be
// changed alone without breaking any constraint (an under-constrained hint, like the
// reference circuit's unconstrained "x mod l"). A sound gadget has none: every bit, quotient,
// remainder, inverse, lambda and S-box intermediate is pinned by its constraints.
//
// Changing one wire can only affect the constraints whose rows mention it, so each check
// re-evaluates a handful of rows: auditing every wire of a circuit costs about one pass over
// the matrices.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/r1cs/r1cs.hpp"

namespace enygma::circuit {

// For each wire, the constraints whose A, B or C row mentions it (each listed once).
class WireConstraintIndex {
 public:
  explicit WireConstraintIndex(const R1cs& r1cs);
  std::span<const uint32_t> constraints_of(uint32_t wire) const {
    return {ids_.data() + start_[wire], ids_.data() + start_[wire + 1]};
  }

 private:
  std::vector<uint32_t> start_, ids_;
};

// Whether the constraints mentioning `wire` all hold with witness[wire] replaced by `value`
// (witness is restored before returning).
bool holds_with(const R1cs& r1cs, const WireConstraintIndex& index, std::span<Fr> witness,
                uint32_t wire, const Fr& value);

// The wires in [first, last) that can take value + delta, for some delta in `deltas`, with every
// constraint still holding. Empty when each of those wires is pinned by the constraints.
std::vector<uint32_t> wires_free_to_change(const R1cs& r1cs, std::span<const Fr> witness,
                                           uint32_t first, uint32_t last,
                                           std::span<const Fr> deltas);

// "" when the witness satisfies every constraint and no wire in [first, last) is free to change
// (by +1, -1 or a large constant); otherwise a description naming the first unsatisfied
// constraint or the free wires with the labels of their constraints. For tests.
std::string audit(const R1cs& r1cs, std::span<const Fr> witness, uint32_t first, uint32_t last);

}  // namespace enygma::circuit
