// Byte encodings of G1 and G2 points.
//
// Uncompressed, Ethereum EIP-196/197 (also gnark-crypto's "raw" form): coordinates as 32-byte
// big-endian integers, G1 = x | y (64 bytes), G2 = x.c1 | x.c0 | y.c1 | y.c0 (128 bytes, the
// imaginary part first); all zero bytes = the point at infinity.
//
// Compressed, gnark-crypto's convention (ecc/bn254/marshal.go): G1 = x (32 bytes), G2 =
// x.c1 | x.c0 (64 bytes), with flags in the two top bits of the first byte (free since p < 2^254):
//   0b10: y is the lexicographically smallest of the two roots
//   0b11: y is the lexicographically largest (y > -y; for Fp2 the imaginary part decides and the
//         real part breaks a tie, see Fp2::is_lexicographically_largest)
//   0b01: the point at infinity (every other bit must be zero)
//   0b00: the uncompressed form; rejected by the compressed decoders.
//
// Decoders check everything an untrusted input can get wrong: length is fixed by the caller,
// coordinates canonical (< p), the point on the curve, and for G2 membership in the order-r
// subgroup (G1 has cofactor 1: on the curve means in the group). Failures name the rule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"

namespace enygma {

class ThreadPool;

inline constexpr size_t kG1UncompressedBytes = 64;
inline constexpr size_t kG2UncompressedBytes = 128;
inline constexpr size_t kG1CompressedBytes = 32;
inline constexpr size_t kG2CompressedBytes = 64;

// A decoded point, or the reason it was rejected.
template <class Point>
struct Decoded {
  std::optional<Point> point;
  std::string error;  // empty iff point has a value
  bool ok() const { return point.has_value(); }
};

// Skipping the G2 subgroup check is only sound for bytes whose integrity is established some
// other way (e.g. a key file whose digest is pinned, produced by this project's own code).
enum class G2Check { kSubgroup, kSkipSubgroupTrustedSource };

// ---- uncompressed (EIP-196/197) -----------------------------------------------------------
void g1_to_uncompressed(const G1Affine& p, uint8_t out[kG1UncompressedBytes]);
void g2_to_uncompressed(const G2Affine& q, uint8_t out[kG2UncompressedBytes]);
Decoded<G1Affine> g1_from_uncompressed(const uint8_t in[kG1UncompressedBytes]);
Decoded<G2Affine> g2_from_uncompressed(const uint8_t in[kG2UncompressedBytes],
                                       G2Check check = G2Check::kSubgroup);

// ---- compressed (gnark-crypto flags) ------------------------------------------------------
void g1_to_compressed(const G1Affine& p, uint8_t out[kG1CompressedBytes]);
void g2_to_compressed(const G2Affine& q, uint8_t out[kG2CompressedBytes]);
Decoded<G1Affine> g1_from_compressed(const uint8_t in[kG1CompressedBytes]);
Decoded<G2Affine> g2_from_compressed(const uint8_t in[kG2CompressedBytes],
                                     G2Check check = G2Check::kSubgroup);

// ---- batches of compressed points (keys) ---------------------------------------------------
// in holds out.size() consecutive encodings. Each point costs a square root (and for G2 a
// subgroup check), so the work is spread over pool when one is given. On failure ok is false,
// index is the first bad point and error says why; out is then unspecified.
struct BatchDecodeStatus {
  bool ok = true;
  size_t index = 0;
  std::string error;
};
BatchDecodeStatus g1_from_compressed_batch(std::span<const uint8_t> in, std::span<G1Affine> out,
                                           ThreadPool* pool = nullptr);
BatchDecodeStatus g2_from_compressed_batch(std::span<const uint8_t> in, std::span<G2Affine> out,
                                           G2Check check = G2Check::kSubgroup,
                                           ThreadPool* pool = nullptr);

namespace encoding_detail {
// Square roots used by decompression (exposed for tests): a^((p+1)/4) with fixed 4-bit windows,
// and the "complex method" in Fp2 (two Fp exponentiations instead of two in Fp2: with
// n = a0^2 + a1^2 and s = sqrt(n), one of (a0 +- s)/2 is a square x0^2, and x1 = a1 / (2 x0)).
// Both return nullopt when a is not a square.
std::optional<Fp> sqrt_fp(const Fp& a);
std::optional<Fp2> sqrt_fp2(const Fp2& a);
// The same in steps around their exponentiations by (p - 3) / 4, which a batch makes together:
//   Fp:  t = a^((p-3)/4), then sqrt_fp_finish(a, t);
//   Fp2: t1 = sqrt_fp2_first_base(a)^((p-3)/4), delta = sqrt_fp2_second_base(a, t1),
//        t2 = delta^((p-3)/4), then sqrt_fp2_finish(a, t1, delta, t2).
std::optional<Fp> sqrt_fp_finish(const Fp& a, const Fp& t);
Fp sqrt_fp2_first_base(const Fp2& a);
Fp sqrt_fp2_second_base(const Fp2& a, const Fp& t1);
std::optional<Fp2> sqrt_fp2_finish(const Fp2& a, const Fp& t1, const Fp& delta, const Fp& t2);
// x[i] = x[i]^e for i < n (e public): on the f64 lanes where they run (the WebAssembly module
// built with relaxed SIMD), else one by one with fixed 4-bit windows.
void fp_pow_many(Fp* x, size_t n, const U256& e);
// The f64 lanes' version, four at a time (core/curve/point_encoding_f64.cpp; natively its C++
// model, for the tests).
void fp_pow_many_f64(Fp* x, size_t n, const U256& e);
}  // namespace encoding_detail

}  // namespace enygma
