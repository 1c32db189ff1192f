// Baby Jubjub arithmetic in extended twisted Edwards coordinates (X : Y : Z : T), x = X/Z,
// y = Y/Z, T = XY/Z (Hisil, Wong, Carter, Dawson, "Twisted Edwards curves revisited",
// Asiacrypt 2008, section 3: add-2008-hwcd and dbl-2008-hwcd). Both formulas are complete here
// because a is a square and d a non-square in Fr.
#include "core/primitives/babyjubjub.hpp"

#include <sodium.h>

#include <vector>

#include "core/field/batch_inverse.hpp"

namespace enygma::babyjubjub {
namespace {

constexpr U256 kL = BjjScalarParams::kModulus;

struct Ext {
  Fr x, y, z, t;
};

Ext to_ext(const BjjPoint& p) {
  return {p.x, p.y, Fr::one(), p.x * p.y};
}

BjjPoint to_affine(const Ext& p) {
  Fr zi = p.z.inverse();
  return {p.x * zi, p.y * zi};
}

constexpr Ext ext_identity() {
  return {Fr::zero(), Fr::one(), Fr::one(), Fr::zero()};
}

// add-2008-hwcd (general a): 9M + 2 multiplications by the constants a and d.
Ext add(const Ext& p, const Ext& q) {
  Fr a = p.x * q.x, b = p.y * q.y, c = kD * p.t * q.t, d = p.z * q.z;
  Fr e = (p.x + p.y) * (q.x + q.y) - a - b;
  Fr f = d - c, g = d + c, h = b - kA * a;
  return {e * f, g * h, f * g, e * h};
}

// dbl-2008-hwcd (general a).
Ext dbl(const Ext& p) {
  Fr a = p.x.square(), b = p.y.square(), c = p.z.square().dbl(), d = kA * a;
  Fr e = (p.x + p.y).square() - a - b;
  Fr g = d + b, f = g - c, h = d - b;
  return {e * f, g * h, f * g, e * h};
}

// r = mask ? a : r, mask all ones or zero (no branch on secret bits).
inline void cmov(Fr& r, const Fr& a, uint64_t mask) {
  for (int i = 0; i < 4; ++i) r.limbs[i] = (r.limbs[i] & ~mask) | (a.limbs[i] & mask);
}
inline void cmov(Ext& r, const Ext& a, uint64_t mask) {
  cmov(r.x, a.x, mask);
  cmov(r.y, a.y, mask);
  cmov(r.z, a.z, mask);
  cmov(r.t, a.t, mask);
}

// x mod l for x < l * 2^steps, by conditional subtraction of l * 2^(steps-1), ..., l.
U256 reduce_mod_l(U256 x, unsigned steps) {
  for (unsigned s = steps; s-- > 0;) {
    U256 ls = kL;
    for (unsigned i = 0; i < s; ++i) add_carry(ls, ls, ls);
    U256 diff;
    uint64_t borrow = sub_borrow(diff, x, ls);
    const uint64_t keep = 0 - borrow;  // borrowed: x < l * 2^s, keep x
    for (int i = 0; i < 4; ++i) x.w[i] = (x.w[i] & keep) | (diff.w[i] & ~keep);
  }
  return x;
}

}  // namespace

BjjPoint identity() {
  return {Fr::zero(), Fr::one()};
}

bool on_curve(const BjjPoint& p) {
  Fr x2 = p.x.square(), y2 = p.y.square();
  return kA * x2 + y2 == Fr::one() + kD * x2 * y2;
}

BjjPoint add(const BjjPoint& p, const BjjPoint& q) {
  return to_affine(add(to_ext(p), to_ext(q)));
}

BjjPoint negate(const BjjPoint& p) {
  return {-p.x, p.y};
}

BjjPoint mul(const BjjPoint& p, const U256& scalar) {
  const Ext base = to_ext(p);
  Ext acc = ext_identity();
  for (unsigned i = 256; i-- > 0;) {
    acc = dbl(acc);
    Ext sum = add(acc, base);
    cmov(acc, sum, 0 - uint64_t(scalar.bit(i)));
  }
  BjjPoint out = to_affine(acc);
  sodium_memzero(&acc, sizeof(acc));
  return out;
}

const U256& subgroup_order() {
  return BjjScalarParams::kModulus;
}

const BjjPoint& generator_g() {
  static const BjjPoint g{
      Fr::constant("16540640123574156134436876038791482806971768689494387082833631921987005038935"),
      Fr::constant(
          "20819045374670962167435360035096875258406992893633759881276124905556507972311")};
  return g;
}

const BjjPoint& generator_h() {
  static const BjjPoint h{
      Fr::constant("10100005861917718053548237064487763771145251762383025193119768015180892676690"),
      Fr::constant("7512830269827713629724023825249861327768672768516116945507944076335453576011")};
  return h;
}

namespace {

// Fixed-base tables of G and H for Pedersen: window i of 4 bits holds d * 16^i * B for d = 0..15,
// normalized to Z = 1, so that v * B is 64 additions of looked-up entries, no doubling. Made once
// (one batch inversion per base).
constexpr unsigned kCombBits = 4, kCombWindows = 256 / kCombBits, kCombEntries = 1u << kCombBits;
using CombTable = std::vector<Ext>;  // kCombWindows * kCombEntries, window-major

CombTable make_comb(const BjjPoint& base) {
  CombTable table(kCombWindows * kCombEntries);
  Ext window_base = to_ext(base);  // 16^i * B
  for (unsigned i = 0; i < kCombWindows; ++i) {
    Ext* w = &table[i * kCombEntries];
    w[0] = ext_identity();
    for (unsigned d = 1; d < kCombEntries; ++d) w[d] = add(w[d - 1], window_base);
    window_base = add(w[kCombEntries - 1], window_base);
  }
  std::vector<Fr> inv(table.size()), scratch(table.size());
  for (size_t k = 0; k < table.size(); ++k) inv[k] = table[k].z;
  batch_inverse(inv.data(), inv.size(), scratch.data(), /*public_values=*/true);
  for (size_t k = 0; k < table.size(); ++k)
    table[k] = to_ext({table[k].x * inv[k], table[k].y * inv[k]});
  return table;
}

// acc + s * (the table's base), 4 bits at a time: every window's entry chosen by a scan of all
// sixteen (no memory access or branch depends on the secret digits).
void add_comb(Ext& acc, const CombTable& table, const U256& s) {
  for (unsigned i = 0; i < kCombWindows; ++i) {
    const unsigned digit = unsigned(s.w[i / 16] >> (4 * (i % 16))) & (kCombEntries - 1);
    Ext pick = table[i * kCombEntries];
    for (unsigned d = 1; d < kCombEntries; ++d) {
      cmov(pick, table[i * kCombEntries + d], 0 - uint64_t(d == digit));
    }
    acc = add(acc, pick);
    sodium_memzero(&pick, sizeof pick);
  }
}

}  // namespace

BjjPoint pedersen(const Fr& v, const Fr& r) {
  static const CombTable comb_g = make_comb(generator_g()), comb_h = make_comb(generator_h());
  U256 vs = v.to_u256(), rs = r.to_u256();
  Ext acc = ext_identity();
  add_comb(acc, comb_g, vs);
  add_comb(acc, comb_h, rs);
  BjjPoint out = to_affine(acc);
  sodium_memzero(&vs, sizeof(vs));
  sodium_memzero(&rs, sizeof(rs));
  sodium_memzero(&acc, sizeof(acc));
  return out;
}

U256 mod_l(const Fr& x) {
  return reduce_mod_l(x.to_u256(), 3);
}  // p < 8l
U256 mod_l(const U256& x) {
  return reduce_mod_l(x, 6);
}  // 2^256 < 64l

BjjPoint torsion_point_order2() {
  return {Fr::zero(), -Fr::one()};
}

bool in_subgroup(const BjjPoint& p) {
  return on_curve(p) && mul(p, kL) == identity();
}

}  // namespace enygma::babyjubjub
