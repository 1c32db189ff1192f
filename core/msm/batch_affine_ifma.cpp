// The lane kernel of core/msm/batch_affine_lanes.hpp on AVX-512 IFMA (core/field/ifma/fe8.hpp),
// eight additions at once. Scalings (core/field/ifma/fe8.hpp): inputs arrive as
// v*2^256 (the scalar Montgomery form). The denominators d = x_b - x_a are shifted to d*2^260,
// so the running products and the inverses stay 2^260-scaled; lambda = dy * (1/d) comes out
// 2^256-scaled, and lambda*2^260 (a 4-bit shift) times a 2^256-scaled value is 2^256-scaled, so
// x3 and y3 leave in the scalar form with no conversion multiplication.
//
// Bounds (m = p): inputs < m; x_a + x_b, dy, 1/d, prefix products < 2m; d*2^260 and
// lambda*2^260 < 32m. Every multiplication takes a first operand < 2m and a second < 32m and
// returns < 2m (ifma/fe8.hpp for Fp; Fp2Lanes::mul below keeps the same contract and needs that
// order), so x3 before reduction is in (0, 4m) and y3 in (0, 3m).
#include "core/msm/batch_affine_lanes.hpp"

#if defined(ENYGMA_HAVE_IFMA_KERNEL)

#include "core/curve/fp2.hpp"
#include "core/field/batch_inverse.hpp"
#include "core/field/fp.hpp"
#include "core/field/ifma/fe8.hpp"

namespace enygma::msm_detail {

namespace {

using ifma::Fe8;

// Eight lanes as Fp words <-> scalar field elements, for the one inversion per batch.
ENYGMA_IFMA_INLINE void lanes_to_words(const Fe8& a, uint64_t words[4][8]) {
  __m512i w[4];
  ifma::to_words(ifma::reduce_below_4m<Fp>(a), w);
  for (int j = 0; j < 4; ++j) _mm512_storeu_si512(words[j], w[j]);
}
ENYGMA_IFMA_INLINE Fe8 words_to_lanes(const uint64_t words[4][8]) {
  __m512i w[4];
  for (int j = 0; j < 4; ++j) w[j] = _mm512_loadu_si512(words[j]);
  return ifma::from_words(w);
}
ENYGMA_IFMA_INLINE Fp lane(const uint64_t words[4][8], int l) {
  return Fp::from_montgomery(U256{{words[0][l], words[1][l], words[2][l], words[3][l]}});
}
ENYGMA_IFMA_INLINE void set_lane(uint64_t words[4][8], int l, const Fp& x) {
  for (int j = 0; j < 4; ++j) words[j][l] = x.limbs[j];
}

// As a scalar Montgomery form, the integer A = v*2^260 means 16v; (16v)^-1 * 256 in scalar form
// is the integer v^-1 * 2^260 again.
template <class S>
void invert_scaled(S x[8], bool public_values) {
  S scratch[8];
  batch_inverse(x, 8, scratch, public_values);
  const Fp k256 = Fp::from_u64(256);
  for (int l = 0; l < 8; ++l) x[l] = x[l] * k256;
}

// A finite dummy addition for the unused lanes of the last group: a = (0, 0), b = (R, 0) with
// R = Montgomery one (in every component), so d != 0. Its result is never stored.
alignas(64) const uint64_t kPadA[16] = {};
alignas(64) const uint64_t kPadB[16] = {Fp::kR.w[0], Fp::kR.w[1], Fp::kR.w[2], Fp::kR.w[3],
                                        Fp::kR.w[0], Fp::kR.w[1], Fp::kR.w[2], Fp::kR.w[3]};

// The eight jobs of group g (unused lanes of the last group: the dummy).
struct GroupPointers {
  const uint64_t* a[8];
  const uint64_t* b_x[8];
  const uint64_t* b_y[8];
};
ENYGMA_IFMA_INLINE GroupPointers group_pointers(const AffineAddJob* jobs, size_t k, size_t g) {
  GroupPointers p;
  for (size_t l = 0; l < 8; ++l) {
    const size_t j = g * 8 + l;
    const bool used = j < k;
    p.a[l] = used ? jobs[j].a_xy : kPadA;
    p.b_x[l] = used ? jobs[j].b_x : kPadB;
    p.b_y[l] = used ? jobs[j].b_y : kPadA;
  }
  return p;
}

// The lane operations of G1's coordinate field.
struct FpLanes {
  using T = Fe8;
  // The eight lanes' a = (x, y) and b = (x, y); then x3, y3 to the first n outputs.
  ENYGMA_IFMA_INLINE static void load(const GroupPointers& p, T& x_a, T& y_a, T& x_b, T& y_b) {
    const ifma::Fe8Pair a = ifma::load_pair(p.a, 0, p.a, 4),
                        b = ifma::load_pair(p.b_x, 0, p.b_y, 0);
    x_a = a.first, y_a = a.second, x_b = b.first, y_b = b.second;
  }
  ENYGMA_IFMA_INLINE static void store(uint64_t* const out[8], unsigned n, const T& x3,
                                       const T& y3) {
    ifma::store_pair(x3, y3, out, 0, n);
  }
  ENYGMA_IFMA_INLINE static T add(const T& a, const T& b) { return ifma::add(a, b); }
  template <int K>
  ENYGMA_IFMA_INLINE static T sub(const T& a, const T& b) {
    return ifma::sub<Fp, K>(a, b);
  }
  ENYGMA_IFMA_INLINE static T shl4(const T& a) { return ifma::shl4(a); }
  ENYGMA_IFMA_INLINE static T mul(const T& a, const T& b) { return ifma::mul<Fp>(a, b); }
  ENYGMA_IFMA_INLINE static T reduce(const T& a) { return ifma::reduce_below_4m<Fp>(a); }
  ENYGMA_IFMA_INLINE static T splat_one260() {
    T r;
    for (int i = 0; i < 5; ++i) r.l[i] = ifma::splat(ifma::Radix52Modulus<Fp>::kOne260.v[i]);
    return r;
  }
  ENYGMA_IFMA_INLINE static T invert(const T& a, bool public_values) {
    uint64_t w[4][8];
    lanes_to_words(a, w);
    Fp x[8];
    for (int l = 0; l < 8; ++l) x[l] = lane(w, l);
    invert_scaled(x, public_values);
    for (int l = 0; l < 8; ++l) set_lane(w, l, x[l]);
    return words_to_lanes(w);
  }
};

// The lane operations of G2's coordinate field Fp2 = Fp[u]/(u^2 + 1), componentwise where
// they can be.
struct Fp2Lanes {
  struct T {
    Fe8 c0, c1;
  };
  ENYGMA_IFMA_INLINE static T coordinate(const uint64_t* const p[8], int off) {
    const ifma::Fe8Pair c = ifma::load_pair(p, off, p, off + 4);
    return {c.first, c.second};
  }
  ENYGMA_IFMA_INLINE static void load(const GroupPointers& p, T& x_a, T& y_a, T& x_b, T& y_b) {
    x_a = coordinate(p.a, 0);
    y_a = coordinate(p.a, 8);
    x_b = coordinate(p.b_x, 0);
    y_b = coordinate(p.b_y, 0);
  }
  ENYGMA_IFMA_INLINE static void store(uint64_t* const out[8], unsigned n, const T& x3,
                                       const T& y3) {
    ifma::store_pair(x3.c0, x3.c1, out, 0, n);
    ifma::store_pair(y3.c0, y3.c1, out, 8, n);
  }
  ENYGMA_IFMA_INLINE static T add(const T& a, const T& b) {
    return {ifma::add(a.c0, b.c0), ifma::add(a.c1, b.c1)};
  }
  template <int K>
  ENYGMA_IFMA_INLINE static T sub(const T& a, const T& b) {
    return {ifma::sub<Fp, K>(a.c0, b.c0), ifma::sub<Fp, K>(a.c1, b.c1)};
  }
  ENYGMA_IFMA_INLINE static T shl4(const T& a) { return {ifma::shl4(a.c0), ifma::shl4(a.c1)}; }
  // Each coefficient a sum of two products reduced once (lazy reduction):
  //   c0 = a0 b0 + (2m - a1) b1,  c1 = a0 b1 + a1 b0.
  // With a < 2m and b < 32m (the order matters: 2m - a1 needs a1 <= 2m) each sum is below
  // 2 * 64 m^2, so a result is below 128m^2/2^260 + m < 2.52m, and one conditional subtraction
  // of 2m brings it below 2m: the Fp multiplication's contract.
  ENYGMA_IFMA_INLINE static T mul(const T& a, const T& b) {
    using M = ifma::Radix52Modulus<Fp>;
    T r;
    ifma::fp2_mul_sums<Fp, 2>(a.c0, a.c1, b.c0, b.c1, r.c0, r.c1);
    return {ifma::sub_if_not_below(r.c0, M::kP2.v), ifma::sub_if_not_below(r.c1, M::kP2.v)};
  }
  ENYGMA_IFMA_INLINE static T reduce(const T& a) {
    return {ifma::reduce_below_4m<Fp>(a.c0), ifma::reduce_below_4m<Fp>(a.c1)};
  }
  ENYGMA_IFMA_INLINE static T splat_one260() {
    T r{FpLanes::splat_one260(), {}};
    for (int i = 0; i < 5; ++i) r.c1.l[i] = _mm512_setzero_si512();
    return r;
  }
  ENYGMA_IFMA_INLINE static T invert(const T& a, bool public_values) {
    uint64_t w0[4][8], w1[4][8];
    lanes_to_words(a.c0, w0);
    lanes_to_words(a.c1, w1);
    Fp2 x[8];
    for (int l = 0; l < 8; ++l) x[l] = {lane(w0, l), lane(w1, l)};
    invert_scaled(x, public_values);
    for (int l = 0; l < 8; ++l) {
      set_lane(w0, l, x[l].c0);
      set_lane(w1, l, x[l].c1);
    }
    return {words_to_lanes(w0), words_to_lanes(w1)};
  }
};

template <class L>
ENYGMA_IFMA_INLINE void batch_add(const AffineAddJob* jobs, size_t k,
                                  SecureVector<uint64_t>& scratch, bool public_values) {
  using T = typename L::T;
  // What the backward pass needs of one group of eight additions (kept rather than gathering
  // the points again).
  struct Group {
    T x_a, y_a, x_sum, dy, d260, prefix;
  };
  if (k == 0) return;
  const size_t groups = (k + 7) / 8;
  Group* store = group_storage<Group, 64>(scratch, groups);

  // Forward: d per lane and the running product of each lane's d (2^260-scaled).
  T acc = L::splat_one260();
  for (size_t g = 0; g < groups; ++g) {
    Group& s = store[g];
    T x_b, y_b;
    L::load(group_pointers(jobs, k, g), s.x_a, s.y_a, x_b, y_b);
    s.x_sum = L::add(s.x_a, x_b);
    s.dy = L::template sub<1>(y_b, s.y_a);
    s.d260 = L::shl4(L::template sub<1>(x_b, s.x_a));
    s.prefix = acc;
    acc = L::mul(acc, s.d260);
  }

  T inv = L::invert(acc, public_values);

  // Backward: 1/d per addition, lambda, x3, y3.
  for (size_t g = groups; g-- > 0;) {
    const Group& s = store[g];
    const T inv_d = L::mul(inv, s.prefix);
    inv = L::mul(inv, s.d260);
    const T lambda = L::mul(s.dy, inv_d);  // 2^256-scaled
    const T lambda260 = L::shl4(lambda);
    const T x3 = L::reduce(L::template sub<2>(L::mul(lambda, lambda260), s.x_sum));
    const T y3 =
        L::reduce(L::template sub<1>(L::mul(L::template sub<1>(s.x_a, x3), lambda260), s.y_a));
    uint64_t* out[8];
    const size_t lanes = k - g * 8 < 8 ? k - g * 8 : 8;
    for (size_t l = 0; l < 8; ++l) out[l] = l < lanes ? jobs[g * 8 + l].out : nullptr;
    L::store(out, unsigned(lanes), x3, y3);
  }
}

}  // namespace

ENYGMA_IFMA_TARGET void g1_batch_add_lanes(const AffineAddJob* jobs, size_t k,
                                           SecureVector<uint64_t>& scratch, bool public_values) {
  batch_add<FpLanes>(jobs, k, scratch, public_values);
}

ENYGMA_IFMA_TARGET void g2_batch_add_lanes(const AffineAddJob* jobs, size_t k,
                                           SecureVector<uint64_t>& scratch, bool public_values) {
  batch_add<Fp2Lanes>(jobs, k, scratch, public_values);
}

}  // namespace enygma::msm_detail

#endif  // ENYGMA_HAVE_IFMA_KERNEL
