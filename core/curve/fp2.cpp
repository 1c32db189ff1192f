#include "core/curve/fp2.hpp"

namespace enygma {

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
