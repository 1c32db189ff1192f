#include "core/poly/ntt.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/field/kernels.hpp"
#include "core/poly/ntt_f64.hpp"
#include "core/poly/ntt_ifma.hpp"
#include "core/util/shared_instance.hpp"

namespace enygma {

namespace {

// Stages whose butterflies stay inside blocks of this many elements (128 KiB) run block by
// block, so each block is loaded into cache once for all of them.
constexpr unsigned kBlockLog = 12;
constexpr size_t kParallelGrain = 2048;  // butterflies or elements per parallel chunk

constexpr uint8_t reverse_byte(uint8_t b) {
  uint8_t r = 0;
  for (int i = 0; i < 8; ++i) r = uint8_t(r | (((b >> i) & 1) << (7 - i)));
  return r;
}

struct ReverseTable {
  uint8_t v[256];
  constexpr ReverseTable() : v() {
    for (int i = 0; i < 256; ++i) v[i] = reverse_byte(uint8_t(i));
  }
};
constexpr ReverseTable kReverse;

inline uint32_t reverse_bits(uint32_t x, unsigned bits) {
  const uint32_t r = (uint32_t(kReverse.v[x & 0xff]) << 24) |
                     (uint32_t(kReverse.v[(x >> 8) & 0xff]) << 16) |
                     (uint32_t(kReverse.v[(x >> 16) & 0xff]) << 8) | kReverse.v[x >> 24];
  return bits == 0 ? 0 : r >> (32 - bits);
}

// One butterfly of the stage with half-size h: (u, v) -> (u + w v, u - w v) with w = omega_2h^j
// = tw[j]; the inverse uses omega_2h^-j = -tw[h - j] (j >= 1), i.e. (u - t, u + t), t = tw[h-j] v.
template <bool kInverse>
inline void butterfly(Fr& lo, Fr& hi, const Fr* tw, size_t h, size_t j) {
  const Fr u = lo;
  const Fr t = hi * tw[kInverse ? h - j : j];
  if (kInverse) {
    lo = u - t;
    hi = u + t;
  } else {
    lo = u + t;
    hi = u - t;
  }
}

inline void butterfly_unit(Fr& lo, Fr& hi) {  // j = 0: twiddle 1 in both directions
  const Fr u = lo, v = hi;
  lo = u + v;
  hi = u - v;
}

// All groups of one stage inside x[0, len).
template <bool kInverse>
inline void stage_in_block(Fr* x, size_t len, size_t h, const Fr* tw) {
  for (size_t k = 0; k < len; k += 2 * h) {
    butterfly_unit(x[k], x[k + h]);
    for (size_t j = 1; j < h; ++j) butterfly<kInverse>(x[k + j], x[k + j + h], tw, h, j);
  }
}

// Decimation in frequency with omega_2h^-j = -tw[h - j] (j >= 1):
// (u, v) -> (u + v, (u - v) omega_2h^-j) = (u + v, (v - u) tw[h - j]).
inline void butterfly_dif_inverse(Fr& lo, Fr& hi, const Fr* tw, size_t h, size_t j) {
  const Fr u = lo, v = hi;
  lo = u + v;
  hi = (v - u) * tw[h - j];
}

inline void stage_in_block_dif(Fr* x, size_t len, size_t h, const Fr* tw) {
  for (size_t k = 0; k < len; k += 2 * h) {
    butterfly_unit(x[k], x[k + h]);
    for (size_t j = 1; j < h; ++j) butterfly_dif_inverse(x[k + j], x[k + j + h], tw, h, j);
  }
}

// Two stages in one pass over a[0, n): each quad (group of 4s, offset j < s) is
// quad(x[j], x[j + s], x[j + 2s], x[j + 3s], j), the quads shared out over the pool.
template <class Quad>
void for_each_quad(Fr* a, size_t n, size_t s, ThreadPool& pool, const Quad& quad) {
  pool.parallel_for(
      n / 4,
      [&](size_t q0, size_t q1) {
        size_t q = q0;
        while (q < q1) {
          Fr* x = a + (q / s) * 4 * s;
          const size_t j0 = q % s, j1 = std::min(s, j0 + (q1 - q));
          for (size_t j = j0; j < j1; ++j) quad(x[j], x[j + s], x[j + 2 * s], x[j + 3 * s], j);
          q += j1 - j0;
        }
      },
      kParallelGrain);
}

// The one stage of a[0, 2h) whose pairs span it: pair(a[j], a[j + h], j) for j < h.
template <class Pair>
void for_each_pair(Fr* a, size_t h, ThreadPool& pool, const Pair& pair) {
  pool.parallel_for(
      h,
      [&](size_t j0, size_t j1) {
        for (size_t j = j0; j < j1; ++j) pair(a[j], a[j + h], j);
      },
      kParallelGrain);
}

// x[i] *= factor * step^i for i in [0, n), in parallel.
void scale_by_powers(Fr* x, size_t n, const Fr& factor, const Fr& step, ThreadPool& pool) {
  pool.parallel_for(
      n,
      [&](size_t begin, size_t end) {
        Fr p = factor * step.pow(U256::from_u64(begin));
        for (size_t i = begin; i < end; ++i) {
          x[i] *= p;
          p *= step;
        }
      },
      kParallelGrain);
}

}  // namespace

Fr NttDomain::root_of_unity_max() {
  U256 e;  // (r - 1) / 2^28
  sub_borrow(e, Fr::kModulus, U256::from_u64(1));
  for (unsigned i = 0; i < Fr::kTwoAdicity; ++i) e = shr1(e);
  return Fr::from_u64(5).pow(e);
}

// What odd_coset_product and to_odd_coset need beyond the twiddles, built on first use: the
// scalar path's coset factors, or the IFMA kernel's tables (each only when that path runs).
struct NttDomain::CosetTables {
  std::once_flag scalar_once;
  // factor[p] = omega_2n^rev(p) / n: the inverse DIF leaves coefficient rev(p) at position p.
  std::vector<Fr> factor;
  std::once_flag f64_once;
  ntt_detail::F64Tables f64;
#if defined(ENYGMA_HAVE_IFMA_KERNEL)
  std::once_flag ifma_once;
  std::unique_ptr<ntt_detail::IfmaTables, void (*)(ntt_detail::IfmaTables*)> ifma{
      nullptr, ntt_detail::destroy_ifma_tables};
#endif
};

NttDomain::~NttDomain() = default;

const NttDomain& NttDomain::shared(unsigned log_n) {
  return shared_instance<NttDomain>(log_n);
}

NttDomain::CosetTables& NttDomain::coset_tables() const {
  std::call_once(coset_once_, [this] { coset_ = std::make_unique<CosetTables>(); });
  return *coset_;
}

NttDomain::NttDomain(unsigned log_n) : n_(size_t(1) << log_n), log_n_(log_n) {
  if (log_n > kMaxLogSize) throw std::invalid_argument("NttDomain: log_n above 27");
  Fr root = root_of_unity_max();  // order 2^28
  for (unsigned i = log_n + 1; i < Fr::kTwoAdicity; ++i) root = root.square();
  omega_2n_ = root;  // order 2n
  omega_ = root.square();
  n_inv_ = Fr::from_u64(n_).inverse();
  if (n_ == 1) return;
  // The top stage (h = n/2) holds omega^j; each lower stage takes every other entry of the one
  // above (omega_2h = omega_4h^2).
  twiddles_.resize(n_ - 1);
  Fr* top = &twiddles_[n_ / 2 - 1];
  Fr w = Fr::one();
  for (size_t j = 0; j < n_ / 2; ++j) {
    top[j] = w;
    w *= omega_;
  }
  for (size_t h = n_ / 4; h >= 1; h /= 2) {
    for (size_t j = 0; j < h; ++j) twiddles_[h - 1 + j] = twiddles_[2 * h - 1 + 2 * j];
  }
}

void NttDomain::bit_reverse(Fr* a, ThreadPool& pool) const {
  pool.parallel_for(
      n_,
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
          const size_t r = reverse_bits(uint32_t(i), log_n_);
          if (i < r) std::swap(a[i], a[r]);  // each pair swapped by its smaller index
        }
      },
      kParallelGrain * 4);
}

template <bool kInverse>
void NttDomain::transform(Fr* a, ThreadPool& pool) const {
  if (n_ == 1) return;
  const Fr* tw = twiddles_.data();
  const size_t block = std::min(n_, size_t(1) << kBlockLog);
  pool.parallel_for(
      n_ / block,
      [&](size_t b0, size_t b1) {
        for (size_t b = b0; b < b1; ++b) {
          for (size_t h = 1; h < block; h <<= 1) {
            stage_in_block<kInverse>(a + b * block, block, h, tw + (h - 1));
          }
        }
      },
      1);
  size_t h = block;
  // Stages h and 2h in one pass: quad q = (group of 4h, j < h) touches a[k + j + {0,h,2h,3h}].
  for (; 2 * h < n_; h *= 4) {
    const Fr* tw1 = tw + (h - 1);
    const Fr* tw2 = tw + (2 * h - 1);
    for_each_quad(a, n_, h, pool, [&](Fr& a0, Fr& a1, Fr& a2, Fr& a3, size_t j) {
      if (j == 0) {
        butterfly_unit(a0, a1);
        butterfly_unit(a2, a3);
        butterfly_unit(a0, a2);
      } else {
        butterfly<kInverse>(a0, a1, tw1, h, j);
        butterfly<kInverse>(a2, a3, tw1, h, j);
        butterfly<kInverse>(a0, a2, tw2, 2 * h, j);
      }
      butterfly<kInverse>(a1, a3, tw2, 2 * h, j + h);
    });
  }
  if (h < n_) {  // one stage left (odd count of large stages)
    const Fr* tw1 = tw + (h - 1);
    for_each_pair(a, h, pool, [&](Fr& x, Fr& y, size_t j) {
      if (j == 0) {
        butterfly_unit(x, y);
      } else {
        butterfly<kInverse>(x, y, tw1, h, j);
      }
    });
  }
}

void NttDomain::inverse_dif(Fr* a, ThreadPool& pool) const {
  if (n_ == 1) return;
  const Fr* tw = twiddles_.data();
  const size_t block = std::min(n_, size_t(1) << kBlockLog);
  // The stages above the block size, from the top: the mirror of transform()'s order (a single
  // stage first when their number is odd, then pairs).
  unsigned large = 0;
  while ((block << large) < n_) ++large;
  size_t h = n_ / 2;
  if (large & 1) {
    const Fr* tw1 = tw + (h - 1);
    for_each_pair(a, h, pool, [&](Fr& x, Fr& y, size_t j) {
      if (j == 0) {
        butterfly_unit(x, y);
      } else {
        butterfly_dif_inverse(x, y, tw1, h, j);
      }
    });
    h /= 2;
  }
  // Stages 2g and g in one pass (g = h / 2): quad q = (group of 4g, j < g).
  for (; h >= block; h /= 4) {
    const size_t g = h / 2;
    const Fr* tw1 = tw + (g - 1);
    const Fr* tw2 = tw + (h - 1);
    for_each_quad(a, n_, g, pool, [&](Fr& a0, Fr& a1, Fr& a2, Fr& a3, size_t j) {
      if (j == 0) {
        butterfly_unit(a0, a2);
        butterfly_dif_inverse(a1, a3, tw2, h, g);
        butterfly_unit(a0, a1);
        butterfly_unit(a2, a3);
      } else {
        butterfly_dif_inverse(a0, a2, tw2, h, j);
        butterfly_dif_inverse(a1, a3, tw2, h, j + g);
        butterfly_dif_inverse(a0, a1, tw1, g, j);
        butterfly_dif_inverse(a2, a3, tw1, g, j);
      }
    });
  }
  pool.parallel_for(
      n_ / block,
      [&](size_t b0, size_t b1) {
        for (size_t b = b0; b < b1; ++b) {
          for (size_t g = block / 2; g >= 1; g >>= 1) {
            stage_in_block_dif(a + b * block, block, g, tw + (g - 1));
          }
        }
      },
      1);
}

const std::vector<Fr>& NttDomain::coset_factors() const {
  CosetTables& t = coset_tables();
  std::call_once(t.scalar_once, [&] {
    std::vector<Fr>& factor = t.factor;
    std::vector<Fr> powers(n_);
    Fr p = n_inv_;
    for (size_t i = 0; i < n_; ++i) {
      powers[i] = p;
      p *= omega_2n_;
    }
    factor.resize(n_);
    for (size_t i = 0; i < n_; ++i) factor[i] = powers[reverse_bits(uint32_t(i), log_n_)];
  });
  return t.factor;
}

const ntt_detail::F64Tables& NttDomain::f64_tables() const {
  CosetTables& t = coset_tables();
  std::call_once(t.f64_once,
                 [&] { t.f64 = ntt_detail::make_f64_tables(twiddles_, coset_factors()); });
  return t.f64;
}

#if defined(ENYGMA_HAVE_IFMA_KERNEL)
const ntt_detail::IfmaTables& NttDomain::ifma_tables() const {
  CosetTables& t = coset_tables();
  std::call_once(t.ifma_once, [&] { t.ifma.reset(ntt_detail::make_ifma_tables(*this)); });
  return *t.ifma;
}
#endif

void NttDomain::to_odd_coset(Fr* a, ThreadPool& pool) const {
  const Fr* factor = coset_factors().data();
  inverse_dif(a, pool);
  pool.parallel_for(
      n_,
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) a[i] *= factor[i];
      },
      kParallelGrain);
  transform<false>(a, pool);
}

void NttDomain::odd_coset_product(Fr* a, Fr* b, Fr* c, ThreadPool& pool) const {
#if defined(ENYGMA_HAVE_IFMA_KERNEL)
  if (kernels::ntt_lanes_enabled() && n_ >= ntt_detail::kIfmaMinSize) {
    ntt_detail::ifma_odd_coset_product(ifma_tables(), a, b, c, pool);
    return;
  }
#elif defined(ENYGMA_HAVE_F64_LANES)
  if (kernels::ntt_lanes_enabled() && n_ >= 4) {
    ntt_detail::f64_odd_coset_product(f64_tables(), a, b, c, pool);
    return;
  }
#endif
  for (Fr* x : {a, b, c}) to_odd_coset(x, pool);
  ntt_detail::product_minus(a, b, c, n_, pool);
}

void ntt_detail::product_minus(Fr* a, const Fr* b, const Fr* c, size_t n, ThreadPool& pool) {
  pool.parallel_for(
      n,
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) a[i] = a[i] * b[i] - c[i];
      },
      kParallelGrain);
}

void NttDomain::forward(Fr* a, ThreadPool& pool) const {
  bit_reverse(a, pool);
  transform<false>(a, pool);
}

void NttDomain::inverse(Fr* a, ThreadPool& pool) const {
  bit_reverse(a, pool);
  transform<true>(a, pool);
  const Fr n_inv = n_inv_;
  pool.parallel_for(
      n_,
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) a[i] *= n_inv;
      },
      kParallelGrain);
}

// A(shift * omega^i) = sum_j (a_j shift^j) omega^(ij).
void NttDomain::coset_forward(Fr* a, const Fr& shift, ThreadPool& pool) const {
  scale_by_powers(a, n_, Fr::one(), shift, pool);
  forward(a, pool);
}

// The inverse of coset_forward; the 1/n scaling rides on the power scaling.
void NttDomain::coset_inverse(Fr* a, const Fr& shift, ThreadPool& pool) const {
  bit_reverse(a, pool);
  transform<true>(a, pool);
  scale_by_powers(a, n_, n_inv_, shift.inverse(), pool);
}

}  // namespace enygma
