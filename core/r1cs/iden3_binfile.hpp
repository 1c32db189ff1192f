// The sectioned binary container of the iden3 tools (circom's .r1cs and .wtns, snarkjs's .zkey
// and .ptau):
//   magic (4 bytes, e.g. "r1cs") | version (u32) | section count (u32) |
//   sections: id (u32) | body length (u64) | body
// All integers little-endian. Field elements are n8 = 32 bytes, little-endian; .r1cs and .wtns
// hold them in standard form, .zkey points in Montgomery form (R = 2^256, the same limbs as
// PrimeField), see core/groth16/zkey_import.hpp.
// Shared by r1cs_file, wtns_file and zkey_import; no I/O (bytes in, bytes out).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/field/prime_field.hpp"
#include "core/util/bytes.hpp"
#include "core/util/result.hpp"

namespace enygma::iden3 {

struct Section {
  uint32_t id = 0;
  std::span<const uint8_t> body;
};

struct BinFile {
  uint32_t version = 0;
  std::vector<Section> sections;
};

// Parses the container: magic, a version in [1, max_version], then every section's bounds
// (a section that runs past the end is an error, and so are bytes after the last section: the
// tools never write them, and a file with a tail is a damaged or concatenated one). `rule` becomes
// the Error's rule ("r1cs", "wtns", "zkey"); messages start with `what` (e.g. "r1cs file").
inline Result<BinFile> parse_bin_file(std::span<const uint8_t> bytes, const char (&magic)[5],
                                      uint32_t max_version, const std::string& rule,
                                      const std::string& what) {
  ByteReader r(bytes);
  uint8_t m[4];
  uint32_t num_sections = 0;
  BinFile f;
  if (!r.bytes(m, 4) || !r.u32(f.version) || !r.u32(num_sections)) {
    return make_error(what + ": truncated header", rule, "header");
  }
  if (m[0] != uint8_t(magic[0]) || m[1] != uint8_t(magic[1]) || m[2] != uint8_t(magic[2]) ||
      m[3] != uint8_t(magic[3])) {
    return make_error(what + ": wrong magic (expected \"" + std::string(magic) + "\")", rule,
                      "magic");
  }
  if (f.version < 1 || f.version > max_version) {
    return make_error(what + ": unsupported version " + std::to_string(f.version), rule, "version");
  }
  for (uint32_t i = 0; i < num_sections; ++i) {
    Section s;
    uint64_t length = 0;
    if (!r.u32(s.id) || !r.u64(length)) {
      return make_error(what + ": truncated section table", rule, "sections");
    }
    if (length > r.remaining() || !r.view(s.body, size_t(length))) {
      return make_error(what + ": section " + std::to_string(s.id) + " runs past the end", rule,
                        "section " + std::to_string(s.id));
    }
    f.sections.push_back(s);
  }
  if (r.remaining() != 0) {
    return make_error(what + ": " + std::to_string(r.remaining()) +
                          " bytes after the last section (" + std::to_string(num_sections) +
                          " announced)",
                      rule, "sections");
  }
  return f;
}

// The body of the one section with this id: missing or duplicated is an error.
inline Result<std::span<const uint8_t>> unique_section(const BinFile& f, uint32_t id,
                                                       const std::string& rule,
                                                       const std::string& what) {
  const Section* found = nullptr;
  for (const auto& s : f.sections) {
    if (s.id != id) continue;
    if (found) {
      return make_error(what + ": section " + std::to_string(id) + " appears twice", rule,
                        "section " + std::to_string(id));
    }
    found = &s;
  }
  if (!found) {
    return make_error(what + ": section " + std::to_string(id) + " is missing", rule,
                      "section " + std::to_string(id));
  }
  return found->body;
}

inline bool has_section(const BinFile& f, uint32_t id) {
  for (const auto& s : f.sections) {
    if (s.id == id) return true;
  }
  return false;
}

// Builds a container; each section's length is patched in when it ends.
class BinWriter {
 public:
  BinWriter(const char (&magic)[5], uint32_t version, uint32_t num_sections) {
    w_.bytes(magic, 4);
    w_.u32(version);
    w_.u32(num_sections);
  }
  void begin_section(uint32_t id) {
    w_.u32(id);
    length_at_ = w_.size();
    w_.u64(0);
  }
  void end_section() {
    uint64_t length = w_.size() - length_at_ - 8;
    for (int i = 0; i < 8; ++i) w_.data()[length_at_ + i] = uint8_t(length >> (8 * i));
  }
  ByteWriter& out() { return w_; }
  std::vector<uint8_t> take() { return w_.take(); }

 private:
  ByteWriter w_;
  size_t length_at_ = 0;
};

// A field element in standard form, 32 bytes little-endian.
template <class F>
void write_le(ByteWriter& w, const F& x) {
  uint8_t b[32];
  u256_to_le_bytes(x.to_u256(), b);
  w.bytes(b, 32);
}

// 32 little-endian bytes as a U256 (no range check).
inline bool read_u256_le(ByteReader& r, U256& out) {
  uint8_t b[32];
  if (!r.bytes(b, 32)) return false;
  out = u256_from_le_bytes(b);
  return true;
}

// The header's prime, 32 bytes little-endian, must be F's modulus.
template <class F>
bool prime_is(const U256& prime) {
  return prime == F::kModulus;
}

}  // namespace enygma::iden3
