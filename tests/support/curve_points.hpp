// Random points for the curve tests.
#pragma once

#include "core/curve/g2.hpp"
#include "support/test_rng.hpp"

namespace enygma::test {

// A random point of the twist E'(Fp2), almost surely outside G2: random x, y = sqrt(x^3 + b').
inline G2Affine random_twist_point(TestRng& rng) {
  for (;;) {
    const Fp2 x = {rng.field<Fp>(), rng.field<Fp>()};
    auto y = (x.square() * x + G2Params::b()).sqrt();
    if (y) return {x, *y};
  }
}

}  // namespace enygma::test
