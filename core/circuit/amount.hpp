// DvP amounts in the circuit: 0 <= a < 10^36 as integers (../shared/docs/joinsplit-relation.md,
// J1; the reference's rangeCircuit). The bound is exact, not a power of two: the 120 bits of
// the amount are walked against 10^36 - 1 (compare.hpp's alloc_bits_at_most), so 10^36 - 1
// passes and 10^36 does not.
#pragma once

#include <string_view>

#include "core/circuit/builder.hpp"

namespace enygma::circuit {

// A wire holding the amount `value`, with its 120 bits tied to it (one recomposition
// constraint) and bounded by 10^36 - 1. Every value at or above 10^36 gives a failing witness:
// below 2^120 the walk fails, from 2^120 on the recomposition (the bits hold only the low 120).
// Cost: 163 constraints.
Var alloc_amount(CircuitBuilder& b, const Fr& value, std::string_view label);

}  // namespace enygma::circuit
