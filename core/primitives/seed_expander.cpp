#include "core/primitives/seed_expander.hpp"

#include <sodium.h>

#include <cstdlib>
#include <cstring>

#include "core/primitives/babyjubjub.hpp"

namespace enygma {

SeedExpander::~SeedExpander() {
  sodium_memzero(seed_.data(), seed_.size());
}

void SeedExpander::bytes(const char* label, uint32_t index, uint8_t out[64]) const {
  uint8_t msg[64] = {};
  const size_t n = std::strlen(label);
  if (n > 56) std::abort();  // a programming error: labels are literals
  std::memcpy(msg, label, n);
  for (int b = 0; b < 4; ++b) msg[n + b] = uint8_t(index >> (8 * b));
  crypto_generichash(out, 64, msg, n + 4, seed_.data(), seed_.size());
}

uint64_t SeedExpander::u64(const char* label, uint32_t index) const {
  uint8_t b[64];
  bytes(label, index, b);
  uint64_t x = 0;
  for (int i = 0; i < 8; ++i) x |= uint64_t(b[i]) << (8 * i);
  sodium_memzero(b, sizeof b);
  return x;
}

U256 SeedExpander::u256(const char* label, uint32_t index) const {
  uint8_t b[64];
  bytes(label, index, b);
  U256 r = u256_from_le_bytes(b);
  sodium_memzero(b, sizeof b);
  return r;
}

unsigned SeedExpander::below(unsigned n, const char* label, uint32_t index) const {
  return unsigned(u64(label, index) % n);
}

Fr SeedExpander::field(const char* label, uint32_t index) const {
  uint8_t b[64];
  bytes(label, index, b);
  Fr r = Fr::from_wide_le_bytes(b);
  sodium_memzero(b, sizeof b);
  return r;
}

Fr SeedExpander::mod_l(const char* label, uint32_t index) const {
  uint8_t b[64];
  bytes(label, index, b);
  Fr r = *Fr::from_canonical(BjjScalar::from_wide_le_bytes(b).to_u256());
  sodium_memzero(b, sizeof b);
  return r;
}

U256 SeedExpander::u256_below(const U256& bound, const char* label, uint32_t index) const {
  if (bound.is_zero()) std::abort();
  const unsigned bits = bound.bit_length();
  for (uint32_t attempt = 0;; ++attempt) {
    uint8_t b[64];
    bytes(label, index * 64 + attempt, b);  // fails with probability < 1/2 per attempt
    U256 x = u256_from_le_bytes(b);
    sodium_memzero(b, sizeof b);
    for (unsigned w = 0; w < 4; ++w) {
      if (bits >= 64 * (w + 1)) continue;
      x.w[w] = bits <= 64 * w ? 0 : x.w[w] & ((uint64_t(1) << (bits - 64 * w)) - 1);
    }
    if (cmp(x, bound) < 0) return x;
  }
}

}  // namespace enygma
