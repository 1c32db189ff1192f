#include "core/curve/point_encoding.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>

#include "core/curve/g2_subgroup.hpp"
#include "core/curve/halve.hpp"
#include "core/field/kernels.hpp"
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

void fp_pow_many(Fp* x, size_t n, const U256& e) {
#if defined(ENYGMA_HAVE_F64_LANES)
  if (kernels::batch_lanes_enabled()) return fp_pow_many_f64(x, n, e);
#endif
  for (size_t i = 0; i < n; ++i) x[i] = pow_window4(x[i], e);
}

std::optional<Fp> sqrt_fp_finish(const Fp& a, const Fp& t) {
  const Fp x = t * a;  // a^((p+1)/4)
  if (x.square() != a) return std::nullopt;
  return x;
}

std::optional<Fp> sqrt_fp(const Fp& a) {
  return sqrt_fp_finish(a, pow_window4(a, kSqrtExponent));
}

// a in Fp (a1 = 0): sqrt(a0) if a0 is a square, else sqrt(-a0) u (-1 is a non-square as
// p = 3 mod 4), both from t1 = a0^((p-3)/4). Otherwise s = sqrt(n) = t1 n when n = N(a) is a
// square (always, if a is a square in Fp2; otherwise s is wrong and the final check rejects).
// delta+ * delta- = (a0^2 - n)/4 = -a1^2/4 is a non-square, so exactly one of the two is a
// square. With t2 = delta^((p-3)/4) for delta = delta+:
//   square:      x0 = t2 delta (sqrt(delta)), x1 = a1/(2 x0) = a1 t2 / 2  (as t2 x0 = 1)
//   non-square:  t2^2 delta = -1, and x0 = -a1 t2 / 2, x1 = t2 delta solve x0^2 - x1^2 = a0,
//                2 x0 x1 = a1 (using delta- = -a1^2 / (4 delta)).
Fp sqrt_fp2_first_base(const Fp2& a) {
  return a.c1.is_zero() ? a.c0 : a.norm();
}

Fp sqrt_fp2_second_base(const Fp2& a, const Fp& t1) {
  if (a.c1.is_zero()) return Fp::one();  // no second exponentiation needed
  return halve(a.c0 + t1 * a.norm());
}

std::optional<Fp2> sqrt_fp2_finish(const Fp2& a, const Fp& t1, const Fp& delta, const Fp& t2) {
  if (a.c1.is_zero()) {
    const Fp x = t1 * a.c0;
    const Fp x2 = x.square();
    if (x2 == a.c0) return Fp2{x, Fp::zero()};
    if (x2 == -a.c0) return Fp2{Fp::zero(), x};
    return std::nullopt;
  }
  const Fp td = t2 * delta;
  const Fp a1t_half = halve(a.c1 * t2);
  Fp2 x;
  if (td * t2 == Fp::one()) {
    x = {td, a1t_half};
  } else {
    x = {-a1t_half, td};
  }
  if (x.square() != a) return std::nullopt;
  return x;
}

std::optional<Fp2> sqrt_fp2(const Fp2& a) {
  const Fp t1 = pow_window4(sqrt_fp2_first_base(a), kSqrtExponent);
  const Fp delta = sqrt_fp2_second_base(a, t1);
  const Fp t2 = a.c1.is_zero() ? Fp::one() : pow_window4(delta, kSqrtExponent);
  return sqrt_fp2_finish(a, t1, delta, t2);
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

// A compressed point before its square root: the point at infinity, or x, the right-hand
// side of the curve equation and which root to take. unroot_g1 and unroot_g2 read one, false
// with an error when the bytes are not an encoding.
template <class F>
struct Unrooted {
  bool infinity = false;
  bool largest = false;
  F x, rhs;
};

// The flag (u.infinity, u.largest) and the first coordinate's 32 bytes without it.
template <class F>
bool read_head(const uint8_t* in, size_t size, const char* group, Unrooted<F>& u, uint8_t buf[32],
               std::string& error) {
  uint8_t flag;
  if (!read_flag(in, size, group, flag, u.infinity, error)) return false;
  u.largest = flag == kFlagLargest;
  std::memcpy(buf, in, 32);
  buf[0] &= uint8_t(~kFlagMask);
  return true;
}

bool unroot_g1(const uint8_t* in, Unrooted<Fp>& u, std::string& error) {
  uint8_t buf[32];
  if (!read_head(in, kG1CompressedBytes, "G1", u, buf, error)) return false;
  if (u.infinity) return true;
  if (!read_coordinate(buf, u.x, error, "compressed G1: x")) return false;
  u.rhs = u.x.square() * u.x + G1Params::b();
  return true;
}

bool unroot_g2(const uint8_t* in, Unrooted<Fp2>& u, std::string& error) {
  uint8_t buf[32];
  if (!read_head(in, kG2CompressedBytes, "G2", u, buf, error)) return false;
  if (u.infinity) return true;
  if (!read_coordinate(buf, u.x.c1, error, "compressed G2: x.c1 (imaginary part of x)") ||
      !read_coordinate(in + 32, u.x.c0, error, "compressed G2: x.c0 (real part of x)")) {
    return false;
  }
  u.rhs = u.x.square() * u.x + G2Params::b();
  return true;
}

// The point from its square root y of rhs (nullopt: rhs is not a square).
Decoded<G1Affine> rooted_g1(const Unrooted<Fp>& u, const std::optional<Fp>& y) {
  Decoded<G1Affine> r;
  if (u.infinity) {
    r.point = G1Affine::infinity();
  } else if (!y) {
    r.error = "compressed G1: x^3 + 3 is not a square (no curve point has this x)";
  } else {
    r.point = G1Affine{u.x, y->is_lexicographically_largest() == u.largest ? *y : -*y};
  }
  return r;
}

Decoded<G2Affine> rooted_g2(const Unrooted<Fp2>& u, const std::optional<Fp2>& y, G2Check check) {
  Decoded<G2Affine> r;
  if (u.infinity) {
    r.point = G2Affine::infinity();
    return r;
  }
  if (!y) {
    r.error = "compressed G2: x^3 + b' is not a square in Fp2 (no twist point has this x)";
    return r;
  }
  const G2Affine q = negate_unless({u.x, *y}, y->is_lexicographically_largest() == u.largest);
  if (check == G2Check::kSubgroup && !g2_is_in_subgroup(q)) {
    r.error = "compressed G2: point is not in the subgroup of order r";
    return r;
  }
  r.point = q;
  return r;
}

}  // namespace

Decoded<G1Affine> g1_from_compressed(const uint8_t in[kG1CompressedBytes]) {
  Unrooted<Fp> u;
  Decoded<G1Affine> r;
  if (!unroot_g1(in, u, r.error)) return r;
  return rooted_g1(u, u.infinity ? std::nullopt : encoding_detail::sqrt_fp(u.rhs));
}

Decoded<G2Affine> g2_from_compressed(const uint8_t in[kG2CompressedBytes], G2Check check) {
  Unrooted<Fp2> u;
  Decoded<G2Affine> r;
  if (!unroot_g2(in, u, r.error)) return r;
  return rooted_g2(u, u.infinity ? std::nullopt : encoding_detail::sqrt_fp2(u.rhs), check);
}

// ---- batches ------------------------------------------------------------------------------

namespace {

// Points decoded kRootBatch at a time, so that their exponentiations run together
// (encoding_detail::fp_pow_many: on the f64 lanes four at a time where they run).
constexpr size_t kRootBatch = 32;

// decode(in, out, k) decodes k <= kRootBatch points and returns the offset of the first bad one
// (k when none); on the pool when one is given. The first bad point overall is decoded again
// alone by decode_one for its error.
template <class Point, size_t kSize, class DecodeMany, class DecodeOne>
BatchDecodeStatus decode_batch(std::span<const uint8_t> in, std::span<Point> out, ThreadPool* pool,
                               const DecodeMany& decode, const DecodeOne& decode_one) {
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
    for (size_t i = begin; i < end; i += kRootBatch) {
      const size_t k = std::min(kRootBatch, end - i);
      const size_t bad = decode(in.data() + i * kSize, out.data() + i, k);
      if (bad == k) continue;
      size_t cur = first_bad.load(std::memory_order_relaxed);
      while (i + bad < cur && !first_bad.compare_exchange_weak(cur, i + bad)) {
      }
      return;  // this chunk is done; other chunks may still report an earlier index
    }
  };
  if (pool != nullptr) {
    pool->parallel_for(out.size(), work, kRootBatch);
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

// The points of `in` up to the first that is not an encoding: their count.
template <class F, size_t kSize, class Unroot>
size_t unroot_all(const uint8_t* in, Unrooted<F>* u, size_t k, const Unroot& unroot) {
  std::string error;
  for (size_t j = 0; j < k; ++j) {
    if (!unroot(in + j * kSize, u[j], error)) return j;
  }
  return k;
}

}  // namespace

BatchDecodeStatus g1_from_compressed_batch(std::span<const uint8_t> in, std::span<G1Affine> out,
                                           ThreadPool* pool) {
  auto decode = [](const uint8_t* in, G1Affine* out, size_t k) {
    Unrooted<Fp> u[kRootBatch];
    const size_t parsed = unroot_all<Fp, kG1CompressedBytes>(in, u, k, unroot_g1);
    Fp t[kRootBatch];
    for (size_t j = 0; j < parsed; ++j) t[j] = u[j].infinity ? Fp::one() : u[j].rhs;
    encoding_detail::fp_pow_many(t, parsed, kSqrtExponent);
    for (size_t j = 0; j < parsed; ++j) {
      const auto y = u[j].infinity ? std::nullopt : encoding_detail::sqrt_fp_finish(u[j].rhs, t[j]);
      Decoded<G1Affine> d = rooted_g1(u[j], y);
      if (!d.ok()) return j;
      out[j] = *d.point;
    }
    return parsed;
  };
  return decode_batch<G1Affine, kG1CompressedBytes>(
      in, out, pool, decode, [](const uint8_t* p) { return g1_from_compressed(p); });
}

BatchDecodeStatus g2_from_compressed_batch(std::span<const uint8_t> in, std::span<G2Affine> out,
                                           G2Check check, ThreadPool* pool) {
  auto decode = [check](const uint8_t* in, G2Affine* out, size_t k) {
    Unrooted<Fp2> u[kRootBatch];
    const size_t parsed = unroot_all<Fp2, kG2CompressedBytes>(in, u, k, unroot_g2);
    Fp t1[kRootBatch], delta[kRootBatch], t2[kRootBatch];
    for (size_t j = 0; j < parsed; ++j) {
      t1[j] = u[j].infinity ? Fp::one() : encoding_detail::sqrt_fp2_first_base(u[j].rhs);
    }
    encoding_detail::fp_pow_many(t1, parsed, kSqrtExponent);
    for (size_t j = 0; j < parsed; ++j) {
      delta[j] = u[j].infinity ? Fp::one() : encoding_detail::sqrt_fp2_second_base(u[j].rhs, t1[j]);
      t2[j] = delta[j];
    }
    encoding_detail::fp_pow_many(t2, parsed, kSqrtExponent);
    for (size_t j = 0; j < parsed; ++j) {
      const auto y = u[j].infinity
                         ? std::nullopt
                         : encoding_detail::sqrt_fp2_finish(u[j].rhs, t1[j], delta[j], t2[j]);
      Decoded<G2Affine> d = rooted_g2(u[j], y, check);
      if (!d.ok()) return j;
      out[j] = *d.point;
    }
    return parsed;
  };
  return decode_batch<G2Affine, kG2CompressedBytes>(
      in, out, pool, decode, [check](const uint8_t* p) { return g2_from_compressed(p, check); });
}

}  // namespace enygma
