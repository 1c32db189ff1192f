// Exponentiations of many Fp elements by one public exponent on the f64 lanes
// (core/field/wasm/f64_lanes.hpp), four at a time: the square roots of compressed points
// (core/curve/point_encoding.cpp) in the WebAssembly module built with relaxed SIMD. Elsewhere
// this compiles to the C++ model of the lanes, which the tests compare with Fp::pow.
#include <cstddef>

#include "core/curve/point_encoding.hpp"
#include "core/field/wasm/f64_lanes.hpp"

namespace enygma::encoding_detail {

namespace {

using f64_lanes::Fe2;

// Elements 2k and 2k + 1 of four, halved: a 2^256 (the scalar Montgomery form) becomes
// a 2^255, the lanes' form of the same value (below m, as the lanes' products want it).
Fe2 load_halved(const Fp* x, size_t k) {
  return f64_lanes::detail::halve<Fp>(f64_lanes::load(x[2 * k].limbs, x[2 * k + 1].limbs));
}
// And back: doubled below m.
void store_doubled(Fp* x, size_t k, const Fe2& v) {
  f64_lanes::store(x[2 * k].limbs, x[2 * k + 1].limbs, f64_lanes::add<Fp>(v, v));
}

}  // namespace

void fp_pow_many_f64(Fp* x, size_t n, const U256& e) {
  const int windows = int((e.bit_length() + 3) / 4);
  for (size_t i = 0; i < n; i += 4) {
    Fp group[4];
    const size_t count = n - i < 4 ? n - i : 4;
    for (size_t j = 0; j < 4; ++j) group[j] = j < count ? x[i + j] : Fp::one();
    if (windows == 0) {
      for (size_t j = 0; j < count; ++j) x[i + j] = Fp::one();
      continue;
    }
    // Fixed 4-bit windows, as pow_window4 (point_encoding.cpp): table[d] = a^d for d in 1..15.
    Fe2 table[16][2];
    table[1][0] = load_halved(group, 0);
    table[1][1] = load_halved(group, 1);
    for (int d = 2; d < 16; ++d)
      f64_lanes::mul_many<Fp, false, 2>(table[d], table[d - 1], table[1]);
    const uint32_t top = e.bits(unsigned(windows - 1) * 4, 4);  // nonzero: e's top window
    Fe2 r[2] = {table[top][0], table[top][1]};
    for (int w = windows - 2; w >= 0; --w) {
      for (int s = 0; s < 4; ++s) f64_lanes::square_many<Fp, 2>(r, r);
      const uint32_t d = e.bits(unsigned(w) * 4, 4);
      if (d != 0) f64_lanes::mul_many<Fp, false, 2>(r, r, table[d]);
    }
    store_doubled(group, 0, r[0]);
    store_doubled(group, 1, r[1]);
    for (size_t j = 0; j < count; ++j) x[i + j] = group[j];
  }
}

}  // namespace enygma::encoding_detail
