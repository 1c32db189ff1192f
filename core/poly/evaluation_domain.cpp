#include "core/poly/evaluation_domain.hpp"

#include <memory>
#include <mutex>
#include <stdexcept>

#include "core/field/kernels.hpp"
#include "core/util/shared_instance.hpp"

namespace enygma {

namespace {

constexpr size_t kGrain = 2048;  // elements (or triples) per parallel chunk

// (r - 1) / 3 (3 divides r - 1), by long division on 32-bit pieces.
U256 order_over_three() {
  U256 e;
  sub_borrow(e, Fr::kModulus, U256::from_u64(1));
  uint64_t rem = 0;
  for (int i = 3; i >= 0; --i) {
    const uint64_t hi = (rem << 32) | (e.w[i] >> 32);
    const uint64_t q_hi = hi / 3;
    rem = hi % 3;
    const uint64_t lo = (rem << 32) | (e.w[i] & 0xffffffffu);
    const uint64_t q_lo = lo / 3;
    rem = lo % 3;
    e.w[i] = (q_hi << 32) | q_lo;
  }
  return e;
}

bool log2_of(size_t n, unsigned& log_n) {
  if (n == 0 || (n & (n - 1)) != 0) return false;
  log_n = 0;
  while ((size_t(1) << log_n) < n) ++log_n;
  return true;
}

}  // namespace

bool EvaluationDomain::valid_size(size_t n) {
  unsigned k = 0;
  if (log2_of(n, k)) return k <= NttDomain::kMaxLogSize;
  return n % 3 == 0 && log2_of(n / 3, k) && k + 1 <= NttDomain::kMaxLogSize;
}

size_t EvaluationDomain::size_for(size_t rows) {
  size_t n = 1;
  while (n < rows) n *= 2;
  // 3 * 2^k between n / 2 and n, where it holds the rows.
  if (n >= 4 && (n / 4) * 3 >= rows) return (n / 4) * 3;
  return n;
}

EvaluationDomain::EvaluationDomain(size_t n) : n_(n) {
  if (!valid_size(n)) throw std::invalid_argument("EvaluationDomain: size not 2^k or 3 * 2^k");
  unsigned k = 0;
  if (log2_of(n, k)) {
    sub_ = &NttDomain::shared(k);
    m_ = n;
    omega_ = sub_->omega();
    omega_2n_ = sub_->omega_2n();
    return;
  }
  radix3_ = true;
  m_ = n / 3;
  log2_of(m_, k);
  sub_ = &NttDomain::shared(k);
  // g = zeta * omega_2m^e with zeta a primitive cube root (5 generates Fr^*) and e = 3^-1 mod 2m:
  // g^3 = omega_2m, and g has order lcm(3, 2m) = 2n.
  const Fr zeta = Fr::from_u64(5).pow(order_over_three());
  uint64_t inv3 = 3;  // Newton's iteration for 3^-1 mod 2^64 (3 * 3 = 1 mod 8)
  for (int i = 0; i < 5; ++i) inv3 *= 2 - 3 * inv3;
  const uint64_t e = inv3 & (2 * uint64_t(m_) - 1);
  const Fr g = zeta * sub_->omega_2n().pow(U256::from_u64(e));
  omega_2n_ = g;
  omega_ = g.square();
  w_ = omega_.pow(U256::from_u64(m_));
  w_inv_ = w_.square();  // w^3 = 1
  third_ = Fr::from_u64(3).inverse();
  const Fr omega_inv = omega_.pow(U256::from_u64(n_ - 1));
  for (int j = 0; j < 2; ++j) {
    in_[j].resize(m_);
    out_[j].resize(m_);
    const Fr step_in = omega_inv.pow(U256::from_u64(j + 1));
    const Fr step_out = omega_.pow(U256::from_u64(j + 1));
    Fr x = g.pow(U256::from_u64(j + 1)) * third_, y = Fr::one();
    for (size_t i = 0; i < m_; ++i) {
      in_[j][i] = x;
      out_[j][i] = y;
      x *= step_in;
      y *= step_out;
    }
  }
}

const EvaluationDomain& EvaluationDomain::shared(size_t n) {
  return shared_instance<EvaluationDomain>(n);
}

const ntt_detail::F64Radix3Tables& EvaluationDomain::f64_radix3_tables() const {
  std::call_once(f64_once_, [&] {
    f64_ = std::make_unique<ntt_detail::F64Radix3Tables>(
        ntt_detail::make_f64_radix3_tables(in_, out_, w_, w_inv_, third_));
  });
  return *f64_;
}

#if defined(ENYGMA_HAVE_IFMA_KERNEL)
const ntt_detail::IfmaRadix3Tables& EvaluationDomain::ifma_radix3_tables() const {
  std::call_once(ifma_once_, [&] {
    ifma_.reset(ntt_detail::make_ifma_radix3_tables(in_, out_, w_, w_inv_, third_));
  });
  return *ifma_;
}
#endif

void EvaluationDomain::to_odd_coset(Fr* a, ThreadPool& pool) const {
  if (!radix3_) {
    sub_->to_odd_coset(a, pool);
    return;
  }
#if defined(ENYGMA_HAVE_IFMA_KERNEL)
  if (kernels::ntt_lanes_enabled() && m_ >= ntt_detail::kIfmaMinSize) {
    ntt_detail::ifma_to_odd_coset_radix3(sub_->ifma_tables(), ifma_radix3_tables(), a, pool);
    return;
  }
#endif
  const size_t m = m_;
  // In: the radix-3 step of the inverse transform (decimation in frequency), each third times
  // its twiddles and g^j / 3.
  pool.parallel_for(
      m,
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
          const Fr x0 = a[i], x1 = a[i + m], x2 = a[i + 2 * m];
          const Fr y1 = (x0 - x2) + w_inv_ * (x1 - x2);
          const Fr y2 = (x0 - x1) + w_inv_ * (x2 - x1);
          a[i] = (x0 + x1 + x2) * third_;
          a[i + m] = y1 * in_[0][i];
          a[i + 2 * m] = y2 * in_[1][i];
        }
      },
      kGrain);
  for (int j = 0; j < 3; ++j) sub_->to_odd_coset(a + j * m, pool);
  // Out: the radix-3 step of the forward transform (decimation in time).
  pool.parallel_for(
      m,
      [&](size_t begin, size_t end) {
        for (size_t k = begin; k < end; ++k) {
          const Fr u0 = a[k], u1 = a[k + m] * out_[0][k], u2 = a[k + 2 * m] * out_[1][k];
          a[k] = u0 + u1 + u2;
          a[k + m] = (u0 - u2) + w_ * (u1 - u2);
          a[k + 2 * m] = (u0 - u1) + w_ * (u2 - u1);
        }
      },
      kGrain);
}

void EvaluationDomain::odd_coset_product(Fr* a, Fr* b, Fr* c, ThreadPool& pool) const {
  if (!radix3_) {
    sub_->odd_coset_product(a, b, c, pool);
    return;
  }
#if defined(ENYGMA_HAVE_F64_LANES)
  if (kernels::ntt_lanes_enabled() && m_ >= 4) {
    ntt_detail::f64_odd_coset_product_radix3(sub_->f64_tables(), f64_radix3_tables(), a, b, c,
                                             pool);
    return;
  }
#endif
  for (Fr* x : {a, b, c}) to_odd_coset(x, pool);
  ntt_detail::product_minus(a, b, c, n_, pool);
}

}  // namespace enygma
