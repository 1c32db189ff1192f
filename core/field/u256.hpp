// 256-bit unsigned integers: the canonical (non-Montgomery) form of field elements, scalars for
// MSM and scalar multiplication, and the bridge to bytes and decimal strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace enygma {

struct U256 {
  uint64_t w[4] = {0, 0, 0, 0};  // little-endian 64-bit words

  constexpr bool operator==(const U256&) const = default;

  static constexpr U256 from_u64(uint64_t x) { return U256{{x, 0, 0, 0}}; }
  constexpr bool is_zero() const { return (w[0] | w[1] | w[2] | w[3]) == 0; }
  constexpr bool bit(unsigned i) const { return i < 256 && ((w[i / 64] >> (i % 64)) & 1) != 0; }
  constexpr unsigned bit_length() const {
    for (int i = 3; i >= 0; --i) {
      if (w[i] != 0) {
        unsigned n = 0;
        for (uint64_t x = w[i]; x != 0; x >>= 1) ++n;
        return unsigned(i) * 64 + n;
      }
    }
    return 0;
  }
  // Bits [pos, pos + width) as an integer; width <= 32.
  constexpr uint32_t bits(unsigned pos, unsigned width) const {
    if (pos >= 256) return 0;
    unsigned word = pos / 64, shift = pos % 64;
    uint64_t x = w[word] >> shift;
    if (shift + width > 64 && word + 1 < 4) x |= w[word + 1] << (64 - shift);
    return uint32_t(x & ((uint64_t(1) << width) - 1));
  }
};

// -1, 0, 1 as a < b, a == b, a > b.
constexpr int cmp(const U256& a, const U256& b) {
  for (int i = 3; i >= 0; --i) {
    if (a.w[i] != b.w[i]) return a.w[i] < b.w[i] ? -1 : 1;
  }
  return 0;
}

// r = a + b mod 2^256; returns the carry out.
constexpr uint64_t add_carry(U256& r, const U256& a, const U256& b) {
  uint64_t carry = 0;
  for (int i = 0; i < 4; ++i) {
    uint64_t s = a.w[i] + carry;
    uint64_t c1 = s < carry;
    uint64_t t = s + b.w[i];
    uint64_t c2 = t < s;
    r.w[i] = t;
    carry = c1 | c2;
  }
  return carry;
}

// r = a - b mod 2^256; returns the borrow out.
constexpr uint64_t sub_borrow(U256& r, const U256& a, const U256& b) {
  uint64_t borrow = 0;
  for (int i = 0; i < 4; ++i) {
    uint64_t d = a.w[i] - b.w[i];
    uint64_t b1 = a.w[i] < b.w[i];
    uint64_t e = d - borrow;
    uint64_t b2 = d < borrow;
    r.w[i] = e;
    borrow = b1 | b2;
  }
  return borrow;
}

// r = a * m + add (m, add small); returns the overflow word.
constexpr uint64_t mul_small_add(U256& r, const U256& a, uint32_t m, uint32_t add) {
  uint64_t carry = add;
  for (int i = 0; i < 4; ++i) {
    // 64x32 multiply split into 32-bit halves so it is constexpr and needs no __int128.
    uint64_t lo = (a.w[i] & 0xffffffffu) * m + carry;
    uint64_t hi = (a.w[i] >> 32) * m + (lo >> 32);
    r.w[i] = (lo & 0xffffffffu) | (hi << 32);
    carry = hi >> 32;
  }
  return carry;
}

constexpr U256 shr1(const U256& a) {
  U256 r;
  for (int i = 0; i < 4; ++i) r.w[i] = (a.w[i] >> 1) | (i < 3 ? a.w[i + 1] << 63 : 0);
  return r;
}

// Strict parse of an unsigned decimal string: digits only ("0", "42", "0042"; no sign, no
// spaces, no "0x"), leading zeros allowed, at most 78 significant digits. nullopt on anything
// else or on overflow of 2^256.
constexpr std::optional<U256> u256_from_decimal(std::string_view s) {
  if (s.empty()) return std::nullopt;
  while (s.size() > 1 && s[0] == '0') s.remove_prefix(1);
  if (s.size() > 78) return std::nullopt;
  // Nine digits at a time (10^9 < 2^32): r = r * 10^len + chunk, a ninth of the word products
  // of a digit at a time. A prefix is at most the whole number, so 2^256 or more overflows the
  // last step whatever the chunks.
  U256 r;
  while (!s.empty()) {
    const size_t len = s.size() % 9 == 0 ? 9 : s.size() % 9;  // the first chunk the shortest
    uint32_t chunk = 0, scale = 1;
    for (size_t i = 0; i < len; ++i) {
      const char c = s[i];
      if (c < '0' || c > '9') return std::nullopt;
      chunk = chunk * 10 + uint32_t(c - '0');
      scale *= 10;
    }
    if (mul_small_add(r, r, scale, chunk) != 0) return std::nullopt;
    s.remove_prefix(len);
  }
  return r;
}

// Parse for compile-time constants: aborts compilation (by throwing in a constant expression)
// on a malformed literal.
consteval U256 u256_const(std::string_view dec) {
  auto v = u256_from_decimal(dec);
  if (!v) throw "malformed U256 constant";
  return *v;
}

std::string to_decimal(const U256& a);
std::string to_hex(const U256& a);  // "0x" + 64 lowercase hex digits

constexpr U256 u256_from_be_bytes(const uint8_t* in) {
  U256 r;
  for (int i = 0; i < 32; ++i) r.w[3 - i / 8] |= uint64_t(in[i]) << (8 * (7 - i % 8));
  return r;
}
constexpr void u256_to_be_bytes(const U256& a, uint8_t* out) {
  for (int i = 0; i < 32; ++i) out[i] = uint8_t(a.w[3 - i / 8] >> (8 * (7 - i % 8)));
}
constexpr U256 u256_from_le_bytes(const uint8_t* in) {
  U256 r;
  for (int i = 0; i < 32; ++i) r.w[i / 8] |= uint64_t(in[i]) << (8 * (i % 8));
  return r;
}
constexpr void u256_to_le_bytes(const U256& a, uint8_t* out) {
  for (int i = 0; i < 32; ++i) out[i] = uint8_t(a.w[i / 8] >> (8 * (i % 8)));
}

}  // namespace enygma
