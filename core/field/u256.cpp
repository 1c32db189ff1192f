#include "core/field/u256.hpp"

#include <sodium.h>

#include <algorithm>

namespace enygma {

std::string to_decimal(const U256& a) {
  // Repeated division by 10^19 (the largest power of ten below 2^64), using 32-bit halves. The
  // digits are written from the right into a buffer on the stack and the text made once, of its
  // size: no shorter or partial copy of it is freed unwiped (the value may be a secret), and the
  // buffer and the quotient are wiped.
  char digits[80];  // 2^256 has 78 digits
  size_t start = sizeof digits;
  U256 x = a;
  constexpr uint64_t kChunk = 10000000000000000000ull;
  while (!x.is_zero()) {
    // x / kChunk, remainder rem; long division word by word with a 128-bit intermediate built
    // from two 64-bit halves so the code needs no __int128 (the WASM build has none).
    uint64_t rem = 0;
    for (int i = 3; i >= 0; --i) {
      // divide (rem:x.w[i]) by kChunk, rem < kChunk < 2^64
      uint64_t hi = rem, lo = x.w[i], q = 0;
      for (int b = 63; b >= 0; --b) {
        // shift (hi:lo) left by one, bring down a bit
        uint64_t top = hi >> 63;
        hi = (hi << 1) | (lo >> 63);
        lo <<= 1;
        q <<= 1;
        if (top || hi >= kChunk) {
          hi -= kChunk;
          q |= 1;
        }
      }
      x.w[i] = q;
      rem = hi;
    }
    // 19 digits with their leading zeros, but the leftmost piece without them
    for (int d = 0; d < 19 && (rem != 0 || !x.is_zero()); ++d) {
      digits[--start] = char('0' + rem % 10);
      rem /= 10;
    }
  }
  if (start == sizeof digits) digits[--start] = '0';
  std::string out(digits + start, sizeof digits - start);
  sodium_memzero(digits, sizeof digits);
  sodium_memzero(&x, sizeof x);
  return out;
}

std::string to_hex(const U256& a) {
  // Made at its final size (one allocation): a growing string would free shorter copies of the
  // digits unwiped (the value may be a secret, as a join-split's token address is).
  static const char* kDigits = "0123456789abcdef";
  std::string out(66, '0');
  out[1] = 'x';
  size_t at = 2;
  for (int i = 3; i >= 0; --i) {
    for (int s = 60; s >= 0; s -= 4) out[at++] = kDigits[(a.w[i] >> s) & 15];
  }
  return out;
}

}  // namespace enygma
