#include <array>
#include <cstdint>

#include "core/curve/bn_parameter.hpp"
#include "core/pairing/pairing.hpp"

namespace enygma {

namespace {

// x in width-4 non-adjacent form: odd digits in {+-1, +-3, +-5, +-7}, at least three zeros
// after each nonzero digit. 14 nonzero digits instead of 24 in plain NAF, so a^x costs 63
// cyclotomic squarings and 17 multiplications (3 for the table) instead of 62 and 23.
struct WindowNaf {
  std::array<int8_t, 72> digit{};
  int length = 0;
};

constexpr WindowNaf width4_naf(uint64_t n) {
  WindowNaf naf;
  while (n != 0) {
    int8_t d = 0;
    if (n & 1) {
      d = int8_t(n & 15);
      if (d >= 8) d = int8_t(d - 16);
      n = d > 0 ? n - uint64_t(d) : n + uint64_t(-d);  // n < 2^63: no overflow
    }
    naf.digit[size_t(naf.length++)] = d;
    n >>= 1;
  }
  return naf;
}

constexpr WindowNaf kBnXWidth4Naf = width4_naf(kBnX);

// a^x for a in the cyclotomic subgroup (where a^-1 is the conjugate).
Fp12 cyclotomic_exp_by_x(const Fp12& a) {
  Fp12 odd[4];  // a, a^3, a^5, a^7
  odd[0] = a;
  const Fp12 a2 = a.cyclotomic_square();
  for (int i = 1; i < 4; ++i) odd[i] = odd[i - 1] * a2;
  const auto multiply = [&](Fp12& r, int8_t d) {
    if (d > 0) r *= odd[d / 2];
    if (d < 0) r *= odd[-d / 2].conjugate();
  };
  const int top = kBnXWidth4Naf.length - 1;
  static_assert(kBnXWidth4Naf.digit[kBnXWidth4Naf.length - 1] > 0);
  Fp12 r = odd[kBnXWidth4Naf.digit[size_t(top)] / 2];
  for (int i = top - 1; i >= 0; --i) {
    r = r.cyclotomic_square();
    multiply(r, kBnXWidth4Naf.digit[size_t(i)]);
  }
  return r;
}

// f^((p^4 - p^2 + 1) / r) for f in the cyclotomic subgroup. With
//   (p^4 - p^2 + 1) / r = l0 + l1 p + l2 p^2 + l3 p^3,
//   l0 = -36x^3 - 30x^2 - 18x - 2, l1 = -36x^3 - 18x^2 - 12x + 1, l2 = 6x^2 + 1, l3 = 1,
// the result is y0 y1^2 y2^6 y3^12 y4^18 y5^30 y6^36 (Scott et al. 2009, section 5) for
//   y0 = f^(p + p^2 + p^3), y1 = f^-1, y2 = f^(x^2 p^2), y3 = f^(-x p),
//   y4 = f^(-x - x^2 p), y5 = f^(-x^2), y6 = f^(-x^3 - x^3 p),
// evaluated by their addition chain: 3 exponentiations by x, 4 squarings, 10 multiplications.
Fp12 hard_part(const Fp12& f) {
  const Fp12 fx = cyclotomic_exp_by_x(f);
  const Fp12 fx2 = cyclotomic_exp_by_x(fx);
  const Fp12 fx3 = cyclotomic_exp_by_x(fx2);

  const Fp12 y0 = f.frobenius_map(1) * f.frobenius_map(2) * f.frobenius_map(3);
  const Fp12 y1 = f.conjugate();
  const Fp12 y2 = fx2.frobenius_map(2);
  const Fp12 y3 = fx.frobenius_map(1).conjugate();
  const Fp12 y4 = (fx * fx2.frobenius_map(1)).conjugate();
  const Fp12 y5 = fx2.conjugate();
  const Fp12 y6 = (fx3 * fx3.frobenius_map(1)).conjugate();

  Fp12 t0 = y6.cyclotomic_square() * y4 * y5;
  Fp12 t1 = y3 * y5 * t0;
  t0 = t0 * y2;
  t1 = t1.cyclotomic_square() * t0;
  t1 = t1.cyclotomic_square();
  t0 = t1 * y1;
  t1 = t1 * y0;
  t0 = t0.cyclotomic_square();
  return t0 * t1;
}

}  // namespace

Fp12 final_exponentiation(const Fp12& f) {
  // Easy part: f^(p^6 - 1) = conj(f) / f, then ^(p^2 + 1). The result is in the cyclotomic
  // subgroup. f = 0 (never a Miller loop value of valid inputs) maps to 0. Pairings here are
  // of public points only (proofs, keys), so the inversion may take variable time.
  Fp12 t = f.conjugate() * f.inverse(/*public_values=*/true);
  t = t.frobenius_map(2) * t;
  return hard_part(t);
}

}  // namespace enygma
