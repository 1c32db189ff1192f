#include "core/groth16/key_format.hpp"

#include <sodium.h>

#include <bit>
#include <cstring>
#include <memory>
#include <optional>

#include "core/groth16/point_codec.hpp"
#include "core/groth16/verifier.hpp"
#include "core/poly/evaluation_domain.hpp"
#include "core/util/bytes.hpp"

namespace enygma {

static_assert(sizeof(G1Affine) == 64 && sizeof(G2Affine) == 128, "packed point layout");

namespace {

constexpr char kMagicPk[8] = {'E', 'N', 'Y', 'G', 'M', 'A', 'P', 'K'};
constexpr char kMagicVk[8] = {'E', 'N', 'Y', 'G', 'M', 'A', 'V', 'K'};
constexpr uint32_t kFlagInsecure = 1, kFlagCompressed = 2, kFlagShape = 4;

Error key_error(const std::string& what) {
  return make_error(what, "key");
}

// The file digest covers the header up to the digest field (offset 104) and the body, so a
// flipped bit anywhere is caught, including the flags (a development key must not pass for a
// production one) and the circuit digest.
constexpr size_t kDigestOffset = 104;

std::array<uint8_t, 32> file_digest(std::span<const uint8_t> header_before_digest,
                                    std::span<const uint8_t> body) {
  crypto_generichash_state state;
  crypto_generichash_init(&state, nullptr, 0, 32);
  crypto_generichash_update(&state, header_before_digest.data(), header_before_digest.size());
  crypto_generichash_update(&state, body.data(), body.size());
  std::array<uint8_t, 32> out;
  crypto_generichash_final(&state, out.data(), out.size());
  return out;
}

std::vector<uint8_t> wrap(KeyKind kind, bool insecure, PointFormat format,
                          const std::string& circuit_name,
                          const std::array<uint8_t, 32>& circuit_digest,
                          const std::vector<uint8_t>& body, bool shape = false) {
  ByteWriter w;
  w.bytes(kind == KeyKind::kProving ? kMagicPk : kMagicVk, 8);
  w.u32(kKeyFormatVersion);
  w.u32((insecure ? kFlagInsecure : 0) |
        (format == PointFormat::kCompressed ? kFlagCompressed : 0) | (shape ? kFlagShape : 0));
  w.text("bn254", 16);
  w.text(circuit_name, 32);
  w.bytes(circuit_digest.data(), 32);
  w.u64(body.size());
  auto digest = file_digest(w.data(), body);
  w.bytes(digest.data(), 32);
  w.bytes(body.data(), body.size());
  return w.take();
}

// Zero bytes up to the next multiple of 8 of the body's position (the body starts at offset
// 136, a multiple of 8): what follows is aligned for in-place reads of 64-bit limbs.
void pad8(ByteWriter& w) {
  static const uint8_t zeros[8] = {};
  if (const size_t rem = w.data().size() % 8) w.bytes(zeros, 8 - rem);
}

bool skip_pad8(ByteReader& r) {
  const size_t rem = r.position() % 8;
  if (rem == 0) return true;
  uint8_t pad[8] = {};
  if (!r.bytes(pad, 8 - rem)) return false;
  for (size_t i = 0; i < 8 - rem; ++i) {
    if (pad[i] != 0) return false;
  }
  return true;
}

static_assert(std::endian::native == std::endian::little,
              "word arrays are stored as the host's 32-bit words");

void put_words(ByteWriter& w, const SharedArray<uint32_t>& v) {
  if (!v.empty()) w.bytes(v.data(), v.size() * sizeof(uint32_t));
}

// count 32-bit words (or Fr elements: T), read in place when `owner` keeps the bytes alive.
template <class T>
bool get_array(ByteReader& r, SharedArray<T>& v, uint64_t count,
               const std::shared_ptr<const void>& owner) {
  // (64-bit count: a file's u32 count + 1 must not wrap in a 32-bit size_t, the module's.)
  std::span<const uint8_t> raw;
  if (count > r.remaining() / sizeof(T) || !r.view(raw, size_t(count) * sizeof(T))) return false;
  v = SharedArray<T>::of_bytes(raw.data(), size_t(count), owner);
  return true;
}

template <class Q>
void put_query(ByteWriter& w, const Q& q, const PointCodec& codec) {
  w.u32(uint32_t(q.size()));
  put_words(w, q.wires);
  pad8(w);
  codec.write(w, q.points);
}

template <class Q>
bool get_query(ByteReader& r, Q& q, const PointCodec& codec, uint32_t num_wires,
               const std::shared_ptr<const void>& owner) {
  uint32_t count;
  if (!r.u32(count)) return false;
  using Affine = std::remove_cvref_t<decltype(q.points[0])>;
  if (uint64_t(count) * (4 + codec.size_of<Affine>()) > r.remaining()) return false;
  if (!get_array(r, q.wires, count, owner)) return false;
  for (uint32_t wire : q.wires) {
    if (wire >= num_wires) return false;
  }
  return skip_pad8(r) && codec.read(r, q.points, count);
}

void put_shape(ByteWriter& w, const ConstraintShape& s) {
  w.u32(uint32_t(s.num_constraints()));
  w.u32(uint32_t(s.coefficients.size()));
  if (!s.coefficients.empty()) w.bytes(s.coefficients.data(), s.coefficients.size() * sizeof(Fr));
  for (const ConstraintShape::Matrix* m : {&s.a, &s.b, &s.c}) {
    w.u32(uint32_t(m->wire.size()));
    put_words(w, m->row_start);
    put_words(w, m->wire);
    put_words(w, m->coeff);
  }
}

// Sizes against what is left, coefficients canonical, then ConstraintShape::check().
bool get_shape(ByteReader& r, ConstraintShape& s, std::string& error,
               const std::shared_ptr<const void>& owner) {
  uint32_t rows = 0, table = 0;
  if (!r.u32(rows) || !r.u32(table) || !get_array(r, s.coefficients, table, owner)) return false;
  for (const Fr& x : s.coefficients) {
    if (cmp(x.montgomery(), Fr::kModulus) >= 0) {
      error = "a shape coefficient is not below r";
      return false;
    }
  }
  for (ConstraintShape::Matrix* m : {&s.a, &s.b, &s.c}) {
    uint32_t terms = 0;
    if (!r.u32(terms) || !get_array(r, m->row_start, uint64_t(rows) + 1, owner) ||
        !get_array(r, m->wire, terms, owner) || !get_array(r, m->coeff, terms, owner)) {
      return false;
    }
  }
  error = s.check();
  return error.empty();
}

}  // namespace

std::vector<uint8_t> serialize_proving_key(const ProvingKey& pk, const std::string& circuit_name,
                                           PointFormat format, const ConstraintShape* shape) {
  const PointCodec codec(format);
  ByteWriter w;
  w.u32(pk.num_wires);
  w.u32(pk.num_public);
  w.u32(pk.domain_size);
  pad8(w);
  codec.write_one(w, pk.alpha1);
  codec.write_one(w, pk.beta1);
  codec.write_one(w, pk.delta1);
  codec.write_one(w, pk.beta2);
  codec.write_one(w, pk.delta2);
  put_query(w, pk.a, codec);
  put_query(w, pk.b1, codec);
  put_query(w, pk.b2, codec);
  put_query(w, pk.c, codec);
  w.u32(uint32_t(pk.h.size()));
  pad8(w);
  codec.write(w, pk.h);
  if (!shape) shape = pk.shape.get();
  const bool with_shape = shape && format == PointFormat::kRaw;
  if (with_shape) put_shape(w, *shape);
  return wrap(KeyKind::kProving, pk.insecure_dev, format, circuit_name, pk.circuit_digest, w.data(),
              with_shape);
}

std::vector<uint8_t> serialize_verifying_key(const VerifyingKey& vk,
                                             const std::string& circuit_name, PointFormat format) {
  const PointCodec codec(format);
  ByteWriter w;
  w.u32(vk.num_public);
  codec.write_one(w, vk.alpha1);
  codec.write_one(w, vk.beta2);
  codec.write_one(w, vk.gamma2);
  codec.write_one(w, vk.delta2);
  w.u32(uint32_t(vk.ic.size()));
  codec.write(w, vk.ic);
  return wrap(KeyKind::kVerifying, vk.insecure_dev, format, circuit_name, vk.circuit_digest,
              w.data());
}

bool is_key_circuit_name(std::string_view name) {
  for (const char c : name) {
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!letter && !(c >= '0' && c <= '9') && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

Result<KeyFileHeader> read_key_header(std::span<const uint8_t> file) {
  if (file.size() < kKeyHeaderSize) {
    return key_error("not a key file: " + std::to_string(file.size()) +
                     " bytes is shorter than the " + std::to_string(kKeyHeaderSize) +
                     "-byte header (truncated?)");
  }
  ByteReader r(file);
  KeyFileHeader h;
  char magic[8];
  uint32_t flags = 0;  // g++ -O1 -fsanitize=thread: -Wmaybe-uninitialized otherwise
  r.bytes(magic, 8);
  if (!memcmp(magic, kMagicPk, 8)) {
    h.kind = KeyKind::kProving;
  } else if (!memcmp(magic, kMagicVk, 8)) {
    h.kind = KeyKind::kVerifying;
  } else {
    return key_error("not an enygma key file (bad magic bytes)");
  }
  r.u32(h.version);
  r.u32(flags);
  h.insecure_dev = flags & kFlagInsecure;
  h.compressed = flags & kFlagCompressed;
  r.text(h.curve, 16);
  r.text(h.circuit_name, 32);
  r.bytes(h.circuit_digest.data(), 32);
  r.u64(h.body_length);
  r.bytes(h.body_digest.data(), 32);
  if (h.version != kKeyFormatVersion) {
    return key_error("unsupported key format version " + std::to_string(h.version) +
                     " (this build reads version " + std::to_string(kKeyFormatVersion) + ")");
  }
  if (h.curve != "bn254") return key_error("key is for curve '" + h.curve + "', not bn254");
  // The name goes into messages, file names and generated source (export-solidity): a circuit
  // id's characters only, never a quote, a newline or a comment's end.
  if (!is_key_circuit_name(h.circuit_name)) {
    return key_error(
        "the key's circuit name has a character other than a letter, a digit, '.', '_' or '-'");
  }
  if ((flags & ~(kFlagInsecure | kFlagCompressed | kFlagShape)) != 0) {
    return key_error("unknown key flags");
  }
  h.shape = (flags & kFlagShape) != 0;
  if (h.shape && h.kind != KeyKind::kProving) return key_error("a verifying key with a shape flag");
  return h;
}

namespace {

Error corrupt(KeyKind kind) {
  return key_error(std::string(kind == KeyKind::kProving ? "proving" : "verifying") +
                   " key is corrupt: its BLAKE2b-256 digest does not match");
}

bool digest_matches(std::span<const uint8_t> file, const KeyFileHeader& h) {
  return file_digest(file.first(kDigestOffset), file.subspan(kKeyHeaderSize)) == h.body_digest;
}

// Header, length and circuit name, without the digest; returns the body.
Result<std::span<const uint8_t>> checked_header(std::span<const uint8_t> file, KeyKind kind,
                                                const std::string& expected_name,
                                                KeyFileHeader& h) {
  auto hr = read_key_header(file);
  if (!hr) return hr.error();
  h = *hr;
  const char* what = kind == KeyKind::kProving ? "proving" : "verifying";
  if (h.kind != kind) {
    return key_error(std::string("expected a ") + what + " key, found a " +
                     (h.kind == KeyKind::kProving ? "proving" : "verifying") + " key");
  }
  if (!expected_name.empty() && h.circuit_name != expected_name) {
    return key_error(std::string("this ") + what + " key is for circuit '" + h.circuit_name +
                     "', expected '" + expected_name + "'");
  }
  const size_t have = file.size() - kKeyHeaderSize;
  if (h.body_length != have) {
    return key_error(std::string(what) + " key body is " + std::to_string(have) +
                     " bytes, the header says " + std::to_string(h.body_length) +
                     (have < h.body_length ? " (truncated file)" : " (trailing bytes)"));
  }
  return file.subspan(kKeyHeaderSize);
}

// Header, length, digest and circuit name; returns the body.
Result<std::span<const uint8_t>> checked_body(std::span<const uint8_t> file, KeyKind kind,
                                              const std::string& expected_name, KeyFileHeader& h) {
  auto body = checked_header(file, kind, expected_name, h);
  if (!body) return body.error();
  if (!digest_matches(file, h)) return corrupt(kind);
  return body;
}

}  // namespace

namespace {

// owner: keeps `body` alive; a raw body's arrays are then read in place (none is copied).
Result<ProvingKey> parse_proving_key(std::span<const uint8_t> body, const KeyFileHeader& h,
                                     ThreadPool& pool, std::shared_ptr<const void> owner) {
  if (h.compressed) owner = nullptr;  // decoded points, and no compressed file kept for its wires
  const PointCodec codec(h.compressed ? PointFormat::kCompressed : PointFormat::kRaw, &pool, owner);
  ByteReader r(body);
  ProvingKey pk;
  pk.circuit_digest = h.circuit_digest;
  pk.insecure_dev = h.insecure_dev;
  bool ok = r.u32(pk.num_wires) && r.u32(pk.num_public) && r.u32(pk.domain_size) &&
            EvaluationDomain::valid_size(pk.domain_size) && pk.num_public < pk.num_wires &&
            skip_pad8(r) && codec.read_one(r, pk.alpha1) && codec.read_one(r, pk.beta1) &&
            codec.read_one(r, pk.delta1) && codec.read_one(r, pk.beta2) &&
            codec.read_one(r, pk.delta2) && get_query(r, pk.a, codec, pk.num_wires, owner) &&
            get_query(r, pk.b1, codec, pk.num_wires, owner) &&
            get_query(r, pk.b2, codec, pk.num_wires, owner) &&
            get_query(r, pk.c, codec, pk.num_wires, owner) &&
            pk.b2.wires == pk.b1.wires;  // the prover gathers one scalar vector for both
  uint32_t hn = 0;
  ok = ok && r.u32(hn) && hn == pk.domain_size && skip_pad8(r) && codec.read(r, pk.h, hn);
  std::string shape_error;
  if (ok && h.shape) {
    auto shape = std::make_shared<ConstraintShape>();
    shape->num_wires = pk.num_wires;
    shape->num_public = pk.num_public;
    ok = get_shape(r, *shape, shape_error, owner) &&
         uint64_t(shape->num_constraints()) + pk.num_public + 1 <= pk.domain_size;
    if (ok) pk.shape = std::move(shape);
  }
  ok = ok && r.remaining() == 0;
  if (!ok) {
    if (!shape_error.empty()) return key_error("proving key's constraint shape: " + shape_error);
    return key_error("proving key body is malformed" + codec.last_error_suffix());
  }
  return pk;
}

}  // namespace

Result<ProvingKey> load_proving_key(std::span<const uint8_t> file,
                                    const std::string& expected_circuit_name, ThreadPool& pool,
                                    std::shared_ptr<const void> file_owner) {
  KeyFileHeader h;
  auto body = checked_header(file, KeyKind::kProving, expected_circuit_name, h);
  if (!body) return body.error();
  if (h.compressed || pool.size() < 2) {
    // (Compressed: the decoding is the long part and uses the pool itself.)
    if (!digest_matches(file, h)) return corrupt(KeyKind::kProving);
    return parse_proving_key(*body, h, pool, std::move(file_owner));
  }
  // Raw: the digest (a ~10 MB BLAKE2b) beside the parse (range checks, and copies unless the
  // file's owner is given; safe on any bytes); nothing parsed is returned unless the digest
  // matches, and a corrupt file is reported as such whatever the parse found.
  bool digest_ok = false;
  std::optional<Result<ProvingKey>> parsed;
  pool.run_tasks(2, [&](size_t task) {
    if (task == 0) {
      digest_ok = digest_matches(file, h);
    } else {
      parsed = parse_proving_key(*body, h, pool, file_owner);
    }
  });
  if (!digest_ok) return corrupt(KeyKind::kProving);
  return std::move(*parsed);
}

Result<VerifyingKey> load_verifying_key(std::span<const uint8_t> file,
                                        const std::string& expected_circuit_name,
                                        bool check_points) {
  KeyFileHeader h;
  auto body = checked_body(file, KeyKind::kVerifying, expected_circuit_name, h);
  if (!body) return body.error();
  const PointCodec codec(h.compressed ? PointFormat::kCompressed : PointFormat::kRaw);
  ByteReader r(*body);
  VerifyingKey vk;
  vk.circuit_digest = h.circuit_digest;
  vk.insecure_dev = h.insecure_dev;
  uint32_t nic = 0;
  SharedArray<G1Affine> ic;
  bool ok = r.u32(vk.num_public) && codec.read_one(r, vk.alpha1) && codec.read_one(r, vk.beta2) &&
            codec.read_one(r, vk.gamma2) && codec.read_one(r, vk.delta2) && r.u32(nic) &&
            uint64_t(nic) == uint64_t(vk.num_public) + 1 && codec.read(r, ic, nic) &&
            r.remaining() == 0;
  if (!ok) return key_error("verifying key body is malformed" + codec.last_error_suffix());
  vk.ic = ic.to_vector();
  if (check_points) {
    auto valid = validate_verifying_key_points(vk);
    if (!valid) return valid.error();
  }
  return vk;
}

}  // namespace enygma
