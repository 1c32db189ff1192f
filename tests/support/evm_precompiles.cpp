#include "support/evm_precompiles.hpp"

#include <algorithm>
#include <cstring>

#include "core/curve/point_encoding.hpp"
#include "core/pairing/pairing.hpp"

namespace enygma {

namespace {

// The first n bytes of input, right-padded with zeros (extra bytes are ignored).
std::vector<uint8_t> padded(std::span<const uint8_t> input, size_t n) {
  std::vector<uint8_t> out(n, 0);
  // An empty input may have a null data(): memcpy's pointers must not be null even for 0 bytes.
  if (const size_t len = std::min(n, input.size()); len > 0) {
    std::memcpy(out.data(), input.data(), len);
  }
  return out;
}

PrecompileResult fail(std::string error) {
  PrecompileResult r;
  r.error = std::move(error);
  return r;
}

PrecompileResult g1_output(const G1 p) {
  PrecompileResult r;
  r.ok = true;
  r.output.resize(kG1UncompressedBytes);
  g1_to_uncompressed(p.to_affine(), r.output.data());
  return r;
}

}  // namespace

PrecompileResult evm_bn254_add(std::span<const uint8_t> input) {
  const std::vector<uint8_t> in = padded(input, 128);
  const Decoded<G1Affine> a = g1_from_uncompressed(in.data());
  if (!a.ok()) return fail("first point: " + a.error);
  const Decoded<G1Affine> b = g1_from_uncompressed(in.data() + 64);
  if (!b.ok()) return fail("second point: " + b.error);
  return g1_output(a.point->to_jacobian().add_mixed(*b.point));
}

PrecompileResult evm_bn254_mul(std::span<const uint8_t> input) {
  const std::vector<uint8_t> in = padded(input, 96);
  const Decoded<G1Affine> a = g1_from_uncompressed(in.data());
  if (!a.ok()) return fail("point: " + a.error);
  // The scalar is public: variable-time multiplication.
  return g1_output(a.point->to_jacobian().mul_vartime(u256_from_be_bytes(in.data() + 64)));
}

PrecompileResult evm_bn254_pairing(std::span<const uint8_t> input) {
  constexpr size_t kPair = kG1UncompressedBytes + kG2UncompressedBytes;
  if (input.size() % kPair != 0) {
    return fail("input length " + std::to_string(input.size()) + " is not a multiple of 192");
  }
  const size_t k = input.size() / kPair;
  std::vector<G1Affine> ps(k);
  std::vector<G2Affine> qs(k);
  for (size_t i = 0; i < k; ++i) {
    const uint8_t* pair = input.data() + i * kPair;
    const Decoded<G1Affine> p = g1_from_uncompressed(pair);
    if (!p.ok()) return fail("pair " + std::to_string(i) + ": " + p.error);
    const Decoded<G2Affine> q = g2_from_uncompressed(pair + kG1UncompressedBytes);
    if (!q.ok()) return fail("pair " + std::to_string(i) + ": " + q.error);
    ps[i] = *p.point;
    qs[i] = *q.point;
  }
  PrecompileResult r;
  r.ok = true;
  r.output.assign(32, 0);
  r.output[31] = pairing_product_is_one(ps, qs) ? 1 : 0;
  return r;
}

}  // namespace enygma
