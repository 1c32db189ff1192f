// How key files store points: raw Montgomery limbs (fast load) or compressed encodings
// (half the bytes, one square root per point to decode). Used by key_format.cpp only.
#pragma once

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "core/curve/g1.hpp"
#include "core/curve/g2.hpp"
#include "core/curve/point_encoding.hpp"
#include "core/groth16/key_format.hpp"
#include "core/util/bytes.hpp"

namespace enygma {

class PointCodec {
 public:
  explicit PointCodec(PointFormat format, ThreadPool* pool = nullptr)
      : format_(format), pool_(pool) {}

  template <class Affine>
  size_t size_of() const {
    if (format_ == PointFormat::kRaw) return sizeof(Affine);
    return sizeof(Affine) / 2;
  }

  void write_one(ByteWriter& w, const G1Affine& p) const { write(w, std::vector<G1Affine>{p}); }
  void write_one(ByteWriter& w, const G2Affine& p) const { write(w, std::vector<G2Affine>{p}); }

  template <class Affine>
  void write(ByteWriter& w, const std::vector<Affine>& points) const {
    if (format_ == PointFormat::kRaw) {
      w.bytes(points.data(), points.size() * sizeof(Affine));
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
  bool read_one(ByteReader& r, Affine& p) const {
    std::vector<Affine> v;
    if (!read(r, v, 1)) return false;
    p = v[0];
    return true;
  }

  template <class Affine>
  bool read(ByteReader& r, std::vector<Affine>& points, size_t count) const {
    const size_t sz = size_of<Affine>();
    std::span<const uint8_t> raw;
    if (count > r.remaining() / sz || !r.view(raw, count * sz)) return fail("truncated points");
    points.resize(count);
    if (format_ == PointFormat::kRaw) {
      // (an empty query has no buffer: memcpy's pointers must not be null even for 0 bytes)
      if (count > 0) memcpy(points.data(), raw.data(), raw.size());
      // Montgomery limbs must be reduced, or arithmetic on them would be wrong.
      for (const auto& p : points) {
        if (!limbs_canonical(p)) return fail("a coordinate is not below p");
      }
      return true;
    }
    // Compressed: the digest vouches for the bytes, so decompression skips the G2 subgroup
    // check (a trusted-source decode); it still rejects encodings that are not points.
    BatchDecodeStatus st;
    if constexpr (std::is_same_v<Affine, G1Affine>) {
      st = g1_from_compressed_batch(raw, points, pool_);
    } else {
      st = g2_from_compressed_batch(raw, points, G2Check::kSkipSubgroupTrustedSource, pool_);
    }
    if (st.ok) return true;
    error_ = "point " + std::to_string(st.index) + ": " + st.error;
    return false;
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
  mutable std::string error_;
};

}  // namespace enygma
