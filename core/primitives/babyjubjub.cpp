// Baby Jubjub arithmetic in extended twisted Edwards coordinates (X : Y : Z : T), x = X/Z,
// y = Y/Z, T = XY/Z (Hisil, Wong, Carter, Dawson, "Twisted Edwards curves revisited",
// Asiacrypt 2008, section 3: add-2008-hwcd and dbl-2008-hwcd). Both formulas are complete here
// because a is a square and d a non-square in Fr.
#include "core/primitives/babyjubjub.hpp"

#include <sodium.h>

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

BjjPoint pedersen(const Fr& v, const Fr& r) {
  // Straus-Shamir: one doubling chain, adding one of {O, G, H, G + H} per bit pair, the entry
  // picked by a scan of all four (no secret-dependent branch or memory index).
  static const Ext table_gh = add(to_ext(generator_g()), to_ext(generator_h()));
  const Ext table[4] = {ext_identity(), to_ext(generator_g()), to_ext(generator_h()), table_gh};
  U256 vs = v.to_u256(), rs = r.to_u256();
  Ext acc = ext_identity();
  for (unsigned i = Fr::kBits; i-- > 0;) {
    acc = dbl(acc);
    const uint64_t index = uint64_t(vs.bit(i)) | (uint64_t(rs.bit(i)) << 1);
    Ext pick = table[0];
    for (uint64_t e = 1; e < 4; ++e) cmov(pick, table[e], 0 - uint64_t(index == e));
    acc = add(acc, pick);
  }
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
