// The Miller loop of the optimal ate pairing (Vercauteren, "Optimal pairings", 2010) for BN254,
// loop length 6x + 2 in non-adjacent form, with the G2 point in homogeneous projective
// coordinates and the line formulas of Costello, Lange, Naehrig, "Faster pairing computations
// on curves with high-degree twists" (PKC 2010), as arranged in Aranha, Karabina, Longa,
// Gebotys, Lopez, "Faster explicit formulas for computing pairings over ordinary curves"
// (Eurocrypt 2011), section 4.
//
// The D-type twist maps (x, y) on E' to (x w^2, y w^3) on E, so the line through T with slope
// lambda, evaluated at P, is yP - lambda xP w + (lambda xT - yT) w^3: sparse in w^0, w^1, w^3.
// Lines are scaled by factors in Fp2, which the final exponentiation removes.
#include "core/curve/bn_parameter.hpp"
#include "core/curve/g2_subgroup.hpp"
#include "core/curve/halve.hpp"
#include "core/field/batch_inverse.hpp"
#include "core/pairing/pairing.hpp"

namespace enygma {

namespace {

// (X : Y : Z) means (X/Z, Y/Z).
struct G2Homogeneous {
  Fp2 x, y, z;
};

// T <- 2T and the tangent line at T: -2YZ yP + 3X^2 xP w + (3b'Z^2 - Y^2) w^3.
inline LineCoefficients doubling_step(G2Homogeneous& t, const Fp2& three_b) {
  const Fp2 a = halve(t.x * t.y);              // XY/2
  const Fp2 b = t.y.square();                  // Y^2
  const Fp2 c = t.z.square();                  // Z^2
  const Fp2 e = three_b * c;                   // 3b'Z^2
  const Fp2 f = e.dbl() + e;                   // 9b'Z^2
  const Fp2 g = halve(b + f);                  // (Y^2 + 9b'Z^2)/2
  const Fp2 h = (t.y + t.z).square() - b - c;  // 2YZ
  const Fp2 j = t.x.square();                  // X^2
  const Fp2 e2 = e.square();
  t.x = a * (b - f);
  t.y = g.square() - (e2.dbl() + e2);
  t.z = b * h;
  return {-h, j.dbl() + j, e - b};
}

// T <- T + Q (Q affine, T != +-Q) and the line through them: with theta = Y - yQ Z and
// lambda = X - xQ Z, lambda yP - theta xP w + (theta xQ - lambda yQ) w^3.
inline LineCoefficients addition_step(G2Homogeneous& t, const G2Affine& q) {
  const Fp2 theta = t.y - q.y * t.z;
  const Fp2 lambda = t.x - q.x * t.z;
  const Fp2 c = theta.square();
  const Fp2 d = lambda.square();
  const Fp2 e = lambda * d;
  const Fp2 f = t.z * c;
  const Fp2 g = t.x * d;
  const Fp2 h = e + f - g.dbl();
  const Fp2 ye = t.y * e;
  t.x = lambda * h;
  t.y = theta * (g - h) - ye;
  t.z = t.z * e;
  return {lambda, -theta, theta * q.x - lambda * q.y};
}

// One active pair of the loop: its G1 point and, for monic lines, xP/yP and 1/yP.
struct LoopPair {
  const G1Affine* p;
  const G2Prepared* q;
  Fp x_over_y, inv_y;
};

inline Fp12 mul_by_line(const Fp12& f, const LineCoefficients& l, const LoopPair& pair) {
  if (pair.q->monic) return f.mul_by_monic_line(l.b * pair.x_over_y, l.c * pair.inv_y);
  return f.mul_by_034(l.a * pair.p->y, l.b * pair.p->x, l.c);
}

// Number of lines per G2 point: one per doubling, one per nonzero digit below the top, two final.
constexpr size_t count_lines() {
  size_t n = 0;
  for (int i = kAteLoopNaf.length - 2; i >= 0; --i) {
    n += 1;
    if (kAteLoopNaf.digit[size_t(i)] != 0) n += 1;
  }
  return n + 2;
}
constexpr size_t kLinesPerPoint = count_lines();

// The lines of Q's Miller loop; *end: the ladder's last point T = [6x+2]Q + psi(Q) - psi^2(Q).
G2Prepared prepare_lines(const G2Affine& q, G2Homogeneous* end) {
  G2Prepared out;
  out.lines.reserve(kLinesPerPoint);
  const Fp2 b = G2Params::b();
  const Fp2 three_b = b.dbl() + b;
  const G2Affine neg_q = -q;
  G2Homogeneous t{q.x, q.y, Fp2::one()};
  for (int i = kAteLoopNaf.length - 2; i >= 0; --i) {
    out.lines.push_back(doubling_step(t, three_b));
    const int8_t d = kAteLoopNaf.digit[size_t(i)];
    if (d == 1) out.lines.push_back(addition_step(t, q));
    if (d == -1) out.lines.push_back(addition_step(t, neg_q));
  }
  // T = [6x+2]Q; add psi(Q) = [p]Q, then -psi^2(Q) = [-p^2]Q.
  out.lines.push_back(addition_step(t, g2_psi(q)));
  out.lines.push_back(addition_step(t, -g2_psi2(q)));
  *end = t;
  return out;
}

}  // namespace

bool pairing_detail::homogeneous_equals(const Fp2& x, const Fp2& y, const Fp2& z,
                                        const G2Affine& r) {
  return !z.is_zero() && !r.is_infinity() && x == r.x * z && y == r.y * z;
}

G2Prepared prepare_g2(const G2Affine& q) {
  if (q.is_infinity()) return {};
  G2Homogeneous end;
  return prepare_lines(q, &end);
}

G2Prepared prepare_g2_checked(const G2Affine& q, bool& in_subgroup) {
  in_subgroup = true;
  if (q.is_infinity()) return {};
  G2Homogeneous end;
  G2Prepared out = prepare_lines(q, &end);
  // 6x+2 + p - p^2 + p^3 = 0 mod r, so on G2 (where psi is [p]) the ladder ends at -psi^3(Q).
  const G2Affine minus_psi3 = -g2_psi(g2_psi2(q));
  in_subgroup = pairing_detail::homogeneous_equals(end.x, end.y, end.z, minus_psi3);
  return out;
}

G2Prepared prepare_g2_monic(const G2Affine& q) {
  G2Prepared out = prepare_g2(q);
  std::vector<Fp2> inv(out.lines.size()), scratch(out.lines.size());
  for (size_t i = 0; i < out.lines.size(); ++i) {
    if (out.lines[i].a.is_zero()) return out;  // not a point of G2: keep the plain lines
    inv[i] = out.lines[i].a;
  }
  batch_inverse(inv.data(), inv.size(), scratch.data(), /*public_values=*/true);
  for (size_t i = 0; i < out.lines.size(); ++i) {
    LineCoefficients& l = out.lines[i];
    l = {Fp2::one(), l.b * inv[i], l.c * inv[i]};
  }
  out.monic = !out.lines.empty();
  return out;
}

Fp12 miller_loop(std::span<const G1Affine> p, std::span<const G2Prepared* const> q) {
  if (p.size() != q.size()) return Fp12::zero();
  // Pairs with infinity on either side contribute 1.
  std::vector<LoopPair> active;
  active.reserve(p.size());
  for (size_t k = 0; k < p.size(); ++k) {
    if (p[k].is_infinity() || q[k]->is_infinity()) continue;
    if (q[k]->lines.size() != kLinesPerPoint) return Fp12::zero();  // not from prepare_g2
    active.push_back({&p[k], q[k], Fp::zero(), Fp::zero()});
  }
  // 1/yP for the pairs with monic lines, one inversion for all (yP != 0: G1 has no point of
  // order 2). Pairings here are of public points, so it may take variable time.
  std::vector<Fp> inv_y, scratch;
  for (const LoopPair& a : active) {
    if (a.q->monic) inv_y.push_back(a.p->y);
  }
  scratch.resize(inv_y.size());
  batch_inverse(inv_y.data(), inv_y.size(), scratch.data(), /*public_values=*/true);
  size_t next = 0;
  for (LoopPair& a : active) {
    if (!a.q->monic) continue;
    a.inv_y = inv_y[next++];
    a.x_over_y = a.p->x * a.inv_y;
  }
  Fp12 f = Fp12::one();
  size_t line = 0;
  bool first = true;
  for (int i = kAteLoopNaf.length - 2; i >= 0; --i) {
    if (!first) f = f.square();
    first = false;
    for (const LoopPair& a : active) f = mul_by_line(f, a.q->lines[line], a);
    ++line;
    if (kAteLoopNaf.digit[size_t(i)] != 0) {
      for (const LoopPair& a : active) f = mul_by_line(f, a.q->lines[line], a);
      ++line;
    }
  }
  for (const LoopPair& a : active) {
    f = mul_by_line(f, a.q->lines[line], a);
    f = mul_by_line(f, a.q->lines[line + 1], a);
  }
  return f;
}

Fp12 miller_loop(std::span<const G1Affine> p, std::span<const G2Affine> q) {
  if (p.size() != q.size()) return Fp12::zero();
  std::vector<G2Prepared> prepared;
  std::vector<const G2Prepared*> ptrs;
  prepared.reserve(q.size());
  ptrs.reserve(q.size());
  for (size_t k = 0; k < q.size(); ++k) {
    // Skip the work for pairs that contribute 1.
    prepared.push_back(p[k].is_infinity() ? G2Prepared{} : prepare_g2(q[k]));
    ptrs.push_back(&prepared.back());
  }
  return miller_loop(p, std::span<const G2Prepared* const>(ptrs));
}

}  // namespace enygma
