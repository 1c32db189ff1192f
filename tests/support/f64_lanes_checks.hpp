// Checks of core/field/wasm/f64_lanes.hpp against the scalar field, shared by the native test
// (tests/f64_lanes_test.cpp, on the C++ model) and the WebAssembly check
// (wasm/tests/f64_lanes_check.cpp, on relaxed SIMD in V8). Header-only: the WebAssembly check is
// a program of its own, without GoogleTest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/curve/fp2.hpp"
#include "core/field/fp.hpp"
#include "core/field/fr.hpp"
#include "core/field/u256.hpp"
#include "core/field/wasm/f64_lanes.hpp"
#include "support/test_rng.hpp"

namespace enygma::test {

// The edge values of the inputs: 0, 1, m - 1, and for the first operand (allowed below 2m) m,
// 2m - 1; both lanes get different ones.
inline constexpr int kF64LanesEdgeCases = 5;
template <class F>
U256 f64_lanes_edge(int i) {
  U256 m_minus_1, two_m_minus_1;
  sub_borrow(m_minus_1, F::kModulus, U256{{1, 0, 0, 0}});
  add_carry(two_m_minus_1, F::kModulus, m_minus_1);
  const U256 v[kF64LanesEdgeCases] = {U256{{0, 0, 0, 0}}, U256{{1, 0, 0, 0}}, m_minus_1,
                                      F::kModulus, two_m_minus_1};
  return v[i];
}

struct F64LanesReport {
  size_t checked = 0, wrong = 0;
  std::string first_wrong;
};

// a b 2^-255 mod m (doubled: false, a b 2^-256) from the scalar field, whose Montgomery form
// has R = 2^256.
template <class F>
U256 f64_lanes_expected(U256 a, const U256& b, bool doubled = true) {
  if (cmp(a, F::kModulus) >= 0) sub_borrow(a, a, F::kModulus);
  const F p = F::from_montgomery(a) * F::from_montgomery(b);
  const F want = doubled ? p + p : p;
  return U256{{want.limbs[0], want.limbs[1], want.limbs[2], want.limbs[3]}};
}

// One pair of products (a0 b0, a1 b1) in the lanes, each checked: the canonical value, by mul
// (R = 2^255) and by mul_r256; mul2 against mul; square2 of (b0, b1) against its mul.
template <class F>
void f64_lanes_check_pair(const U256& a0, const U256& b0, const U256& a1, const U256& b1,
                          F64LanesReport& report) {
  f64_lanes::Fe2 x = f64_lanes::load(a0.w, a1.w), y = f64_lanes::load(b0.w, b1.w);
  f64_lanes::Fe2 r[2];
  f64_lanes::mul<F>(r[0], x, y);
  f64_lanes::mul_r256<F>(r[1], x, y);
  // The interleaved pair (mul2, kR256 both ways) against the single products: (x y, y y).
  f64_lanes::Fe2 yy[2], both[2][2];
  f64_lanes::mul<F>(yy[0], y, y);
  f64_lanes::mul_r256<F>(yy[1], y, y);
  f64_lanes::mul2<F>(both[0][0], x, y, both[0][1], y, y);
  f64_lanes::mul2<F, true>(both[1][0], x, y, both[1][1], y, y);
  for (int kind = 0; kind < 2; ++kind) {
    const f64_lanes::Fe2* want[2] = {&r[kind], &yy[kind]};
    for (int n = 0; n < 2; ++n) {
      U256 got[2], expect[2];
      f64_lanes::store(got[0].w, got[1].w, both[kind][n]);
      f64_lanes::store(expect[0].w, expect[1].w, *want[n]);
      ++report.checked;
      if (got[0] != expect[0] || got[1] != expect[1]) {
        if (report.wrong++ == 0)
          report.first_wrong = std::string(kind ? "mul2 (R = 2^256)" : "mul2") + ", product " +
                               std::to_string(n) + " of pair " + std::to_string(report.checked / 9);
      }
    }
  }
  // square2 of (y, y): both squares, both lanes, against y's product with itself (one check).
  {
    f64_lanes::Fe2 sq[2];
    f64_lanes::square2<F>(sq[0], y, sq[1], y);
    U256 got[2][2], expect[2];
    f64_lanes::store(got[0][0].w, got[0][1].w, sq[0]);
    f64_lanes::store(got[1][0].w, got[1][1].w, sq[1]);
    f64_lanes::store(expect[0].w, expect[1].w, yy[0]);
    ++report.checked;
    const bool right = got[0][0] == expect[0] && got[0][1] == expect[1] && got[1][0] == expect[0] &&
                       got[1][1] == expect[1];
    if (!right && report.wrong++ == 0)
      report.first_wrong = "square2 of pair " + std::to_string(report.checked / 9);
  }
  const U256 a[2] = {a0, a1}, b[2] = {b0, b1};
  for (int kind = 0; kind < 2; ++kind) {
    U256 got[2];
    f64_lanes::store(got[0].w, got[1].w, r[kind]);
    for (int l = 0; l < 2; ++l) {
      ++report.checked;
      if (got[l] != f64_lanes_expected<F>(a[l], b[l], kind == 0)) {
        if (report.wrong++ == 0)
          report.first_wrong = std::string(kind ? "mul_r256" : "mul") + ", lane " +
                               std::to_string(l) + " of pair " + std::to_string(report.checked / 9);
      }
    }
  }
}

// random_pairs pairs of random products (first operands below 2m, second below m), then every
// pair of edge values (first operand from the edges, second from 0, 1, m - 1 and the edges
// reduced below m).
template <class F = Fp>
F64LanesReport check_f64_lanes(size_t random_pairs) {
  F64LanesReport report;
  TestRng rng(0xf64f64);
  auto below_m = [&]() {
    const F x = rng.field<F>();
    return U256{{x.limbs[0], x.limbs[1], x.limbs[2], x.limbs[3]}};
  };
  for (size_t i = 0; i < random_pairs; ++i) {
    U256 a0 = below_m(), a1 = below_m();
    if (i % 2) add_carry(a0, a0, F::kModulus);  // first operands in [m, 2m) too
    if (i % 3 == 0) add_carry(a1, a1, F::kModulus);
    f64_lanes_check_pair<F>(a0, below_m(), a1, below_m(), report);
  }
  for (int i = 0; i < kF64LanesEdgeCases; ++i)
    for (int j = 0; j < kF64LanesEdgeCases; ++j) {
      U256 b0 = f64_lanes_edge<F>(j), b1 = f64_lanes_edge<F>(kF64LanesEdgeCases - 1 - j);
      if (cmp(b0, F::kModulus) >= 0) sub_borrow(b0, b0, F::kModulus);
      if (cmp(b1, F::kModulus) >= 0) sub_borrow(b1, b1, F::kModulus);
      f64_lanes_check_pair<F>(f64_lanes_edge<F>(i), b0,
                              f64_lanes_edge<F>(kF64LanesEdgeCases - 1 - i), b1, report);
    }
  return report;
}

// fp2_mul_many_f64 and fp2_square_many_f64 (core/curve/fp2_f64.cpp) against the scalar product
// and square for every count 1..9 over edge values (0, 1, m - 1 in each component) and random
// ones, outputs overwriting their operands included; "" when all agree, else the first
// difference.
inline std::string check_fp2_many_f64() {
  TestRng rng(0xf2f2);
  const Fp edges[3] = {Fp::zero(), Fp::one(), -Fp::one()};
  std::vector<Fp2> pool;
  for (const Fp& x : edges)
    for (const Fp& y : edges) pool.push_back({x, y});
  for (int i = 0; i < 40; ++i) pool.push_back({rng.field<Fp>(), rng.field<Fp>()});
  for (size_t n = 1; n <= 9; ++n) {
    for (size_t s = 0; s + n <= pool.size(); s += 3) {
      const Fp2 *a[9], *b[9];
      Fp2 prod[9], sq[9], in_place[9];
      for (size_t l = 0; l < n; ++l) {
        a[l] = &pool[s + l];
        b[l] = &pool[(s * 7 + l * 13 + 5) % pool.size()];
        in_place[l] = *a[l];
      }
      fp2_mul_many_f64(prod, a, b, n);
      fp2_square_many_f64(sq, a, n);
      const Fp2* own[9];
      for (size_t l = 0; l < n; ++l) own[l] = &in_place[l];
      fp2_square_many_f64(in_place, own, n);
      for (size_t l = 0; l < n; ++l) {
        const std::string where =
            "n=" + std::to_string(n) + " s=" + std::to_string(s) + " lane " + std::to_string(l);
        if (prod[l] != *a[l] * *b[l]) return "product " + where;
        if (sq[l] != a[l]->square()) return "square " + where;
        if (in_place[l] != sq[l]) return "square in place " + where;
      }
    }
  }
  return "";
}

}  // namespace enygma::test
