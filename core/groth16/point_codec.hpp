// How key files store points: raw Montgomery limbs (fast load) or compressed encodings
// (half the bytes, one square root per point to decode). Used by key_format.cpp only.
#pragma once

#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/curve/point_encoding.hpp"
#include "core/groth16/key_format.hpp"
#include "core/util/bytes.hpp"
#include "core/util/shared_array.hpp"

namespace enygma {

class PointCodec {
 public:
  // owner: keeps the bytes being read alive (a key file's buffer); raw points are then read in
  // place (SharedArray borrows them) instead of copied.
  explicit PointCodec(PointFormat format, ThreadPool* pool = nullptr,
                      std::shared_ptr<const void> owner = nullptr)
      : format_(format), pool_(pool), owner_(std::move(owner)) {}

  template <class Affine>
  size_t size_of() const {
    if (format_ == PointFormat::kRaw) return sizeof(Affine);
    return sizeof(Affine) / 2;
  }

  void write_one(ByteWriter& w, const G1Affine& p) const { write(w, std::vector<G1Affine>{p}); }
  void write_one(ByteWriter& w, const G2Affine& p) const { write(w, std::vector<G2Affine>{p}); }

  template <class Affine>
  void write(ByteWriter& w, std::span<const Affine> points) const {
    if (format_ == PointFormat::kRaw) {
      if (!points.empty()) w.bytes(points.data(), points.size() * sizeof(Affine));
      return;
    }
    const size_t sz = size_of<Affine>();
    uint8_t buf[sizeof(Affine) / 2];
    for (const auto& p : points) {
      if constexpr (std::is_same_v<Affine, G1Affine>) {
        g1_to_compressed(p, buf);
      } else {
        g2_to_compressed(p, buf);
      }
      w.bytes(buf, sz);
    }
  }
  template <class Affine>
  void write(ByteWriter& w, const std::vector<Affine>& points) const {
    write(w, std::span<const Affine>(points));
  }
  template <class Affine>
  void write(ByteWriter& w, const SharedArray<Affine>& points) const {
    write(w, std::span<const Affine>(points.data(), points.size()));
  }

  template <class Affine>
  bool read_one(ByteReader& r, Affine& p) const {
    SharedArray<Affine> v;
    if (!read(r, v, 1)) return false;
    p = v[0];
    return true;
  }

  template <class Affine>
  bool read(ByteReader& r, SharedArray<Affine>& points, size_t count) const {
    const size_t sz = size_of<Affine>();
    std::span<const uint8_t> raw;
    if (count > r.remaining() / sz || !r.view(raw, count * sz)) return fail("truncated points");
    if (format_ == PointFormat::kRaw) {
      // In place when the bytes' owner is known (and they are aligned), otherwise copied.
      points = SharedArray<Affine>::of_bytes(raw.data(), count, owner_);
      // Montgomery limbs must be reduced, or arithmetic on them would be wrong.
      for (const auto& p : points) {
        if (!limbs_canonical(p)) return fail("a coordinate is not below p");
      }
      return true;
    }
    // Compressed: the digest vouches for the bytes, so decompression skips the G2 subgroup
    // check (a trusted-source decode); it still rejects encodings that are not points.
    std::vector<Affine> decoded(count);
    BatchDecodeStatus st;
    if constexpr (std::is_same_v<Affine, G1Affine>) {
      st = g1_from_compressed_batch(raw, decoded, pool_);
    } else {
      st = g2_from_compressed_batch(raw, decoded, G2Check::kSkipSubgroupTrustedSource, pool_);
    }
    if (!st.ok) {
      error_ = "point " + std::to_string(st.index) + ": " + st.error;
      return false;
    }
    points = std::move(decoded);
    return true;
  }

  std::string last_error_suffix() const { return error_.empty() ? "" : " (" + error_ + ")"; }

 private:
  static bool fp_canonical(const Fp& x) {
    return cmp(U256{{x.limbs[0], x.limbs[1], x.limbs[2], x.limbs[3]}}, Fp::kModulus) < 0;
  }
  static bool limbs_canonical(const G1Affine& p) { return fp_canonical(p.x) && fp_canonical(p.y); }
  static bool limbs_canonical(const G2Affine& p) {
    return fp_canonical(p.x.c0) && fp_canonical(p.x.c1) && fp_canonical(p.y.c0) &&
           fp_canonical(p.y.c1);
  }
  bool fail(const char* what) const {
    error_ = what;
    return false;
  }

  PointFormat format_;
  ThreadPool* pool_;
  std::shared_ptr<const void> owner_;
  mutable std::string error_;
};

}  // namespace enygma
