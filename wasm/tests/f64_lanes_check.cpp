// core/field/wasm/f64_lanes.hpp on WebAssembly relaxed SIMD in V8: the checks of
// tests/f64_lanes_test.cpp (tests/support/f64_lanes_checks.hpp), then the time of a lane product
// against the build's scalar Fp multiplication. Built with -mrelaxed-simd and renamed by
// scripts/wasm_relaxed_simd.py; run by CTest with Node's --experimental-wasm-relaxed-simd.
// Exit status 0 when every product is right (the times are printed, not judged).
#include <chrono>
#include <cstdio>

#include "core/field/fp.hpp"
#include "core/field/wasm/f64_lanes.hpp"
#include "support/f64_lanes_checks.hpp"

using namespace enygma;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Four independent chains in each case: two lane pairs, and four scalar elements.
void time_products() {
  test::TestRng rng(7);
  U256 w[8];
  for (auto& x : w) {
    const Fp f = rng.field<Fp>();
    x = U256{{f.limbs[0], f.limbs[1], f.limbs[2], f.limbs[3]}};
  }
  f64_lanes::Fe2 x0 = f64_lanes::load(w[0].w, w[1].w), x1 = f64_lanes::load(w[2].w, w[3].w);
  const f64_lanes::Fe2 y = f64_lanes::load(w[4].w, w[5].w);
  Fp s0 = rng.field<Fp>(), s1 = rng.field<Fp>(), s2 = rng.field<Fp>(), s3 = rng.field<Fp>();
  const Fp t = rng.field<Fp>();
  constexpr int kSteps = 200000;
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kSteps; ++i) {
      f64_lanes::mul(x0, x0, y);
      f64_lanes::mul(x1, x1, y);
    }
    const double lanes = seconds_since(t0) / (4.0 * kSteps) * 1e9;
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kSteps; ++i) {
      s0 = s0 * t;
      s1 = s1 * t;
      s2 = s2 * t;
      s3 = s3 * t;
    }
    const double scalar = seconds_since(t0) / (4.0 * kSteps) * 1e9;
    std::printf("product: f64 lanes %.1f ns, scalar Fp %.1f ns (4 chains each)\n", lanes, scalar);
  }
  U256 out[2];
  f64_lanes::store(out[0].w, out[1].w, x0);
  std::printf("(%llx %llx)\n", (unsigned long long)(out[0].w[0] ^ out[1].w[0]),
              (unsigned long long)(s0 + s1 + s2 + s3).limbs[0]);
}

}  // namespace

int main() {
  if (!f64_lanes::fused_fma_works()) {
    std::printf("f64x2.relaxed_madd is not fused on this engine and CPU\n");
    return 1;
  }
  const test::F64LanesReport r = test::check_f64_lanes(100000);
  std::printf("f64 lane products: %zu checked, %zu wrong%s%s\n", r.checked, r.wrong,
              r.wrong ? ", first: " : "", r.first_wrong.c_str());
  if (r.wrong || r.checked == 0) return 1;
  time_products();
  return 0;
}
