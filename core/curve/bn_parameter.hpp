// The BN254 curve parameter x (p = 36x^4 + 36x^3 + 24x^2 + 6x + 1, r = p - 6x^2) and the
// signed-digit (non-adjacent form) expansions of x and of the optimal ate loop length 6x + 2,
// computed at compile time. Used by the G2 subgroup check (core/curve/g2_subgroup) and the
// pairing (core/pairing).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/field/u256.hpp"

namespace enygma {

inline constexpr uint64_t kBnX = 4965661367192848881ull;

// Digits in {-1, 0, 1}, least significant first, no two adjacent digits nonzero.
struct SignedDigits {
  std::array<int8_t, 80> digit{};
  int length = 0;
};

constexpr SignedDigits non_adjacent_form(U256 n) {
  SignedDigits naf;
  while (!n.is_zero()) {
    int8_t d = 0;
    if (n.bit(0)) d = n.bit(1) ? -1 : 1;  // n = 1 mod 4 -> 1, n = 3 mod 4 -> -1
    if (d == 1) sub_borrow(n, n, U256::from_u64(1));
    if (d == -1) add_carry(n, n, U256::from_u64(1));
    naf.digit[size_t(naf.length++)] = d;
    n = shr1(n);
  }
  return naf;
}

// 6x + 2 (65 bits), computed with 256-bit words so no 128-bit type is needed.
constexpr U256 bn_ate_loop_length() {
  U256 six_x;
  mul_small_add(six_x, U256::from_u64(kBnX), 6, 2);
  return six_x;
}

inline constexpr SignedDigits kBnXNaf = non_adjacent_form(U256::from_u64(kBnX));
inline constexpr SignedDigits kAteLoopNaf = non_adjacent_form(bn_ate_loop_length());

}  // namespace enygma
