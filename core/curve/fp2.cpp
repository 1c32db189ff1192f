#include "core/curve/fp2.hpp"

#include <cstddef>

#include "core/field/ifma/fp2_lanes.hpp"

namespace enygma {

#if defined(ENYGMA_HAVE_IFMA_KERNEL)
static_assert(sizeof(Fp2) == 64 && offsetof(Fp2, c1) == 32, "the lane kernel's Fp2 layout");
#endif

namespace {
// Groups of one or two run on the scalar kernel: a lane call costs about three scalar products
// (curve_bench fp2_mul_many_x10).
[[maybe_unused]] constexpr size_t kMinLanes = 3;
}  // namespace

namespace {
// Groups of up to eight: lanes(i, k) for groups of at least kMinLanes, one(j) per element
// otherwise.
template <class Lanes, class One>
void in_groups(size_t n, [[maybe_unused]] Lanes lanes, One one) {
  for (size_t i = 0; i < n; i += 8) {
    const size_t k = n - i < 8 ? n - i : 8;
#if defined(ENYGMA_HAVE_IFMA_KERNEL)
    if (k >= kMinLanes) {
      lanes(i, unsigned(k));
      continue;
    }
#endif
    for (size_t j = i; j < i + k; ++j) one(j);
  }
}
}  // namespace

void fp2_mul_many_lanes(Fp2* out, const Fp2* const* a, const Fp2* const* b, size_t n) {
#if defined(ENYGMA_HAVE_F64_LANES)
  return fp2_mul_many_f64(out, a, b, n);
#endif
  in_groups(
      n,
      [&]([[maybe_unused]] size_t i, [[maybe_unused]] unsigned k) {
#if defined(ENYGMA_HAVE_IFMA_KERNEL)
        const uint64_t *x[8], *y[8];
        for (unsigned l = 0; l < k; ++l) x[l] = a[i + l]->c0.limbs, y[l] = b[i + l]->c0.limbs;
        ifma::fp2_mul_lanes(out[i].c0.limbs, x, y, k);
#endif
      },
      [&](size_t j) { out[j] = *a[j] * *b[j]; });
}

void fp2_square_many_lanes(Fp2* out, const Fp2* const* a, size_t n) {
#if defined(ENYGMA_HAVE_F64_LANES)
  return fp2_square_many_f64(out, a, n);
#endif
  in_groups(
      n,
      [&]([[maybe_unused]] size_t i, [[maybe_unused]] unsigned k) {
#if defined(ENYGMA_HAVE_IFMA_KERNEL)
        const uint64_t* x[8];
        for (unsigned l = 0; l < k; ++l) x[l] = a[i + l]->c0.limbs;
        ifma::fp2_square_lanes(out[i].c0.limbs, x, k);
#endif
      },
      [&](size_t j) { out[j] = a[j]->square(); });
}

std::optional<Fp2> Fp2::sqrt() const {
  if (is_zero()) return zero();
  // (p - 3) / 4 and (p - 1) / 2
  U256 p = Fp::kModulus, e34, e12;
  sub_borrow(e34, p, U256::from_u64(3));
  e34 = shr1(shr1(e34));
  sub_borrow(e12, p, U256::from_u64(1));
  e12 = shr1(e12);

  Fp2 a1 = pow(e34);
  Fp2 alpha = a1.square() * *this;     // a^((p-1)/2)
  Fp2 a0 = alpha.conjugate() * alpha;  // alpha^(p+1)
  const Fp2 minus_one = {-Fp::one(), Fp::zero()};
  if (a0 == minus_one) return std::nullopt;
  Fp2 x0 = a1 * *this;
  Fp2 x;
  if (alpha == minus_one) {
    x = {-x0.c1, x0.c0};  // u * x0
  } else {
    Fp2 b = (alpha + one()).pow(e12);
    x = b * x0;
  }
  if (x.square() != *this) return std::nullopt;
  return x;
}

}  // namespace enygma
