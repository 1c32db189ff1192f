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

// n elements into the lanes' form v (n / 2 pairs).
void to_pairs(const Fr* x, uint64_t* v, size_t n, ThreadPool& pool) {
  pool.parallel_for(
      n / 2,
      [&](size_t p0, size_t p1) {
        for (size_t p = p0; p < p1; ++p) {
          put(v, p, f64_lanes::load(x[2 * p].limbs, x[2 * p + 1].limbs));
        }
      },
      kPairGrain);
}

// A polynomial of tables.n elements in the lanes' form v: its inverse transform, the coset
// factors, its forward transform.
void transform(const F64Tables& tables, uint64_t* v, unsigned log_n, ThreadPool& pool) {
  const size_t n = tables.n;
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

// A polynomial of n elements into the lanes' form v, to the odd coset.
void to_odd_coset(const F64Tables& tables, const Fr* x, uint64_t* v, unsigned log_n,
                  ThreadPool& pool) {
  to_pairs(x, v, tables.n, pool);
  transform(tables, v, log_n, pool);
}

// n = 3m (EvaluationDomain, core/poly/evaluation_domain.hpp): the radix-3 pass in, the m-domain's
// transform on each third, the radix-3 pass out, on the lanes' form of the polynomial (pair p of
// each third holds elements 2p and 2p + 1 of it, so the three elements of a radix-3 step are the
// same lane of pairs p, p + m / 2 and p + m). Every value stays below m: f64_lanes' products of
// two such values in the scalar form (kR256).
void to_odd_coset_radix3(const F64Tables& tables, const F64Radix3Tables& r3, const Fr* x,
                         uint64_t* v, unsigned log_m, ThreadPool& pool) {
  const size_t m = tables.n, half = m / 2;
  to_pairs(x, v, 3 * m, pool);
  const Fe2 w = get(r3.constants.data(), 0), w_inv = get(r3.constants.data(), 1),
            third = get(r3.constants.data(), 2);
  pool.parallel_for(
      half,
      [&](size_t p0, size_t p1) {
        for (size_t p = p0; p < p1; ++p) {
          const Fe2 x0 = get(v, p), x1 = get(v, p + half), x2 = get(v, p + 2 * half);
          Fe2 t[2];
          const Fe2 d[2] = {f64_lanes::sub<Fr>(x1, x2), f64_lanes::sub<Fr>(x2, x1)};
          const Fe2 ws[2] = {w_inv, w_inv};
          f64_lanes::mul_many<Fr, true, 2>(t, ws, d);
          Fe2 y[2] = {f64_lanes::add<Fr>(f64_lanes::sub<Fr>(x0, x2), t[0]),
                      f64_lanes::add<Fr>(f64_lanes::sub<Fr>(x0, x1), t[1])};
          const Fe2 tw[2] = {get(r3.in[0].data(), p), get(r3.in[1].data(), p)};
          f64_lanes::mul_many<Fr, true, 2>(y, y, tw);
          Fe2 s = f64_lanes::add<Fr>(f64_lanes::add<Fr>(x0, x1), x2);
          f64_lanes::mul_many<Fr, true, 1>(&s, &s, &third);
          put(v, p, s);
          put(v, p + half, y[0]);
          put(v, p + 2 * half, y[1]);
        }
      },
      kPairGrain);
  for (size_t j = 0; j < 3; ++j) transform(tables, v + kFe2Words * j * half, log_m, pool);
  pool.parallel_for(
      half,
      [&](size_t p0, size_t p1) {
        for (size_t p = p0; p < p1; ++p) {
          Fe2 u[2] = {get(v, p + half), get(v, p + 2 * half)};
          const Fe2 tw[2] = {get(r3.out[0].data(), p), get(r3.out[1].data(), p)};
          f64_lanes::mul_many<Fr, true, 2>(u, u, tw);
          const Fe2 u0 = get(v, p);
          Fe2 t[2];
          const Fe2 d[2] = {f64_lanes::sub<Fr>(u[0], u[1]), f64_lanes::sub<Fr>(u[1], u[0])};
          const Fe2 ws[2] = {w, w};
          f64_lanes::mul_many<Fr, true, 2>(t, ws, d);
          put(v, p, f64_lanes::add<Fr>(f64_lanes::add<Fr>(u0, u[0]), u[1]));
          put(v, p + half, f64_lanes::add<Fr>(f64_lanes::sub<Fr>(u0, u[1]), t[0]));
          put(v, p + 2 * half, f64_lanes::add<Fr>(f64_lanes::sub<Fr>(u0, u[0]), t[1]));
        }
      },
      kPairGrain);
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

namespace {

// a = a b - c from a's odd-coset values in the lanes' form (v) and b's and c's as elements.
void product(const uint64_t* v, Fr* a, const Fr* b, const Fr* c, size_t n, ThreadPool& pool) {
  auto run = [&]<size_t kCount>(size_t p) {
    Fe2 ab[2], y[2];
    for (size_t k = 0; k < kCount; ++k) {
      ab[k] = get(v, p + k);
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
      n / 2, [&](size_t p0, size_t p1) { in_twos(p0, p1, run); }, kPairGrain);
}

// One polynomial at a time to the odd coset in the lanes' form (witness-derived: wiped when
// released), b's and c's back to elements, then a = a b - c.
template <class ToOddCoset>
void odd_coset_product(size_t n, Fr* a, Fr* b, Fr* c, ThreadPool& pool, ToOddCoset to_odd_coset) {
  SecureVector<uint64_t> v(kFe2Words * (n / 2));
  for (Fr* x : {b, c}) {
    to_odd_coset(x, v.data());
    to_elements(v.data(), x, n, pool);
  }
  to_odd_coset(a, v.data());
  product(v.data(), a, b, c, n, pool);
}

}  // namespace

void f64_odd_coset_product(const F64Tables& tables, Fr* a, Fr* b, Fr* c, ThreadPool& pool) {
  const unsigned log_n = log_size(tables.n);
  odd_coset_product(tables.n, a, b, c, pool,
                    [&](const Fr* x, uint64_t* v) { to_odd_coset(tables, x, v, log_n, pool); });
}

F64Radix3Tables make_f64_radix3_tables(const std::vector<Fr> (&in)[2],
                                       const std::vector<Fr> (&out)[2], const Fr& w,
                                       const Fr& w_inv, const Fr& third) {
  F64Radix3Tables t;
  for (int j = 0; j < 2; ++j) {
    t.in[j] = lane_pairs(in[j].data(), in[j].size() / 2);
    t.out[j] = lane_pairs(out[j].data(), out[j].size() / 2);
  }
  const Fr constants[6] = {w, w, w_inv, w_inv, third, third};
  t.constants = lane_pairs(constants, 3);
  return t;
}

void f64_odd_coset_product_radix3(const F64Tables& tables, const F64Radix3Tables& r3, Fr* a, Fr* b,
                                  Fr* c, ThreadPool& pool) {
  const unsigned log_m = log_size(tables.n);
  odd_coset_product(3 * tables.n, a, b, c, pool, [&](const Fr* x, uint64_t* v) {
    to_odd_coset_radix3(tables, r3, x, v, log_m, pool);
  });
}

}  // namespace enygma::ntt_detail
