// Montgomery's trick: n inversions for the price of one inversion and 3(n-1) multiplications.
// Works for any field type with one(), is_zero(), operator* and inverse() (Fp, Fr, Fp2, ...).
#pragma once

#include <cstddef>

namespace enygma {

// In place x[i] <- x[i]^-1; zeros stay zero. scratch must hold n elements.
template <class F>
void batch_inverse(F* x, size_t n, F* scratch) {
  F acc = F::one();
  for (size_t i = 0; i < n; ++i) {
    scratch[i] = acc;
    if (!x[i].is_zero()) acc *= x[i];
  }
  acc = acc.inverse();
  for (size_t i = n; i-- > 0;) {
    if (x[i].is_zero()) continue;
    F inv = acc * scratch[i];
    acc *= x[i];
    x[i] = inv;
  }
}

}  // namespace enygma
