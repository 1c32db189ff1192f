// Binary key files for Groth16 proving and verifying keys.
//
// Layout (all integers little-endian):
//   offset  size  field
//   0       8     magic "ENYGMAPK" (proving key) or "ENYGMAVK" (verifying key)
//   8       4     format version (kKeyFormatVersion below)
//   12      4     flags: bit 0 = insecure development key (seeded setup), bit 1 = compressed,
//                 bit 2 = the proving key's body ends with the constraint shape
//   16      16    curve name, zero padded ("bn254")
//   32      32    circuit name, zero padded (e.g. "enygma-transfer-k6")
//   64      32    circuit digest (R1cs::digest of the circuit the key was made for)
//   96      8     body length in bytes
//   104     32    BLAKE2b-256 of bytes 0..103 followed by the body (libsodium
//                 crypto_generichash), checked on load: every header field is covered too
//   136     ...   body
// Raw bodies store field elements as their Montgomery limbs (four little-endian 64-bit words,
// R = 2^256), the in-memory form on every target, so loading is one read, one hash and range
// checks (limbs below p), the arrays used where they lie or copied: no per-point conversion or
// curve check (the digest vouches for the bytes).
//
// Proving key body: u32 wires, u32 public inputs, u32 domain size n, zeros to a multiple of 8;
// alpha1, beta1, delta1 (G1), beta2, delta2 (G2); the A, B1, B2 and C queries, each u32 count,
// count u32 wires, zeros to a multiple of 8, count points; u32 n, zeros to a multiple of 8, the
// n H points; then the constraint shape (below) when flag bit 2 is set. Offsets are the body's,
// which starts at 136, a multiple of 8. Verifying key body: u32 public inputs, alpha1, beta2,
// gamma2, delta2, u32 public inputs + 1, the IC points. Compressed bodies
// (for the browser download) store points as 32-byte (G1) / 64-byte (G2) compressed encodings
// (core/curve/point_encoding.hpp) and cost a square root per point to decode.
//
// The constraint shape (core/groth16/constraint_shape.hpp), written after the H query of a raw
// proving key whose ProvingKey has one (bit 2): u32 constraints, u32 coefficients and their
// Montgomery limbs, then for A, B and C: u32 terms, u32 row starts (constraints + 1), u32 wires,
// u32 coefficient indices (terms each). The compressed format (the browser's download) leaves it
// out.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/groth16/keys.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/util/result.hpp"

namespace enygma {

enum class KeyKind { kProving, kVerifying };
enum class PointFormat { kRaw, kCompressed };

struct KeyFileHeader {
  KeyKind kind = KeyKind::kProving;
  uint32_t version = 0;
  bool insecure_dev = false;
  bool compressed = false;
  bool shape = false;  // a proving key whose body ends with its constraint shape
  std::string curve;
  std::string circuit_name;
  std::array<uint8_t, 32> circuit_digest{};
  uint64_t body_length = 0;
  std::array<uint8_t, 32> body_digest{};
};

// Version 2: the digest covers the header (version 1 hashed the body only, so a flipped flag,
// e.g. the development-key bit, went unnoticed). Version 3: the proving key's body holds its
// domain's size n (2^k or 3 * 2^k) where version 2 held log2 n. Version 4: zero bytes before
// the proving key's points so that each array of 64-bit limbs starts at a multiple of 8 bytes
// (read in place: load_proving_key's file_owner).
inline constexpr uint32_t kKeyFormatVersion = 4;
inline constexpr size_t kKeyHeaderSize = 136;

// A raw key carries pk.shape, or `shape` where given (a key loaded without one, its shape
// derived from the circuit); a compressed key never does.
std::vector<uint8_t> serialize_proving_key(const ProvingKey& pk, const std::string& circuit_name,
                                           PointFormat format = PointFormat::kRaw,
                                           const ConstraintShape* shape = nullptr);
std::vector<uint8_t> serialize_verifying_key(const VerifyingKey& vk,
                                             const std::string& circuit_name,
                                             PointFormat format = PointFormat::kRaw);

// Header only (no digest check): what a file claims to be, for messages and listings.
Result<KeyFileHeader> read_key_header(std::span<const uint8_t> file);
// A circuit name as key headers hold it: letters, digits, '.', '_' and '-' only (it goes into
// messages, file names and generated source); read_key_header refuses any other.
bool is_key_circuit_name(std::string_view name);

// Full load: header, body length, digest, then the body. Errors (rule "key") say what is wrong:
// truncated, wrong magic or version, digest mismatch ("corrupt"), another circuit's key.
// expected_circuit_name: when non-empty, a key for another circuit is refused.
// pool: parallelises decompression of compressed bodies.
// file_owner: keeps `file`'s bytes alive (and unchanged) for as long as it is held; a raw key's
// arrays (points, wires, constraint shape) are then read in place, the key holding it, instead
// of copied. Without it everything is copied.
Result<ProvingKey> load_proving_key(std::span<const uint8_t> file,
                                    const std::string& expected_circuit_name, ThreadPool& pool,
                                    std::shared_ptr<const void> file_owner = nullptr);
// Verifying keys are small and may come from elsewhere: every point is also checked on the
// curve and in its subgroup, unless check_points is false (a key whose points this build
// checked before and kept: the browser's key cache, CircuitLoadOptions).
Result<VerifyingKey> load_verifying_key(std::span<const uint8_t> file,
                                        const std::string& expected_circuit_name,
                                        bool check_points = true);

}  // namespace enygma
