// See core/msm/batch_affine_ifma.hpp. Scalings (core/field/fp_ifma.hpp): inputs arrive as
// v*2^256 (the scalar Montgomery form). The denominators d = x_b - x_a are shifted to d*2^260,
// so the running products and the inverses stay 2^260-scaled; lambda = dy * (1/d) comes out
// 2^256-scaled, and lambda*2^260 (a 4-bit shift) times a 2^256-scaled value is 2^256-scaled, so
// x3 and y3 leave in the scalar form with no conversion multiplication.
#include "core/msm/batch_affine_ifma.hpp"

#if defined(ENYGMA_HAVE_IFMA_KERNEL)

#include <cstring>

#include "core/field/fp.hpp"
#include "core/field/fp_ifma.hpp"

namespace enygma::msm_detail {

namespace {

using ifma::Fe8;

// What the backward pass needs of one group of eight additions.
struct Group {
  Fe8 x_a, y_a, x_sum, dy, d260, prefix;
};

// A finite dummy addition for the unused lanes of the last group: a = (0, 0), b = (R, 0) with
// R = Montgomery one, so d = R != 0. Its result is never stored.
alignas(64) const uint64_t kPadA[8] = {0, 0, 0, 0, 0, 0, 0, 0};
alignas(64) const uint64_t kPadB[8] = {Fp::kR.w[0], Fp::kR.w[1], Fp::kR.w[2], Fp::kR.w[3],
                                       0, 0, 0, 0};

template <class T>
ENYGMA_IFMA_INLINE __m512i load_addresses(T* const p[8]) {
  static_assert(sizeof(T*) == 8);
  return _mm512_loadu_si512(static_cast<const void*>(p));
}

// In place: lanes[l] (2^260-scaled, below 2m) becomes the 2^260-scaled inverse, canonical.
ENYGMA_IFMA_INLINE Fe8 invert_lanes(const Fe8& lanes) {
  __m512i w[4];
  ifma::to_words(ifma::reduce_below_4m<Fp>(lanes), w);
  alignas(64) uint64_t words[4][8];
  for (int j = 0; j < 4; ++j) _mm512_store_si512(words[j], w[j]);
  // As a scalar Montgomery form, the integer A = v*2^260 means 16v: invert that, then
  // (16v)^-1 * 256 in scalar form is the integer v^-1 * 2^260.
  Fp x[8], prefix[8];
  Fp acc = Fp::one();
  for (int l = 0; l < 8; ++l) {
    x[l] = Fp::from_montgomery(U256{{words[0][l], words[1][l], words[2][l], words[3][l]}});
    prefix[l] = acc;
    acc *= x[l];
  }
  Fp inv = acc.inverse() * Fp::from_u64(256);
  for (int l = 8; l-- > 0;) {
    const Fp inv_l = inv * prefix[l];
    inv *= x[l];
    for (int j = 0; j < 4; ++j) words[j][l] = inv_l.limbs[j];
  }
  for (int j = 0; j < 4; ++j) w[j] = _mm512_load_si512(words[j]);
  return ifma::from_words(w);
}

}  // namespace

ENYGMA_IFMA_TARGET void g1_batch_add_ifma(const G1AddJob* jobs, size_t k,
                                          std::vector<uint64_t>& scratch) {
  if (k == 0) return;
  const size_t groups = (k + 7) / 8;
  constexpr size_t kWords = sizeof(Group) / sizeof(uint64_t);
  scratch.resize(groups * kWords + 8);
  uint64_t* base = scratch.data();
  base += (8 - (reinterpret_cast<uintptr_t>(base) / 8) % 8) % 8;  // 64-byte aligned
  Group* store = reinterpret_cast<Group*>(base);

  // Forward: d per lane and the running product of each lane's d (2^260-scaled).
  uint64_t one_260[5];
  ifma::to_radix52(field_detail::shl_mod_slow(U256::from_u64(1), 260, Fp::kModulus), one_260);
  Fe8 acc;
  for (int i = 0; i < 5; ++i) acc.l[i] = ifma::splat(one_260[i]);
  for (size_t g = 0; g < groups; ++g) {
    const uint64_t* a[8];
    const uint64_t* bx[8];
    const uint64_t* by[8];
    for (size_t l = 0; l < 8; ++l) {
      const size_t j = g * 8 + l;
      if (j < k) {
        a[l] = jobs[j].a_xy;
        bx[l] = jobs[j].b_x;
        by[l] = jobs[j].b_y;
      } else {
        a[l] = kPadA;
        bx[l] = kPadB;
        by[l] = kPadB + 4;
      }
    }
    const __m512i va = load_addresses(a);
    Group& s = store[g];
    s.x_a = ifma::gather(va, 0);
    s.y_a = ifma::gather(va, 32);
    const Fe8 x_b = ifma::gather(load_addresses(bx), 0);
    const Fe8 y_b = ifma::gather(load_addresses(by), 0);
    s.x_sum = ifma::add(s.x_a, x_b);
    s.dy = ifma::sub<Fp, 1>(y_b, s.y_a);
    s.d260 = ifma::shl4(ifma::sub<Fp, 1>(x_b, s.x_a));
    s.prefix = acc;
    acc = ifma::mul<Fp>(acc, s.d260);
  }

  Fe8 inv = invert_lanes(acc);

  // Backward: 1/d per addition, lambda, x3, y3.
  for (size_t g = groups; g-- > 0;) {
    const Group& s = store[g];
    const Fe8 inv_d = ifma::mul<Fp>(inv, s.prefix);
    inv = ifma::mul<Fp>(inv, s.d260);
    const Fe8 lambda = ifma::mul<Fp>(s.dy, inv_d);  // 2^256-scaled
    const Fe8 lambda260 = ifma::shl4(lambda);
    const Fe8 x3 =
        ifma::reduce_below_4m<Fp>(ifma::sub<Fp, 2>(ifma::mul<Fp>(lambda260, lambda), s.x_sum));
    const Fe8 y3 = ifma::reduce_below_4m<Fp>(
        ifma::sub<Fp, 1>(ifma::mul<Fp>(lambda260, ifma::sub<Fp, 1>(s.x_a, x3)), s.y_a));
    uint64_t* out[8];
    const size_t lanes = k - g * 8 < 8 ? k - g * 8 : 8;
    for (size_t l = 0; l < 8; ++l) out[l] = l < lanes ? jobs[g * 8 + l].out : nullptr;
    const __mmask8 mask = __mmask8((1u << lanes) - 1);
    const __m512i vo = load_addresses(out);
    ifma::scatter(vo, 0, x3, mask);
    ifma::scatter(vo, 32, y3, mask);
  }
}

}  // namespace enygma::msm_detail

#endif  // ENYGMA_HAVE_IFMA_KERNEL
