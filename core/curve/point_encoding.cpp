#include "core/curve/point_encoding.hpp"

#include <atomic>
#include <cstring>
#include <limits>

#include "core/curve/g2_subgroup.hpp"
#include "core/curve/halve.hpp"
#include "core/parallel/thread_pool.hpp"

namespace enygma {

namespace {

constexpr uint8_t kFlagMask = 0b11 << 6;
constexpr uint8_t kFlagUncompressed = 0b00 << 6;
constexpr uint8_t kFlagSmallest = 0b10 << 6;
constexpr uint8_t kFlagLargest = 0b11 << 6;
constexpr uint8_t kFlagInfinity = 0b01 << 6;

// (p - 3) / 4: a^((p-3)/4) gives both a square root (a * that) and its inverse (that) when a
// is a nonzero square, because p = 3 mod 4.
constexpr U256 kSqrtExponent = [] {
  U256 e;
  sub_borrow(e, Fp::kModulus, U256::from_u64(3));
  return shr1(shr1(e));
}();

// a^e for a fixed public exponent, 4-bit fixed windows (about 15% fewer multiplications than
// square-and-multiply for a dense 254-bit exponent).
Fp pow_window4(const Fp& a, const U256& e) {
  Fp table[16];
  table[0] = Fp::one();
  table[1] = a;
  for (int i = 2; i < 16; ++i) table[i] = table[i - 1] * a;
  const int windows = int((e.bit_length() + 3) / 4);
  if (windows == 0) return Fp::one();
  Fp r = table[e.bits(unsigned(windows - 1) * 4, 4)];
  for (int w = windows - 2; w >= 0; --w) {
    r = r.square().square().square().square();
    const uint32_t d = e.bits(unsigned(w) * 4, 4);
    if (d != 0) r *= table[d];
  }
  return r;
}

bool all_zero(const uint8_t* p, size_t n) {
  uint8_t acc = 0;
  for (size_t i = 0; i < n; ++i) acc |= p[i];
  return acc == 0;
}

// A coordinate's 32 bytes; `what` names it in the error.
bool read_coordinate(const uint8_t* in, Fp& out, std::string& error, const char* what) {
  auto v = Fp::from_be_bytes(in);
  if (!v) {
    error = std::string(what) + " is not canonical (not less than the field modulus p)";
    return false;
  }
  out = *v;
  return true;
}

G2Affine negate_unless(const G2Affine& q, bool keep) {
  return keep ? q : G2Affine{q.x, -q.y};
}

}  // namespace

namespace encoding_detail {

std::optional<Fp> sqrt_fp(const Fp& a) {
  const Fp x = pow_window4(a, kSqrtExponent) * a;  // a^((p+1)/4)
  if (x.square() != a) return std::nullopt;
  return x;
}

std::optional<Fp2> sqrt_fp2(const Fp2& a) {
  if (a.c1.is_zero()) {
    // a in Fp: sqrt(a0) if a0 is a square, else sqrt(-a0) u (-1 is a non-square as p = 3 mod 4).
    const Fp x = pow_window4(a.c0, kSqrtExponent) * a.c0;
    const Fp x2 = x.square();
    if (x2 == a.c0) return Fp2{x, Fp::zero()};
    if (x2 == -a.c0) return Fp2{Fp::zero(), x};
    return std::nullopt;
  }
  // s = sqrt(n) when n = N(a) is a square (always, if a is a square in Fp2); otherwise s is
  // wrong and the final check rejects.
  const Fp n = a.norm();
  const Fp s = pow_window4(n, kSqrtExponent) * n;
  // delta+ * delta- = (a0^2 - n)/4 = -a1^2/4 is a non-square, so exactly one of the two is a
  // square. With t = delta^((p-3)/4) for delta = delta+:
  //   square:      x0 = t delta (sqrt(delta)), x1 = a1/(2 x0) = a1 t / 2  (as t x0 = 1)
  //   non-square:  t^2 delta = -1, and x0 = -a1 t / 2, x1 = t delta solve x0^2 - x1^2 = a0,
  //                2 x0 x1 = a1 (using delta- = -a1^2 / (4 delta)).
  const Fp delta = halve(a.c0 + s);
  const Fp t = pow_window4(delta, kSqrtExponent);
  const Fp td = t * delta;
  const Fp a1t_half = halve(a.c1 * t);
  Fp2 x;
  if (td * t == Fp::one()) {
    x = {td, a1t_half};
  } else {
    x = {-a1t_half, td};
  }
  if (x.square() != a) return std::nullopt;
  return x;
}

}  // namespace encoding_detail

// ---- uncompressed -------------------------------------------------------------------------

void g1_to_uncompressed(const G1Affine& p, uint8_t out[kG1UncompressedBytes]) {
  // Infinity is (0, 0), which encodes as zero bytes.
  p.x.to_be_bytes(out);
  p.y.to_be_bytes(out + 32);
}

void g2_to_uncompressed(const G2Affine& q, uint8_t out[kG2UncompressedBytes]) {
  q.x.c1.to_be_bytes(out);
  q.x.c0.to_be_bytes(out + 32);
  q.y.c1.to_be_bytes(out + 64);
  q.y.c0.to_be_bytes(out + 96);
}

Decoded<G1Affine> g1_from_uncompressed(const uint8_t in[kG1UncompressedBytes]) {
  Decoded<G1Affine> r;
  G1Affine p;
  if (!read_coordinate(in, p.x, r.error, "G1 x coordinate") ||
      !read_coordinate(in + 32, p.y, r.error, "G1 y coordinate")) {
    return r;
  }
  if (!p.is_on_curve()) {  // (0, 0) is infinity and counts as on the curve
    r.error = "G1 point is not on the curve y^2 = x^3 + 3";
    return r;
  }
  r.point = p;
  return r;
}

Decoded<G2Affine> g2_from_uncompressed(const uint8_t in[kG2UncompressedBytes], G2Check check) {
  Decoded<G2Affine> r;
  G2Affine q;
  if (!read_coordinate(in, q.x.c1, r.error, "G2 x.c1 (imaginary part of x)") ||
      !read_coordinate(in + 32, q.x.c0, r.error, "G2 x.c0 (real part of x)") ||
      !read_coordinate(in + 64, q.y.c1, r.error, "G2 y.c1 (imaginary part of y)") ||
      !read_coordinate(in + 96, q.y.c0, r.error, "G2 y.c0 (real part of y)")) {
    return r;
  }
  if (!q.is_on_curve()) {
    r.error = "G2 point is not on the twist curve y^2 = x^3 + 3/(9+u)";
    return r;
  }
  if (check == G2Check::kSubgroup && !g2_is_in_subgroup(q)) {
    r.error = "G2 point is not in the subgroup of order r";
    return r;
  }
  r.point = q;
  return r;
}

// ---- compressed ---------------------------------------------------------------------------

void g1_to_compressed(const G1Affine& p, uint8_t out[kG1CompressedBytes]) {
  if (p.is_infinity()) {
    std::memset(out, 0, kG1CompressedBytes);
    out[0] = kFlagInfinity;
    return;
  }
  p.x.to_be_bytes(out);
  out[0] |= p.y.is_lexicographically_largest() ? kFlagLargest : kFlagSmallest;
}

void g2_to_compressed(const G2Affine& q, uint8_t out[kG2CompressedBytes]) {
  if (q.is_infinity()) {
    std::memset(out, 0, kG2CompressedBytes);
    out[0] = kFlagInfinity;
    return;
  }
  q.x.c1.to_be_bytes(out);
  q.x.c0.to_be_bytes(out + 32);
  out[0] |= q.y.is_lexicographically_largest() ? kFlagLargest : kFlagSmallest;
}

namespace {

// The flag byte of a compressed encoding; false with an error for 0b00 or a malformed infinity.
// Sets infinity when the encoding is the point at infinity.
bool read_flag(const uint8_t* in, size_t size, const char* group, uint8_t& flag, bool& infinity,
               std::string& error) {
  flag = in[0] & kFlagMask;
  infinity = false;
  if (flag == kFlagUncompressed) {
    error = std::string("compressed ") + group +
            ": flag bits 0b00 mark the uncompressed form (expected 0b10, 0b11 or 0b01)";
    return false;
  }
  if (flag == kFlagInfinity) {
    if ((in[0] & ~kFlagMask) != 0 || !all_zero(in + 1, size - 1)) {
      error = std::string("compressed ") + group + ": infinity flag with nonzero bits";
      return false;
    }
    infinity = true;
  }
  return true;
}

}  // namespace

Decoded<G1Affine> g1_from_compressed(const uint8_t in[kG1CompressedBytes]) {
  Decoded<G1Affine> r;
  uint8_t flag;
  bool infinity;
  if (!read_flag(in, kG1CompressedBytes, "G1", flag, infinity, r.error)) return r;
  if (infinity) {
    r.point = G1Affine::infinity();
    return r;
  }
  uint8_t buf[32];
  std::memcpy(buf, in, 32);
  buf[0] &= uint8_t(~kFlagMask);
  Fp x;
  if (!read_coordinate(buf, x, r.error, "compressed G1: x")) return r;
  auto y = encoding_detail::sqrt_fp(x.square() * x + G1Params::b());
  if (!y) {
    r.error = "compressed G1: x^3 + 3 is not a square (no curve point has this x)";
    return r;
  }
  const bool want_largest = flag == kFlagLargest;
  r.point = G1Affine{x, y->is_lexicographically_largest() == want_largest ? *y : -*y};
  return r;
}

Decoded<G2Affine> g2_from_compressed(const uint8_t in[kG2CompressedBytes], G2Check check) {
  Decoded<G2Affine> r;
  uint8_t flag;
  bool infinity;
  if (!read_flag(in, kG2CompressedBytes, "G2", flag, infinity, r.error)) return r;
  if (infinity) {
    r.point = G2Affine::infinity();
    return r;
  }
  uint8_t buf[32];
  std::memcpy(buf, in, 32);
  buf[0] &= uint8_t(~kFlagMask);
  Fp2 x;
  if (!read_coordinate(buf, x.c1, r.error, "compressed G2: x.c1 (imaginary part of x)") ||
      !read_coordinate(in + 32, x.c0, r.error, "compressed G2: x.c0 (real part of x)")) {
    return r;
  }
  auto y = encoding_detail::sqrt_fp2(x.square() * x + G2Params::b());
  if (!y) {
    r.error = "compressed G2: x^3 + b' is not a square in Fp2 (no twist point has this x)";
    return r;
  }
  const bool want_largest = flag == kFlagLargest;
  const G2Affine q = negate_unless({x, *y}, y->is_lexicographically_largest() == want_largest);
  if (check == G2Check::kSubgroup && !g2_is_in_subgroup(q)) {
    r.error = "compressed G2: point is not in the subgroup of order r";
    return r;
  }
  r.point = q;
  return r;
}

// ---- batches ------------------------------------------------------------------------------

namespace {

template <class Point, size_t kSize, class DecodeOne>
BatchDecodeStatus decode_batch(std::span<const uint8_t> in, std::span<Point> out, ThreadPool* pool,
                               const DecodeOne& decode_one) {
  BatchDecodeStatus status;
  if (in.size() != out.size() * kSize) {
    status.ok = false;
    status.index = 0;
    status.error = "batch: input has " + std::to_string(in.size()) + " bytes, expected " +
                   std::to_string(out.size()) + " x " + std::to_string(kSize);
    return status;
  }
  constexpr size_t kNone = std::numeric_limits<size_t>::max();
  std::atomic<size_t> first_bad{kNone};
  auto work = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      Decoded<Point> d = decode_one(in.data() + i * kSize);
      if (d.ok()) {
        out[i] = *d.point;
        continue;
      }
      size_t cur = first_bad.load(std::memory_order_relaxed);
      while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {
      }
      return;  // this chunk is done; other chunks may still report an earlier index
    }
  };
  if (pool != nullptr) {
    pool->parallel_for(out.size(), work, 16);
  } else {
    work(0, out.size());
  }
  const size_t bad = first_bad.load();
  if (bad != kNone) {
    status.ok = false;
    status.index = bad;
    status.error =
        "point " + std::to_string(bad) + ": " + decode_one(in.data() + bad * kSize).error;
  }
  return status;
}

}  // namespace

BatchDecodeStatus g1_from_compressed_batch(std::span<const uint8_t> in, std::span<G1Affine> out,
                                           ThreadPool* pool) {
  return decode_batch<G1Affine, kG1CompressedBytes>(
      in, out, pool, [](const uint8_t* p) { return g1_from_compressed(p); });
}

BatchDecodeStatus g2_from_compressed_batch(std::span<const uint8_t> in, std::span<G2Affine> out,
                                           G2Check check, ThreadPool* pool) {
  return decode_batch<G2Affine, kG2CompressedBytes>(
      in, out, pool, [check](const uint8_t* p) { return g2_from_compressed(p, check); });
}

}  // namespace enygma
