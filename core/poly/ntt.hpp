// Number-theoretic transform over Fr on domains of size n = 2^k (k <= 27; Fr's 2-adicity is 28,
// so the coset of odd 2n-th roots exists for every domain). Twiddles precomputed per domain.
//
// Iterative radix-2 Cooley-Tukey, decimation in time: bit-reversal permutation, then log2(n)
// butterfly stages. The first stages run block by block (a block of 2^12 elements stays in L2
// while all its small stages run); the later ones go over memory two stages at a time (radix-4
// style passes, half the memory traffic); both are split across the thread pool.
#pragma once

#include <cstddef>
#include <vector>

#include "core/field/fr.hpp"
#include "core/parallel/thread_pool.hpp"

namespace enygma {

class NttDomain {
 public:
  static constexpr unsigned kMaxLogSize = Fr::kTwoAdicity - 1;  // 27

  // log_n <= kMaxLogSize; a larger one is a programming error (std::invalid_argument).
  explicit NttDomain(unsigned log_n);

  size_t size() const { return n_; }
  unsigned log_size() const { return log_n_; }
  const Fr& omega() const { return omega_; }        // primitive n-th root of unity
  const Fr& omega_2n() const { return omega_2n_; }  // primitive 2n-th root (odd-root coset shift)

  // In place, natural order in and out.
  // forward: coefficients a_j -> evaluations A(omega^i).
  void forward(Fr* a, ThreadPool& pool) const;
  // inverse: evaluations -> coefficients (includes the 1/n scaling).
  void inverse(Fr* a, ThreadPool& pool) const;
  // Coset versions: evaluations at shift * omega^i.
  void coset_forward(Fr* a, const Fr& shift, ThreadPool& pool) const;
  void coset_inverse(Fr* a, const Fr& shift, ThreadPool& pool) const;

  // A primitive 2^28-th root of unity: 5^((r - 1) / 2^28), 5 generating Fr^*.
  static Fr root_of_unity_max();

 private:
  template <bool kInverse>
  void transform(Fr* a, ThreadPool& pool) const;
  void bit_reverse(Fr* a, ThreadPool& pool) const;

  size_t n_;
  unsigned log_n_;
  Fr omega_, omega_2n_, n_inv_;
  // Per stage, contiguous: the stage with half-size h (h = 1, 2, 4, ..., n/2) uses
  // twiddles_[h - 1 + j] = omega_2h^j for j < h. The inverse transform reads the same table
  // backwards: omega_2h^-j = -omega_2h^(h-j).
  std::vector<Fr> twiddles_;
};

}  // namespace enygma
