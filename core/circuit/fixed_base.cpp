// Fixed-base scalar multiplication: window tables, the Montgomery chain and its witness.
//
// Why the incomplete Montgomery additions never meet an exceptional case, for ANY bits
// ----------------------------------------------------------------------------------------
// Let B' = [2^-1 mod l]B (order l, like B). Window t (t = 0..T-1, T <= 125) covers bits 2t and
// 2t+1, digit c_t in {0,1,2,3}, and its table entry is E_t[c] = [(2c - 3) * 4^t]B'. The chain
// starts with A_1 = E_0[c_0] and computes A_{t+1} = A_t + E_t[c_t] for t >= 1. Write
// A_t = [alpha_t]B' with alpha_t = sum over u < t of (2c_u - 3) * 4^u, and tau = (2c_t - 3)*4^t:
//   - alpha_t is odd (its u = 0 term is odd, the others even), so alpha_t != 0, and
//     |alpha_t| <= 3 * (4^t - 1)/3 = 4^t - 1 < 4^t;
//   - 4^t <= |tau| <= 3 * 4^t, so 0 < |tau| - |alpha_t| and |alpha_t| + |tau| < 4^(t+1) <= 4^125
//     = 2^250 < l.
// The affine Montgomery addition of [alpha]B' and [tau]B' fails only if one of them is the
// identity (alpha or tau = 0 mod l) or they are equal or opposite (alpha -+ tau = 0 mod l). All
// of alpha, tau, alpha - tau, alpha + tau are nonzero integers of absolute value below l, so
// none is 0 mod l: x2 != x1 in every addition, lambda is unique and x3, y3 are the true sum.
// The subgroup has odd order, so no point met is of order 2 (v != 0), and A_T != identity
// (alpha_T odd), so the Montgomery-to-Edwards conversion of A_T is valid too.
// The chain computes [alpha_T]B' = [s_low - K_T]B with s_low = sum of c_t * 4^t and
// K_T = (4^T - 1)/2 mod l. The Edwards top table entry for top digit h is
// [h * 2^(2T) + K_T]B, so chain + top = [s]B exactly; that addition is the complete Edwards law.
// Tested at the extremes (s = 0, 1, l - 1, l, p - 1, 2^n - 1) and on random bits.
#include "core/circuit/fixed_base.hpp"

#include <array>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "core/field/batch_inverse.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma::circuit {

namespace {

constexpr unsigned kMaxChainWindows = 125;  // 250 bits: the bound of the proof above
using babyjubjub::kA;
using babyjubjub::kD;

struct Entry {
  MontPoint mont;
  BjjPoint edwards;
  Fr xy;  // x * y, for extended-coordinate additions in the witness
};

struct BaseTables {
  std::array<std::array<Entry, 4>, kMaxChainWindows> windows;
};

struct Ext {  // extended twisted Edwards coordinates (X : Y : Z : T), x = X/Z, y = Y/Z
  Fr x, y, z, t;
};

Ext to_ext(const BjjPoint& p) {
  return {p.x, p.y, Fr::one(), p.x * p.y};
}

// Ext + Ext: add-2008-hwcd (Hisil, Wong, Carter, Dawson, "Twisted Edwards curves revisited",
// 2008), complete here since a is a square and d is not.
Ext add_ext(const Ext& p, const Ext& q) {
  const Fr a = p.x * q.x, b = p.y * q.y, c = kD * p.t * q.t, d = p.z * q.z;
  const Fr e = (p.x + p.y) * (q.x + q.y) - a - b;
  const Fr f = d - c, g = d + c, h = b - kA * a;
  return {e * f, g * h, f * g, e * h};
}

// Points in extended coordinates to affine ones, with one batch inversion.
std::vector<BjjPoint> to_affine(const std::vector<Ext>& pts) {
  std::vector<Fr> inv(pts.size()), scratch(pts.size());
  for (size_t k = 0; k < pts.size(); ++k) inv[k] = pts[k].z;
  batch_inverse(inv.data(), inv.size(), scratch.data());
  std::vector<BjjPoint> out(pts.size());
  for (size_t k = 0; k < pts.size(); ++k) out[k] = {pts[k].x * inv[k], pts[k].y * inv[k]};
  return out;
}

// The windows' points w_t = 4^t w_0 and 3 w_t in extended coordinates, then all to affine and to
// Montgomery form with batch inversions (the same tables as one affine addition and one
// conversion, each with its own inversion, per point: ~1,750 inversions at every start).
BaseTables build_tables(const BjjPoint& base) {
  U256 l_plus_1 = babyjubjub::subgroup_order();
  l_plus_1.w[0] += 1;                                         // l is odd: no carry
  const BjjPoint w0 = babyjubjub::mul(base, shr1(l_plus_1));  // [2^-1 mod l]B
  std::vector<Ext> ext(2 * kMaxChainWindows);
  Ext w = to_ext(w0);
  for (unsigned i = 0; i < kMaxChainWindows; ++i) {
    const Ext w2 = add_ext(w, w);
    ext[2 * i] = w;
    ext[2 * i + 1] = add_ext(w2, w);
    w = add_ext(w2, w2);
  }
  const std::vector<BjjPoint> aff = to_affine(ext);
  // Montgomery form u = (1 + y)/(1 - y), v = u/x (edwards_to_montgomery); of -P: (u, -v).
  std::vector<Fr> den(2 * aff.size()), scratch(2 * aff.size());
  for (size_t k = 0; k < aff.size(); ++k) {
    den[2 * k] = Fr::one() - aff[k].y;
    den[2 * k + 1] = aff[k].x;
  }
  batch_inverse(den.data(), den.size(), scratch.data());
  auto entry = [&](size_t k, bool negate) {
    const Fr u = (Fr::one() + aff[k].y) * den[2 * k];
    const Fr v = u * den[2 * k + 1];
    const BjjPoint p = negate ? babyjubjub::negate(aff[k]) : aff[k];
    return Entry{{u, negate ? -v : v}, p, p.x * p.y};
  };
  BaseTables t;
  for (unsigned i = 0; i < kMaxChainWindows; ++i) {
    t.windows[i] = {entry(2 * i + 1, true), entry(2 * i, true), entry(2 * i, false),
                    entry(2 * i + 1, false)};
  }
  return t;
}

const BaseTables& tables(FixedBase base) {
  if (base == FixedBase::kG) {
    static const BaseTables g = build_tables(babyjubjub::generator_g());
    return g;
  }
  static const BaseTables h = build_tables(babyjubjub::generator_h());
  return h;
}

// Bits handled by the Montgomery chain for an n-bit scalar (even, at most 250).
unsigned chain_bits(size_t n) {
  return n >= 2 * kMaxChainWindows ? 2 * kMaxChainWindows : unsigned(n & ~size_t(1));
}

// The Edwards top table for (base, n): entry h = [h * 2^chain + K_T]B.
const std::vector<BjjPoint>& top_table(FixedBase base, size_t n) {
  static std::mutex mu;
  static std::map<std::pair<int, size_t>, std::unique_ptr<const std::vector<BjjPoint>>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[{int(base), n}];
  if (!slot) {
    const unsigned main = chain_bits(n), windows = main / 2, top = unsigned(n) - main;
    const BjjScalar two = BjjScalar::from_u64(2);
    const BjjScalar k_t =
        (BjjScalar::from_u64(4).pow(U256::from_u64(windows)) - BjjScalar::one()) * two.inverse();
    const BjjScalar step = two.pow(U256::from_u64(main));
    // [K_T]B, then [2^chain]B added once per entry (B has order l, so this is the same as a
    // multiplication by h 2^chain + K_T mod l per entry), to affine with one batch inversion.
    const Ext first = to_ext(babyjubjub::mul(fixed_base_point(base), k_t.to_u256()));
    const Ext stride = to_ext(babyjubjub::mul(fixed_base_point(base), step.to_u256()));
    std::vector<Ext> ext(size_t(1) << top);
    ext[0] = first;
    for (size_t h = 1; h < ext.size(); ++h) ext[h] = add_ext(ext[h - 1], stride);
    slot = std::make_unique<const std::vector<BjjPoint>>(to_affine(ext));
  }
  return *slot;
}

// dst |= src & mask, limb by limb (mask all ones or zero).
void or_masked(Fr& dst, const Fr& src, uint64_t mask) {
  for (int i = 0; i < 4; ++i) dst.limbs[i] |= src.limbs[i] & mask;
}

// Constant-time choice of entry `digit` (0..3) of a window: no memory access depends on the
// secret digit.
Entry select_entry(const std::array<Entry, 4>& w, unsigned digit) {
  Entry out{};
  for (unsigned c = 0; c < 4; ++c) {
    const uint64_t mask = 0 - uint64_t(c == digit);
    or_masked(out.mont.u, w[c].mont.u, mask);
    or_masked(out.mont.v, w[c].mont.v, mask);
    or_masked(out.edwards.x, w[c].edwards.x, mask);
    or_masked(out.edwards.y, w[c].edwards.y, mask);
    or_masked(out.xy, w[c].xy, mask);
  }
  return out;
}

// Ext + affine (Z2 = 1): add-2008-hwcd of Hisil, Wong, Carter, Dawson, "Twisted Edwards curves
// revisited" (2008), complete here since a is a square and d is not.
Ext add_mixed(const Ext& p, const Entry& q) {
  const Fr a = p.x * q.edwards.x, b = p.y * q.edwards.y, c = kD * p.t * q.xy, d = p.z;
  const Fr e = (p.x + p.y) * (q.edwards.x + q.edwards.y) - a - b;
  const Fr f = d - c, g = d + c, h = b - kA * a;
  return {e * f, g * h, f * g, e * h};
}

// Witness of the chain: for step t = 1..T-1, lambda_t and the Montgomery coordinates of
// A_{t+1}, computed with two batch inversions instead of one inversion per addition.
struct ChainWitness {
  SecureVector<Fr> lambda, u, v;  // index t - 1 for step t
};

ChainWitness chain_witness(const BaseTables& tab, std::span<const unsigned> digits) {
  const size_t windows = digits.size();
  ChainWitness w;
  if (windows < 2) return w;
  const size_t steps = windows - 1;
  // Partial sums A_1 .. A_T in extended coordinates.
  SecureVector<Fr> xs(windows), ys(windows), zs(windows), scratch(windows);
  SecureVector<Entry> chosen(windows);
  for (size_t t = 0; t < windows; ++t) chosen[t] = select_entry(tab.windows[t], digits[t]);
  Ext acc{chosen[0].edwards.x, chosen[0].edwards.y, Fr::one(), chosen[0].xy};
  for (size_t t = 0; t < windows; ++t) {
    if (t > 0) acc = add_mixed(acc, chosen[t]);
    xs[t] = acc.x;
    ys[t] = acc.y;
    zs[t] = acc.z;
  }
  // Straight from extended to Montgomery coordinates: u = (1 + y)/(1 - y) = (Z + Y)/(Z - Y) and
  // v = u/x = (Z + Y)Z/((Z - Y)X), over the common denominator (Z - Y)X: one batch inversion.
  SecureVector<Fr> den(windows);
  for (size_t t = 0; t < windows; ++t) den[t] = (zs[t] - ys[t]) * xs[t];
  batch_inverse(den.data(), windows, scratch.data());
  w.u.resize(steps);
  w.v.resize(steps);
  w.lambda.resize(steps);
  SecureVector<Fr> mu(windows), mv(windows), lambda_den(steps);
  for (size_t t = 0; t < windows; ++t) {
    const Fr k = (zs[t] + ys[t]) * den[t];
    mu[t] = k * xs[t];
    mv[t] = k * zs[t];
  }
  // Step t adds E_t[c_t] to A_t (index t - 1): lambda = (v2 - v1)/(u2 - u1).
  for (size_t t = 1; t < windows; ++t) lambda_den[t - 1] = chosen[t].mont.u - mu[t - 1];
  batch_inverse(lambda_den.data(), steps, scratch.data());
  for (size_t t = 1; t < windows; ++t) {
    w.lambda[t - 1] = (chosen[t].mont.v - mv[t - 1]) * lambda_den[t - 1];
    w.u[t - 1] = mu[t];
    w.v[t - 1] = mv[t];
  }
  return w;
}

unsigned bit_value(const Var& v) {
  return v.value().is_zero() ? 0u : 1u;
}

}  // namespace

const BjjPoint& fixed_base_point(FixedBase base) {
  return base == FixedBase::kG ? babyjubjub::generator_g() : babyjubjub::generator_h();
}

LcPair lookup_pair(CircuitBuilder& b, std::span<const Var> bits, std::span<const Fr> first,
                   std::span<const Fr> second, std::string_view label) {
  const unsigned m = unsigned(bits.size());
  if (m > 4 || first.size() != (size_t(1) << m) || second.size() != first.size()) std::abort();
  if (m <= 2 && !b.records_shape()) {
    // Witness fast path: with boolean bits the combination is the table entry (chosen without a
    // secret-dependent memory access); b0*b1 is the one wire to allocate.
    const Fr& b0 = m >= 1 ? bits[0].value() : Fr::zero();
    const Fr& b1 = m >= 2 ? bits[1].value() : Fr::zero();
    const bool boolean = (b0.is_zero() || b0 == Fr::one()) && (b1.is_zero() || b1 == Fr::one());
    if (boolean) {
      if (m == 2) b.mul(bits[0], bits[1], "b0*b1");
      const unsigned index = unsigned(!b0.is_zero()) + 2 * unsigned(!b1.is_zero());
      Fr f = Fr::zero(), s = Fr::zero();
      for (unsigned i = 0; i < first.size(); ++i) {
        const uint64_t mask = 0 - uint64_t(i == index);
        or_masked(f, first[i], mask);
        or_masked(s, second[i], mask);
      }
      return {Lc::value_only(f), Lc::value_only(s)};
    }
  }
  CircuitBuilder::Scope scope(b, label);
  // Moebius transform: f(b) = sum over subsets S of coef[S] * prod_{i in S} b_i.
  std::array<Fr, 16> cf{}, cs{};
  for (size_t i = 0; i < first.size(); ++i) {
    cf[i] = first[i];
    cs[i] = second[i];
  }
  for (unsigned i = 0; i < m; ++i) {
    for (unsigned s = 0; s < (1u << m); ++s) {
      if (s & (1u << i)) {
        cf[s] -= cf[s ^ (1u << i)];
        cs[s] -= cs[s ^ (1u << i)];
      }
    }
  }
  // The low part over bits 0, 1 (monomials 1, b0, b1, b0*b1) for the high subset `high`.
  Lc b01;
  if (m >= 2) b01 = Lc(b.mul(bits[0], bits[1], "b0*b1"));
  auto low = [&](const std::array<Fr, 16>& c, unsigned high) {
    Lc l = Lc::constant(c[high]);
    if (m >= 1) l.add_scaled(Lc(bits[0]), c[high | 1]);
    if (m >= 2) {
      l.add_scaled(Lc(bits[1]), c[high | 2]);
      l.add_scaled(b01, c[high | 3]);
    }
    return l;
  };
  LcPair out{low(cf, 0), low(cs, 0)};
  if (m >= 3) {
    Lc b23;
    if (m == 4) b23 = Lc(b.mul(bits[2], bits[3], "b2*b3"));
    // high subsets: {2} -> 4, {3} -> 8, {2,3} -> 12, with their monomials
    const unsigned highs[3] = {4, 8, 12};
    for (unsigned h : highs) {
      if (h >= (1u << m)) continue;
      const Lc mono = h == 4 ? Lc(bits[2]) : h == 8 ? Lc(bits[3]) : b23;
      out.first += Lc(b.mul(mono, low(cf, h), "high*first"));
      out.second += Lc(b.mul(mono, low(cs, h), "high*second"));
    }
  }
  return out;
}

size_t fixed_base_mul_cost(size_t n) {
  const size_t main = chain_bits(n), windows = main / 2, top = n - main;
  size_t cost = windows + (windows > 0 ? 3 * (windows - 1) + 2 : 0);  // lookups, adds, convert
  const size_t lookup_cost[5] = {0, 0, 1, 3, 8};
  cost += lookup_cost[top];
  if (windows > 0) cost += top > 0 ? 6 : 3;  // complete addition (constant one without top bits)
  return cost;
}

PointLc fixed_base_mul(CircuitBuilder& b, FixedBase base, std::span<const Var> bits,
                       std::string_view label) {
  const size_t n = bits.size();
  if (n == 0 || n > 254) std::abort();
  CircuitBuilder::Scope scope(b, label);
  const BaseTables& tab = tables(base);
  const unsigned main = chain_bits(n), windows = main / 2;
  const std::vector<BjjPoint>& top = top_table(base, n);

  std::vector<Fr> top_x, top_y;
  for (const BjjPoint& p : top) {
    top_x.push_back(p.x);
    top_y.push_back(p.y);
  }
  if (windows == 0) {
    LcPair t = lookup_pair(b, bits, top_x, top_y, "top");
    return {std::move(t.first), std::move(t.second)};
  }

  ChainWitness w;
  if (b.computes_witness()) {
    std::vector<unsigned> digits(windows);
    for (unsigned t = 0; t < windows; ++t) {
      digits[t] = bit_value(bits[2 * t]) + 2 * bit_value(bits[2 * t + 1]);
    }
    w = chain_witness(tab, digits);
    sodium_memzero(digits.data(), digits.size() * sizeof(unsigned));
  }

  MontPointLc acc;
  for (unsigned t = 0; t < windows; ++t) {
    CircuitBuilder::Scope ws(b, "window", int(t));
    std::array<Fr, 4> us, vs;
    for (unsigned c = 0; c < 4; ++c) {
      us[c] = tab.windows[t][c].mont.u;
      vs[c] = tab.windows[t][c].mont.v;
    }
    LcPair e = lookup_pair(b, bits.subspan(2 * t, 2), us, vs, "lookup");
    if (t == 0) {
      acc = {std::move(e.first), std::move(e.second)};
      continue;
    }
    const bool have = b.computes_witness();
    Var lambda = b.private_wire(have ? w.lambda[t - 1] : Fr::zero());
    Var x3 = b.private_wire(have ? w.u[t - 1] : Fr::zero());
    Var y3 = b.private_wire(have ? w.v[t - 1] : Fr::zero());
    // Montgomery addition (B = 1): lambda = (y2 - y1)/(x2 - x1), x3 = lambda^2 - A - x1 - x2,
    // y3 = lambda*(x1 - x3) - y1.
    b.enforce_lazy(
        [&] {
          return std::tuple{Lc(lambda), e.first - acc.u, e.second - acc.v};
        },
        "lambda*(x2 - x1) = y2 - y1");
    b.enforce_lazy(
        [&] {
          return std::tuple{Lc(lambda), Lc(lambda), Lc(x3) + acc.u + e.first + montgomery_a()};
        },
        "lambda^2 = A + x1 + x2 + x3");
    b.enforce_lazy(
        [&] {
          return std::tuple{Lc(lambda), acc.u - Lc(x3), Lc(y3) + acc.v};
        },
        "lambda*(x1 - x3) = y3 + y1");
    acc = {Lc(x3), Lc(y3)};
  }
  PointLc chain = montgomery_to_edwards(b, acc, "to edwards");
  if (main == n) return edwards_add_constant(b, chain, top[0], "offset");
  LcPair t = lookup_pair(b, bits.subspan(main), top_x, top_y, "top");
  return edwards_add(b, chain, {std::move(t.first), std::move(t.second)}, "add top");
}

}  // namespace enygma::circuit
