// Eight independent Fp2 products or squares at once on the IFMA backend (core/field/ifma/fe8.hpp),
// for the pairing's Fp6 and Fp12 arithmetic, whose Fp2 products are independent of one another
// in groups of 5 to 18 (core/pairing/fp12.cpp). Same function as the scalar Fp2 product: the
// operands and the results are Fp2 elements in memory (eight words: c0 then c1, each in
// Montgomery form with R = 2^256, below m), so the results are identical whichever runs.
//
// Only the prime fields below 2^254 (the bounds in fp2_lanes.cpp). Call through the dispatching
// Fp2 batch functions (core/curve/fp2.hpp), which run the scalar kernels when this one is off.
#pragma once

#include <cstdint>

#include "core/field/cpu_features.hpp"

#if defined(ENYGMA_HAVE_IFMA_KERNEL)

namespace enygma::ifma {

// out[i] = a[i] * b[i] for i < n, 1 <= n <= 8: a[i] and b[i] each address one Fp2 (eight
// words), out an array of them (element i at word 8i). Every input is read before any output
// is written, so an output may overwrite an input.
void fp2_mul_lanes(uint64_t* out, const uint64_t* const a[], const uint64_t* const b[], unsigned n);
// out[i] = a[i]^2 for i < n, 1 <= n <= 8; as above.
void fp2_square_lanes(uint64_t* out, const uint64_t* const a[], unsigned n);

}  // namespace enygma::ifma

#endif  // ENYGMA_HAVE_IFMA_KERNEL
