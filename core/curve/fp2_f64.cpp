// Independent Fp2 products and squares two at a time on the f64 lanes
// (core/field/wasm/f64_lanes.hpp; the pairing's tower lists them, core/curve/fp2.hpp). In the
// WebAssembly module built with relaxed SIMD they are the tower's lane kernel; elsewhere this
// compiles to the C++ model of the lanes, which the tests compare with the scalar products.
// Results are the canonical values, as the scalar product's.
#include <cstddef>

#include "core/curve/fp2.hpp"
#include "core/field/wasm/f64_lanes.hpp"

namespace enygma {

namespace {

using f64_lanes::Fe2;

struct Pair {
  Fe2 c0, c1;
};
Pair load(const Fp2& x0, const Fp2& x1) {
  return {f64_lanes::load(x0.c0.limbs, x1.c0.limbs), f64_lanes::load(x0.c1.limbs, x1.c1.limbs)};
}
void store(Fp2& o0, Fp2& o1, const Fe2& c0, const Fe2& c1) {
  f64_lanes::store(o0.c0.limbs, o1.c0.limbs, c0);
  f64_lanes::store(o0.c1.limbs, o1.c1.limbs, c1);
}

}  // namespace

void fp2_mul_many_f64(Fp2* out, const Fp2* const* a, const Fp2* const* b, size_t n) {
  size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    const Pair x = load(*a[i], *a[i + 1]), y = load(*b[i], *b[i + 1]);
    Fe2 r0, r1;
    f64_lanes::fp2_mul<true>(r0, r1, x.c0, x.c1, y.c0, y.c1);
    store(out[i], out[i + 1], r0, r1);
  }
  if (i < n) out[i] = *a[i] * *b[i];
}

void fp2_square_many_f64(Fp2* out, const Fp2* const* a, size_t n) {
  size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    const Pair x = load(*a[i], *a[i + 1]);
    Fe2 r0, r1;
    f64_lanes::fp2_square_r256(r0, r1, x.c0, x.c1);
    store(out[i], out[i + 1], r0, r1);
  }
  if (i < n) out[i] = a[i]->square();
}

}  // namespace enygma
