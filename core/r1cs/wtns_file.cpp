#include "core/r1cs/wtns_file.hpp"

#include <sodium.h>

#include <string>

#include "core/r1cs/iden3_binfile.hpp"

namespace enygma {

namespace {

Error wtns_error(const std::string& message, const std::string& field) {
  return make_error("wtns file: " + message, "wtns", field);
}

}  // namespace

SecureVector<uint8_t> write_wtns_file(std::span<const Fr> witness) {
  // Fixed layout: 12-byte container header, a 12-byte section header and 40-byte body for
  // section 1, a 12-byte section header for section 2, then the values.
  SecureVector<uint8_t> out;
  out.reserve(76 + 32 * witness.size());
  auto u32 = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
  };
  auto u64 = [&](uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(uint8_t(v >> (8 * i)));
  };
  auto element = [&](const U256& v) {
    uint8_t b[32];
    u256_to_le_bytes(v, b);
    out.insert(out.end(), b, b + 32);
    sodium_memzero(b, sizeof b);
  };
  for (char c : {'w', 't', 'n', 's'}) out.push_back(uint8_t(c));
  u32(2);  // version
  u32(2);  // sections
  u32(1);
  u64(4 + 32 + 4);
  u32(32);
  element(Fr::kModulus);
  u32(uint32_t(witness.size()));
  u32(2);
  u64(uint64_t(32) * witness.size());
  for (const Fr& x : witness) {
    U256 v = x.to_u256();
    element(v);
    sodium_memzero(&v, sizeof v);
  }
  return out;
}

Result<SecureVector<Fr>> read_wtns_file(std::span<const uint8_t> bytes) {
  auto file = iden3::parse_bin_file(bytes, "wtns", 2, "wtns", "wtns file");
  if (!file) return file.error();
  uint32_t count = 0;
  {
    auto body = iden3::unique_section(*file, 1, "wtns", "wtns file");
    if (!body) return body.error();
    ByteReader r(*body);
    uint32_t n8 = 0;
    U256 prime;
    if (!r.u32(n8)) return wtns_error("truncated header", "header");
    if (n8 != 32)
      return wtns_error("values of " + std::to_string(n8) + " bytes (expected 32)", "header.n8");
    if (!iden3::read_u256_le(r, prime) || !r.u32(count)) {
      return wtns_error("truncated header", "header");
    }
    if (r.remaining() != 0) return wtns_error("header section is too long", "header");
    if (!iden3::prime_is<Fr>(prime)) {
      return wtns_error("the prime is not the BN254 scalar field (bn128)", "header.prime");
    }
  }
  auto body = iden3::unique_section(*file, 2, "wtns", "wtns file");
  if (!body) return body.error();
  if (body->size() != uint64_t(count) * 32) {
    return wtns_error("values section holds " + std::to_string(body->size()) +
                          " bytes, the header announces " + std::to_string(count) + " values",
                      "values");
  }
  SecureVector<Fr> witness(count);
  for (uint32_t i = 0; i < count; ++i) {
    U256 v = u256_from_le_bytes(body->data() + 32 * size_t(i));
    auto x = Fr::from_canonical(v);
    sodium_memzero(&v, sizeof v);
    if (!x) return wtns_error("value " + std::to_string(i) + " is not below r", "values");
    witness[i] = *x;
  }
  return witness;
}

}  // namespace enygma
