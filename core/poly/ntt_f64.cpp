#include "core/poly/ntt_f64.hpp"

#include <cstdint>

#include "core/field/wasm/f64_lanes.hpp"

namespace enygma::ntt_detail {

namespace {

using f64_lanes::Fe2;

constexpr size_t kPairGrain = 512;  // butterfly pairs per parallel chunk

Fe2 load(const Fr& x0, const Fr& x1) {
  return f64_lanes::load(x0.limbs, x1.limbs);
}
void store(Fr& o0, Fr& o1, const Fe2& v) {
  f64_lanes::store(o0.limbs, o1.limbs, v);
}

// One stage (half-size h = 2^log_h) over a[0, n), butterflies b = 2p and 2p + 1 together:
// butterfly b joins lo = 2h (b / h) + b % h and lo + h with twiddle tw[h - 1 + b % h] (halved).
// Decimation in frequency: (u, v) -> (u + v, (u - v) w); in time: (u + v w, u - v w).
// With h = 1 every twiddle is omega^0 = 1: (u + v, u - v) without products.
template <bool kDif>
void stage(Fr* a, size_t n, unsigned log_h, const Fr* tw, ThreadPool& pool) {
  const size_t h = size_t(1) << log_h;
  if (h == 1) {
    pool.parallel_for(
        n / 4,
        [&](size_t p0, size_t p1) {
          for (size_t p = p0; p < p1; ++p) {
            Fr* x = a + 4 * p;  // butterflies (x[0], x[1]) and (x[2], x[3])
            const Fe2 u = load(x[0], x[2]), v = load(x[1], x[3]);
            const Fe2 s = f64_lanes::add<Fr>(u, v), d = f64_lanes::sub<Fr>(u, v);
            store(x[0], x[2], s);
            store(x[1], x[3], d);
          }
        },
        kPairGrain);
    return;
  }
  const Fr* w = tw + (h - 1);
  pool.parallel_for(
      n / 4,
      [&](size_t p0, size_t p1) {
        for (size_t p = p0; p < p1; ++p) {
          const size_t b0 = 2 * p, b1 = b0 + 1;
          const size_t j0 = b0 & (h - 1), j1 = b1 & (h - 1);
          const size_t lo0 = ((b0 >> log_h) << (log_h + 1)) + j0;
          const size_t lo1 = ((b1 >> log_h) << (log_h + 1)) + j1;
          const Fe2 u = load(a[lo0], a[lo1]), v = load(a[lo0 + h], a[lo1 + h]);
          const Fe2 t = load(w[j0], w[j1]);
          Fe2 x, y;
          if constexpr (kDif) {
            x = f64_lanes::add<Fr>(u, v);
            f64_lanes::mul<Fr>(y, f64_lanes::sub_lazy<Fr>(u, v), t);
          } else {
            Fe2 vt;
            f64_lanes::mul<Fr>(vt, v, t);
            x = f64_lanes::add<Fr>(u, vt);
            y = f64_lanes::sub<Fr>(u, vt);
          }
          store(a[lo0], a[lo1], x);
          store(a[lo0 + h], a[lo1 + h], y);
        }
      },
      kPairGrain);
}

}  // namespace

F64Tables make_f64_tables(const std::vector<Fr>& twiddles, const std::vector<Fr>& factor) {
  F64Tables t;
  t.n = factor.size();
  const Fr half = Fr::from_u64(2).inverse();
  t.forward.resize(twiddles.size());
  t.inverse.resize(twiddles.size());
  for (size_t h = 1; h < t.n; h *= 2) {
    const Fr* tw = &twiddles[h - 1];
    for (size_t j = 0; j < h; ++j) {
      t.forward[h - 1 + j] = tw[j] * half;
      // omega_2h^-j = -omega_2h^(h - j) for j >= 1
      t.inverse[h - 1 + j] = j == 0 ? half : -(tw[h - j] * half);
    }
  }
  t.factor = factor;
  return t;
}

void f64_odd_coset_product(const F64Tables& tables, Fr* a, Fr* b, Fr* c, ThreadPool& pool) {
  const size_t n = tables.n;
  unsigned log_n = 0;
  while ((size_t(1) << log_n) < n) ++log_n;
  for (Fr* x : {a, b, c}) {
    for (unsigned log_h = log_n; log_h-- > 0;)
      stage<true>(x, n, log_h, tables.inverse.data(), pool);
    const Fr* factor = tables.factor.data();
    pool.parallel_for(
        n / 2,
        [&](size_t p0, size_t p1) {
          for (size_t i = 2 * p0; i < 2 * p1; i += 2) {
            Fe2 y;
            f64_lanes::mul_r256<Fr>(y, load(x[i], x[i + 1]), load(factor[i], factor[i + 1]));
            store(x[i], x[i + 1], y);
          }
        },
        kPairGrain);
    for (unsigned log_h = 0; log_h < log_n; ++log_h)
      stage<false>(x, n, log_h, tables.forward.data(), pool);
  }
  pool.parallel_for(
      n / 2,
      [&](size_t p0, size_t p1) {
        for (size_t i = 2 * p0; i < 2 * p1; i += 2) {
          Fe2 ab;
          f64_lanes::mul_r256<Fr>(ab, load(a[i], a[i + 1]), load(b[i], b[i + 1]));
          store(a[i], a[i + 1], f64_lanes::sub<Fr>(ab, load(c[i], c[i + 1])));
        }
      },
      kPairGrain);
}

}  // namespace enygma::ntt_detail
