// Deterministic wallet randomness for every request builder (make-request, tests, demo): 64
// bytes of BLAKE2b keyed by a 32-byte seed per (label, index), libsodium's crypto_generichash.
// The same seed gives the same request on every target.
#pragma once

#include <array>
#include <cstdint>

#include "core/field/fr.hpp"
#include "core/field/u256.hpp"

namespace enygma {

class SeedExpander {
 public:
  explicit SeedExpander(const std::array<uint8_t, 32>& seed) : seed_(seed) {}
  ~SeedExpander();
  SeedExpander(const SeedExpander&) = delete;
  SeedExpander& operator=(const SeedExpander&) = delete;

  // Labels are short literals (at most 56 bytes).
  void bytes(const char* label, uint32_t index, uint8_t out[64]) const;
  uint64_t u64(const char* label, uint32_t index = 0) const;
  // The 64 bytes' low 256 bits, little-endian.
  U256 u256(const char* label, uint32_t index = 0) const;
  // Uniform below n (n >= 1; 64 bits reduced: bias below 2^-50 for the small n used here).
  unsigned below(unsigned n, const char* label, uint32_t index = 0) const;
  // Uniform in F_p (512 bits reduced: bias below 2^-258).
  Fr field(const char* label, uint32_t index = 0) const;
  // Uniform below l, as an Fr (a spend key).
  Fr mod_l(const char* label, uint32_t index = 0) const;
  // Uniform below `bound` (>= 1), by rejection on bit_length(bound) bits.
  U256 u256_below(const U256& bound, const char* label, uint32_t index = 0) const;

 private:
  std::array<uint8_t, 32> seed_;
};

}  // namespace enygma
