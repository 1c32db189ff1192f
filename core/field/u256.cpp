#include "core/field/u256.hpp"

#include <algorithm>

namespace enygma {

std::string to_decimal(const U256& a) {
  // Repeated division by 10^19 (the largest power of ten below 2^64), using 32-bit halves.
  U256 x = a;
  std::string out;
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
    std::string part = std::to_string(rem);
    if (!x.is_zero()) part.insert(0, 19 - part.size(), '0');
    out.insert(0, part);
  }
  return out.empty() ? "0" : out;
}

std::string to_hex(const U256& a) {
  static const char* kDigits = "0123456789abcdef";
  std::string out = "0x";
  for (int i = 3; i >= 0; --i) {
    for (int s = 60; s >= 0; s -= 4) out.push_back(kDigits[(a.w[i] >> s) & 15]);
  }
  return out;
}

}  // namespace enygma
