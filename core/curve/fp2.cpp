#include "core/curve/fp2.hpp"

#if defined(ENYGMA_HAVE_ADX_KERNEL)
#include <x86intrin.h>

#include "core/field/limbs64_adx.hpp"
#endif

namespace enygma {

#if defined(ENYGMA_HAVE_ADX_KERNEL)
// Lazy reduction (Aranha, Karabina, Longa, Gebotys, Lopez, Eurocrypt 2011, section 3): with
// t0 = a0 b0, t1 = a1 b1 and t2 = (a0 + a1)(b0 + b1) as 512-bit integers (the sums unreduced,
// below 2m < 2^255),
//   c0 = redc(t0 - t1), plus m 2^256 when negative: in [0, m 2^256),
//   c1 = redc(t2 - t0 - t1) = redc(a0 b1 + a1 b0): in [0, 2m^2) within [0, m 2^256),
// and redc of anything below m 2^256 returns a value below m (limbs64_adx::redc).
Fp2 Fp2::mul_lazy_reduction(const Fp2& a, const Fp2& b) {
  constexpr const uint64_t* m = Fp::kModulus.w;
  uint64_t sa[4], sb[4];
  unsigned long long x;
  unsigned char c = 0, d = 0;
  for (int i = 0; i < 4; ++i) {
    c = _addcarry_u64(c, a.c0.limbs[i], a.c1.limbs[i], &x);
    sa[i] = x;
    d = _addcarry_u64(d, b.c0.limbs[i], b.c1.limbs[i], &x);
    sb[i] = x;
  }
  uint64_t t0[8], t1[8], t2[8];
  limbs64_adx::mul_wide(t0, a.c0.limbs, b.c0.limbs);
  limbs64_adx::mul_wide(t1, a.c1.limbs, b.c1.limbs);
  limbs64_adx::mul_wide(t2, sa, sb);
  unsigned char b0 = 0, b1 = 0, b2 = 0;
  for (int i = 0; i < 8; ++i) {
    b1 = _subborrow_u64(b1, t2[i], t0[i], &x);
    b2 = _subborrow_u64(b2, x, t1[i], &x);
    t2[i] = x;
    b0 = _subborrow_u64(b0, t0[i], t1[i], &x);
    t0[i] = x;
  }
  const uint64_t mask = 0 - uint64_t(b0);
  c = 0;
  for (int i = 0; i < 4; ++i) {
    c = _addcarry_u64(c, t0[4 + i], m[i] & mask, &x);
    t0[4 + i] = x;
  }
  Fp2 r;
  limbs64_adx::redc(r.c0.limbs, t0, m, Fp::kInv64);
  limbs64_adx::redc(r.c1.limbs, t2, m, Fp::kInv64);
  return r;
}
#endif

std::optional<Fp2> Fp2::sqrt() const {
  if (is_zero()) return zero();
  // (p - 3) / 4 and (p - 1) / 2
  U256 p = Fp::kModulus, e34, e12;
  sub_borrow(e34, p, U256::from_u64(3));
  e34 = shr1(shr1(e34));
  sub_borrow(e12, p, U256::from_u64(1));
  e12 = shr1(e12);

  Fp2 a1 = pow(e34);
  Fp2 alpha = a1.square() * *this;  // a^((p-1)/2)
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
