// Montgomery's trick: n inversions for the price of one inversion and 3(n-1) multiplications.
// Works for any field type with one(), is_zero(), operator* and inverse() (Fp, Fr, Fp2, ...).
#pragma once

#include <cstddef>

#include "core/field/inverse_vartime.hpp"

namespace enygma {

// In place x[i] <- x[i]^-1; zeros stay zero. scratch must hold n elements. public_values: the
// x[i] are public (a verifier's points), so the one inversion may take variable time
// (inverse_vartime); otherwise it is Fermat's, constant time.
template <class F>
void batch_inverse(F* x, size_t n, F* scratch, bool public_values = false) {
  F acc = F::one();
  for (size_t i = 0; i < n; ++i) {
    scratch[i] = acc;
    if (!x[i].is_zero()) acc *= x[i];
  }
  acc = public_values ? inverse_vartime(acc) : acc.inverse();
  for (size_t i = n; i-- > 0;) {
    if (x[i].is_zero()) continue;
    F inv = acc * scratch[i];
    acc *= x[i];
    x[i] = inv;
  }
}

}  // namespace enygma
