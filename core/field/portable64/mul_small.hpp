// a * K mod m for a small constant K (1..16), x86-64: the five-word product t = a K, minus q m
// with q read from a table by the top 8 bits of t (the quotient or one less: the table holds the
// largest j with j m <= (t >> 250) 2^250, and m > 2^250), then one conditional subtraction.
// Fp2::mul_by_xi multiplies by 9 twice; three doublings and an addition cost more.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/field/portable64/add_sub.hpp"
#include "core/field/u256.hpp"

#if defined(__x86_64__) && defined(__SIZEOF_INT128__)
#include <x86intrin.h>
#endif

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

#if defined(__x86_64__) && defined(__SIZEOF_INT128__)
// r = a K mod m for a < m.
template <class F, unsigned K>
inline __attribute__((always_inline)) void mul_small_x86(uint64_t r[4], const uint64_t a[4]) {
  static_assert(K >= 1 && K <= 16);
  using Tables = SmallMultipleTables<F>;
  constexpr const U256& M = F::kModulus;
  unsigned long long t[5];
  uint64_t hi = 0;
  for (int i = 0; i < 4; ++i) {
    const unsigned __int128 prod = (unsigned __int128)a[i] * K + hi;
    t[i] = uint64_t(prod);
    hi = uint64_t(prod >> 64);
  }
  t[4] = hi;
  const uint8_t q = Tables::kQuotient[(t[4] << 6) | (t[3] >> 58)];
  const U256& qm = Tables::kMultiple[q];
  unsigned char br = 0;
  br = _subborrow_u64(br, t[0], qm.w[0], &t[0]);
  br = _subborrow_u64(br, t[1], qm.w[1], &t[1]);
  br = _subborrow_u64(br, t[2], qm.w[2], &t[2]);
  br = _subborrow_u64(br, t[3], qm.w[3], &t[3]);
  // t < 2m < 2^255 now, so the fifth word is spent: one conditional subtraction of m.
  (void)br;
  const uint64_t low[4] = {t[0], t[1], t[2], t[3]};
  reduce_once_x86(r, low, M.w);
}
#endif

}  // namespace enygma::portable64
