#include "core/poly/ntt_f64.hpp"

#include <cstdint>

#include "core/field/wasm/f64_lanes.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma::ntt_detail {

namespace {

using f64_lanes::Fe2;
using f64_lanes::kFe2Words;

constexpr size_t kPairGrain = 512;  // butterfly pairs per parallel chunk

// Pair i of a polynomial or table in the lanes' form.
Fe2 get(const uint64_t* v, size_t i) {
  return f64_lanes::load_fe2(v + kFe2Words * i);
}
void put(uint64_t* v, size_t i, const Fe2& x) {
  f64_lanes::store_fe2(v + kFe2Words * i, x);
}
// (x[0], y[0]) and (x[1], y[1]) of every limb.
Fe2 lanes0(const Fe2& x, const Fe2& y) {
  Fe2 r;
  for (int i = 0; i < 5; ++i) r.l[i] = f64_lanes::lanes0(x.l[i], y.l[i]);
  return r;
}
Fe2 lanes1(const Fe2& x, const Fe2& y) {
  Fe2 r;
  for (int i = 0; i < 5; ++i) r.l[i] = f64_lanes::lanes1(x.l[i], y.l[i]);
  return r;
}

// f.operator()<kCount>(p) for the items p, p + 1 of [begin, end) (kCount = 2) and a last one
// alone (kCount = 1).
template <class Fn>
void in_twos(size_t begin, size_t end, Fn f) {
  size_t p = begin;
  for (; p + 2 <= end; p += 2) f.template operator()<2>(p);
  if (p < end) f.template operator()<1>(p);
}

// One stage (half-size h = 2^log_h) over the n / 2 pairs of v, butterflies b = 2p and 2p + 1
// together: butterfly b joins lo = 2h (b / h) + b % h and lo + h with twiddle w_(b % h) (halved).
// Decimation in frequency: (u, v) -> (u + v, (u - v) w); in time: (u + v w, u - v w).
// For h >= 2 the two butterflies' elements are the lanes of pairs lo / 2 and (lo + h) / 2, and
// their twiddles pair (b % h) / 2 of the stage's; for h = 1 (every twiddle omega^0 = 1, no
// products) butterflies (x0, x1) and (x2, x3) are the lanes of pairs (x0, x1) and (x2, x3),
// exchanged into (x0, x2) and (x1, x3) and back.
template <bool kDif>
void stage(uint64_t* v, size_t n, unsigned log_h, const uint64_t* tw, ThreadPool& pool) {
  const size_t h = size_t(1) << log_h;
  if (h == 1) {
    pool.parallel_for(
        n / 4,
        [&](size_t p0, size_t p1) {
          for (size_t p = p0; p < p1; ++p) {
            const Fe2 x01 = get(v, 2 * p), x23 = get(v, 2 * p + 1);
            const Fe2 u = lanes0(x01, x23), w = lanes1(x01, x23);
            const Fe2 s = f64_lanes::add<Fr>(u, w), d = f64_lanes::sub<Fr>(u, w);
            put(v, 2 * p, lanes0(s, d));
            put(v, 2 * p + 1, lanes1(s, d));
          }
        },
        kPairGrain);
    return;
  }
  const uint64_t* w = tw + kFe2Words * (h / 2 - 1);
  // Butterfly pairs p (and p + 1, their products interleaved: f64_lanes::mul_many).
  auto run = [&]<size_t kCount>(size_t p) {
    Fe2 u[2], x[2], t[2], y0[2], y1[2];
    size_t lo[2];
    for (size_t c = 0; c < kCount; ++c) {
      const size_t b = 2 * (p + c), j = b & (h - 1);
      lo[c] = ((b >> log_h) << (log_h + 1)) + j;
      u[c] = get(v, lo[c] / 2);
      x[c] = get(v, (lo[c] + h) / 2);
      t[c] = get(w, j / 2);
    }
    if constexpr (kDif) {
      for (size_t c = 0; c < kCount; ++c) {
        y0[c] = f64_lanes::add<Fr>(u[c], x[c]);
        x[c] = f64_lanes::sub_lazy<Fr>(u[c], x[c]);
      }
      f64_lanes::mul_many<Fr, false, kCount>(y1, x, t);
    } else {
      f64_lanes::mul_many<Fr, false, kCount>(x, x, t);
      for (size_t c = 0; c < kCount; ++c) {
        y0[c] = f64_lanes::add<Fr>(u[c], x[c]);
        y1[c] = f64_lanes::sub<Fr>(u[c], x[c]);
      }
    }
    for (size_t c = 0; c < kCount; ++c) {
      put(v, lo[c] / 2, y0[c]);
      put(v, (lo[c] + h) / 2, y1[c]);
    }
  };
  pool.parallel_for(
      n / 4, [&](size_t p0, size_t p1) { in_twos(p0, p1, run); }, kPairGrain);
}

// A polynomial of n elements into the lanes' form v, its inverse transform, the coset factors,
// its forward transform.
void to_odd_coset(const F64Tables& tables, const Fr* x, uint64_t* v, unsigned log_n,
                  ThreadPool& pool) {
  const size_t n = tables.n;
  pool.parallel_for(
      n / 2,
      [&](size_t p0, size_t p1) {
        for (size_t p = p0; p < p1; ++p) {
          put(v, p, f64_lanes::load(x[2 * p].limbs, x[2 * p + 1].limbs));
        }
      },
      kPairGrain);
  for (unsigned log_h = log_n; log_h-- > 0;) stage<true>(v, n, log_h, tables.inverse.data(), pool);
  const Fr* factor = tables.factor;
  auto scale = [&]<size_t kCount>(size_t p) {
    Fe2 y[2], f[2];
    for (size_t c = 0; c < kCount; ++c) {
      y[c] = get(v, p + c);
      f[c] = f64_lanes::load(factor[2 * (p + c)].limbs, factor[2 * (p + c) + 1].limbs);
    }
    f64_lanes::mul_many<Fr, true, kCount>(y, y, f);
    for (size_t c = 0; c < kCount; ++c) put(v, p + c, y[c]);
  };
  pool.parallel_for(
      n / 2, [&](size_t p0, size_t p1) { in_twos(p0, p1, scale); }, kPairGrain);
  for (unsigned log_h = 0; log_h < log_n; ++log_h) {
    stage<false>(v, n, log_h, tables.forward.data(), pool);
  }
}

void to_elements(const uint64_t* v, Fr* x, size_t n, ThreadPool& pool) {
  pool.parallel_for(
      n / 2,
      [&](size_t p0, size_t p1) {
        for (size_t p = p0; p < p1; ++p)
          f64_lanes::store(x[2 * p].limbs, x[2 * p + 1].limbs, get(v, p));
      },
      kPairGrain);
}

// Pairs (x[2i], x[2i + 1]) of the scalar values, in the lanes' form.
std::vector<uint64_t> lane_pairs(const Fr* x, size_t pairs) {
  std::vector<uint64_t> v(kFe2Words * pairs);
  for (size_t p = 0; p < pairs; ++p)
    put(v.data(), p, f64_lanes::load(x[2 * p].limbs, x[2 * p + 1].limbs));
  return v;
}

}  // namespace

F64Tables make_f64_tables(const std::vector<Fr>& twiddles, const std::vector<Fr>& factor) {
  F64Tables t;
  t.n = factor.size();
  const Fr half = Fr::from_u64(2).inverse();
  // Stage h's twiddles at [h - 1, 2h - 1) (h >= 2), pairs at [h / 2 - 1, h - 1).
  std::vector<Fr> forward(t.n), inverse(t.n);
  for (size_t h = 2; h < t.n; h *= 2) {
    const Fr* tw = &twiddles[h - 1];
    for (size_t j = 0; j < h; ++j) {
      forward[h - 2 + j] = tw[j] * half;
      // omega_2h^-j = -omega_2h^(h - j) for j >= 1
      inverse[h - 2 + j] = j == 0 ? half : -(tw[h - j] * half);
    }
  }
  t.forward = lane_pairs(forward.data(), t.n / 2 - 1);
  t.inverse = lane_pairs(inverse.data(), t.n / 2 - 1);
  t.factor = factor.data();
  return t;
}

namespace {
unsigned log_size(size_t n) {
  unsigned log_n = 0;
  while ((size_t(1) << log_n) < n) ++log_n;
  return log_n;
}
}  // namespace

void f64_to_odd_coset(const F64Tables& tables, Fr* a, ThreadPool& pool) {
  const size_t n = tables.n;
  SecureVector<uint64_t> v(kFe2Words * (n / 2));
  to_odd_coset(tables, a, v.data(), log_size(n), pool);
  to_elements(v.data(), a, n, pool);
}

void f64_odd_coset_product(const F64Tables& tables, Fr* a, Fr* b, Fr* c, ThreadPool& pool) {
  const size_t n = tables.n;
  const unsigned log_n = log_size(n);
  // One polynomial at a time in the lanes' form (witness-derived: wiped when released).
  SecureVector<uint64_t> v(kFe2Words * (n / 2));
  for (Fr* x : {b, c}) {
    to_odd_coset(tables, x, v.data(), log_n, pool);
    to_elements(v.data(), x, n, pool);
  }
  to_odd_coset(tables, a, v.data(), log_n, pool);
  auto product = [&]<size_t kCount>(size_t p) {
    Fe2 ab[2], y[2];
    for (size_t k = 0; k < kCount; ++k) {
      ab[k] = get(v.data(), p + k);
      y[k] = f64_lanes::load(b[2 * (p + k)].limbs, b[2 * (p + k) + 1].limbs);
    }
    f64_lanes::mul_many<Fr, true, kCount>(ab, ab, y);
    for (size_t k = 0; k < kCount; ++k) {
      const size_t i = 2 * (p + k);
      f64_lanes::store(a[i].limbs, a[i + 1].limbs,
                       f64_lanes::sub<Fr>(ab[k], f64_lanes::load(c[i].limbs, c[i + 1].limbs)));
    }
  };
  pool.parallel_for(
      n / 2, [&](size_t p0, size_t p1) { in_twos(p0, p1, product); }, kPairGrain);
}

}  // namespace enygma::ntt_detail
