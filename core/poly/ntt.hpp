// Number-theoretic transform over Fr on domains of size n = 2^k (k <= 27; Fr's 2-adicity is 28,
// so the coset of odd 2n-th roots exists for every domain). Twiddles precomputed per domain.
#pragma once

#include <cstddef>
#include <vector>

#include "core/field/fr.hpp"
#include "core/parallel/thread_pool.hpp"

namespace enygma {

class NttDomain {
 public:
  explicit NttDomain(unsigned log_n);

  size_t size() const { return n_; }
  unsigned log_size() const { return log_n_; }
  const Fr& omega() const { return omega_; }          // primitive n-th root of unity
  const Fr& omega_2n() const { return omega_2n_; }    // primitive 2n-th root (odd-root coset shift)

  // In place, natural order in and out.
  // forward: coefficients a_j -> evaluations A(omega^i).
  void forward(Fr* a, ThreadPool& pool) const;
  // inverse: evaluations -> coefficients (includes the 1/n scaling).
  void inverse(Fr* a, ThreadPool& pool) const;
  // Coset versions: evaluations at shift * omega^i.
  void coset_forward(Fr* a, const Fr& shift, ThreadPool& pool) const;
  void coset_inverse(Fr* a, const Fr& shift, ThreadPool& pool) const;

 private:
  size_t n_;
  unsigned log_n_;
  Fr omega_, omega_inv_, omega_2n_, n_inv_;
  std::vector<Fr> twiddles_;      // implementation-defined layout
  std::vector<Fr> twiddles_inv_;
};

}  // namespace enygma
