// Deterministic pseudo-random inputs for tests (SplitMix64): the same seed gives the same
// values on every target, so native and WebAssembly runs can be compared.
#pragma once

#include <cstdint>

#include "core/field/u256.hpp"

namespace enygma::test {

class TestRng {
 public:
  explicit TestRng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  U256 u256() { return U256{{next(), next(), next(), next()}}; }
  // Uniform-ish element of a prime field F (reduces 512 random bits).
  template <class F>
  F field() {
    uint8_t b[64];
    for (int i = 0; i < 64; i += 8) {
      uint64_t x = next();
      for (int j = 0; j < 8; ++j) b[i + j] = uint8_t(x >> (8 * j));
    }
    return F::from_wide_le_bytes(b);
  }

 private:
  uint64_t s_;
};

}  // namespace enygma::test
