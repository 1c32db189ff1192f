// K a, K a + b and K a - b mod m for a small constant K: the five-word t = K a +- b, minus q m
// with q read from a table by the top 8 bits of t (the quotient or one less: the table holds the
// largest j with j m <= (t >> 250) 2^250, and m > 2^250), then one conditional subtraction.
// Fp2::mul_by_xi is two of them (9 a - b, 9 b + a): one reduction each, where doublings and
// additions take five and a subtraction one more.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/field/portable64/add_sub.hpp"
#include "core/field/u256.hpp"

namespace enygma::portable64 {

// The tables of the modulus M = F::kModulus: j m mod 2^256 for j = 0..16 (the subtraction
// of q m from a K ends below 2m < 2^256, so the fifth word needs no arithmetic), and the
// quotient by the top 8 bits.
template <class F>
struct SmallMultipleTables {
  static constexpr U256 M = F::kModulus;
  static_assert(M.w[3] >= (uint64_t(1) << 58), "mul_small needs m > 2^250");
  static_assert(M.w[3] < (uint64_t(1) << 62), "mul_small needs 16 m < 2^258");
  static constexpr std::array<U256, 17> kMultiple = [] {
    std::array<U256, 17> out{};
    U256 acc{};
    for (size_t j = 0; j < out.size(); ++j) {
      out[j] = acc;
      add_carry(acc, acc, M);
    }
    return out;
  }();
  static constexpr std::array<uint8_t, 256> kQuotient = [] {
    // Largest j <= 16 with j m <= idx 2^250, compared exactly in 64-bit words.
    std::array<uint8_t, 256> out{};
    for (size_t idx = 0; idx < 256; ++idx) {
      uint8_t best = 0;
      for (uint64_t j = 1; j <= 16; ++j) {
        // j m = (w4 : w3 : w2 : w1 : w0), by 32-bit halves (no 128-bit product needed here)
        uint64_t w[5] = {0, 0, 0, 0, 0};
        uint64_t carry = 0;
        for (int i = 0; i < 4; ++i) {
          const uint64_t lo = (M.w[i] & 0xffffffffu) * j + carry;
          const uint64_t hi = (M.w[i] >> 32) * j + (lo >> 32);
          w[i] = (lo & 0xffffffffu) | (hi << 32);
          carry = hi >> 32;
        }
        w[4] = carry;
        // idx 2^250 = (idx >> 6 : (idx & 63) << 58 : 0 : 0 : 0)
        const uint64_t top4 = idx >> 6, top3 = uint64_t(idx & 63) << 58;
        const bool le =
            w[4] < top4 || (w[4] == top4 &&
                            (w[3] < top3 || (w[3] == top3 && w[2] == 0 && w[1] == 0 && w[0] == 0)));
        if (le) best = uint8_t(j);
      }
      out[idx] = best;
    }
    return out;
  }();
};

// The combinations below: t = K a + b (Sign = +1), K a + (m - b) (Sign = -1) or K a (Sign = 0),
// all below (K + 1) m <= 16 m for a, b < m; then t - q m with q from the table, below 2m, and
// one conditional subtraction of m.
template <unsigned K, int Sign>
constexpr void check_small_combination() {
  static_assert(K >= 1 && K + (Sign != 0 ? 1 : 0) <= 16, "K a +- b must stay below 16 m");
  static_assert(Sign >= -1 && Sign <= 1);
}

// What is added to K a: b, m - b (in [1, m]) or 0.
template <class F, int Sign>
inline __attribute__((always_inline)) void combination_addend(uint64_t addend[4],
                                                              const uint64_t b[4]) {
  for (int i = 0; i < 4; ++i) addend[i] = Sign > 0 ? b[i] : 0;
  if constexpr (Sign < 0) sub_words(addend, F::kModulus.w, b);  // no borrow out
}

// r = K a + Sign b mod m for a, b < m (b unused when Sign = 0). kWide: the products by K as
// 128-bit products (x86-64); otherwise on 32-bit halves of the words (WebAssembly, where a
// 128-bit product is a library call). The same result either way (the tests compare them).
template <class F, unsigned K, int Sign, bool kWide = false>
inline __attribute__((always_inline)) void small_combination(uint64_t r[4], const uint64_t a[4],
                                                             const uint64_t b[4]) {
  check_small_combination<K, Sign>();
  using Tables = SmallMultipleTables<F>;
  constexpr const U256& M = F::kModulus;
  uint64_t addend[4];
  combination_addend<F, Sign>(addend, b);
  uint64_t t[4], top = 0;  // t = K a + addend = (top : t), top < 2^5
  if constexpr (kWide) {
#if defined(__SIZEOF_INT128__)
    for (int i = 0; i < 4; ++i) {
      const unsigned __int128 prod = (unsigned __int128)a[i] * K + top + addend[i];
      t[i] = uint64_t(prod);
      top = uint64_t(prod >> 64);
    }
#else
    static_assert(K == 0, "kWide needs 128-bit integers");
#endif
  } else {
    constexpr uint64_t kLow = 0xffffffffu;
    for (int i = 0; i < 4; ++i) {
      const uint64_t lo = (a[i] & kLow) * K + (addend[i] & kLow) + top;
      const uint64_t hi = (a[i] >> 32) * K + (addend[i] >> 32) + (lo >> 32);
      t[i] = (lo & kLow) | (hi << 32);
      top = hi >> 32;
    }
  }
  const U256& qm = Tables::kMultiple[Tables::kQuotient[(top << 6) | (t[3] >> 58)]];
  sub_words(t, t, qm.w);  // t - q m < 2m < 2^256: the fifth word cancels
#if defined(__x86_64__)
  if constexpr (kWide) return reduce_once_x86(r, t, M.w);
#endif
  reduce_once(r, t, M.w);
}

}  // namespace enygma::portable64
