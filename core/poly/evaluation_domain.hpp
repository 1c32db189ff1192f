// The Groth16 quotient's evaluation domains: the n-th roots of unity for n = 2^k or n = 3 * 2^k.
// Fr^* has order r - 1 = 2^28 * 3^2 * ..., so both exist (and the odd coset, the 2n-th roots
// that are not n-th roots) for k <= 27 (2^k) and k <= 26 (3 * 2^k). A circuit of R rows takes
// the smallest size >= R of either kind: 3 * 2^k where it fits saves a quarter of the H query's
// points and of the quotient's transforms against the next power of two.
//
// n = 2^k is NttDomain (core/poly/ntt.hpp) as it is. n = 3m (m = 2^k) splits each transform into
// one radix-3 pass and three transforms of size m on NttDomain(k), whose odd coset is the right
// one: with g a primitive 2n-th root chosen so that g^3 is the m-domain's omega_2m, the
// n-domain's roots are omega = g^2 and its odd coset is g omega^i. From evaluations a_i =
// A(omega^i) (i = i1 + m i2, i1 < m, i2 < 3), the coefficients are c_(3 j1 + j2) = (1/3) (m-point
// inverse DFT of t_j2)[j1] with t_j2[i1] = omega^(-i1 j2) sum_i2 a_(i1 + m i2) w^(-i2 j2), w =
// omega^m a primitive cube root (decimation in frequency). Then
//   A(g omega^(k1 + m k2)) = sum_j2 w^(j2 k2) omega^(j2 k1) g^j2 U_j2[k1],
//   U_j2[k1] = sum_j1 c_(3 j1 + j2) (g^3)^j1 omega_m^(j1 k1),
// and 3 g^-j2 U_j2 is exactly the m-domain's to_odd_coset of t_j2 (its inverse transform, coset
// factors omega_2m^j1 = (g^3)^j1 and forward transform). So: a radix-3 pass in (t_j2 times
// g^j2 / 3), the m-domain's to_odd_coset on each third, a radix-3 pass out (decimation in time).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "core/field/fr.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/poly/ntt.hpp"
#include "core/poly/ntt_f64.hpp"
#include "core/poly/ntt_ifma.hpp"

namespace enygma {

class EvaluationDomain {
 public:
  // Whether n is 2^k (k <= 27) or 3 * 2^k (k <= 26).
  static bool valid_size(size_t n);
  // The smallest valid size >= rows (rows >= 1, at most 2^27).
  static size_t size_for(size_t rows);

  // n must be a valid size (else std::invalid_argument).
  explicit EvaluationDomain(size_t n);

  size_t size() const { return n_; }
  bool radix3() const { return radix3_; }
  const Fr& omega() const { return omega_; }        // primitive n-th root of unity
  const Fr& omega_2n() const { return omega_2n_; }  // primitive 2n-th root: the odd coset's shift
  // The power-of-two domain that does the transforms: n, or n / 3.
  const NttDomain& transforms() const { return *sub_; }

  // NttDomain's operations of the same names (natural order in and out).
  void to_odd_coset(Fr* a, ThreadPool& pool) const;
  void odd_coset_product(Fr* a, Fr* b, Fr* c, ThreadPool& pool) const;

  // One domain per size for the life of the process, built on first use (thread-safe).
  static const EvaluationDomain& shared(size_t n);

  // n = 3m: the f64 lanes' tables of the radix-3 passes (core/poly/ntt_f64.hpp), built on first
  // use: the transforms' in WebAssembly with relaxed SIMD, the tests' elsewhere. Needs m >= 4.
  const ntt_detail::F64Radix3Tables& f64_radix3_tables() const;

  EvaluationDomain(const EvaluationDomain&) = delete;
  EvaluationDomain& operator=(const EvaluationDomain&) = delete;

 private:
  size_t n_ = 0, m_ = 0;
  bool radix3_ = false;
  const NttDomain* sub_ = nullptr;
  Fr omega_, omega_2n_;
  // n = 3m: w = omega^m and its inverse; in_[j][i1] = omega^(-i1 (j + 1)) g^(j + 1) / 3 for the
  // pass in (and 1/3 for the first third), out_[j][k1] = omega^(k1 (j + 1)) for the pass out.
  Fr w_, w_inv_, third_;
  std::vector<Fr> in_[2], out_[2];
  mutable std::once_flag f64_once_;
  mutable std::unique_ptr<ntt_detail::F64Radix3Tables> f64_;
#if defined(ENYGMA_HAVE_IFMA_KERNEL)
  // The IFMA kernel's passes (core/poly/ntt_ifma.hpp), built on first use.
  const ntt_detail::IfmaRadix3Tables& ifma_radix3_tables() const;
  mutable std::once_flag ifma_once_;
  mutable std::unique_ptr<ntt_detail::IfmaRadix3Tables, void (*)(ntt_detail::IfmaRadix3Tables*)>
      ifma_{nullptr, ntt_detail::destroy_ifma_radix3_tables};
#endif
};

}  // namespace enygma
