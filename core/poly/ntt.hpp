// Number-theoretic transform over Fr on domains of size n = 2^k (k <= 27; Fr's 2-adicity is 28,
// so the coset of odd 2n-th roots exists for every domain). Twiddles precomputed per domain.
//
// Iterative radix-2 transforms: decimation in time (Cooley-Tukey: bit-reversed order in,
// natural order out) and decimation in frequency (Gentleman-Sande: natural in, bit-reversed
// out). forward() and inverse() put a bit-reversal permutation in front of the first; the
// quotient's odd_coset_product() pairs the two and needs no permutation at all. Small stages run
// block by block (a block of 2^12 elements stays in L2 while all its small stages run); the
// larger ones go over memory two stages at a time (radix-4 style passes, half the memory
// traffic); both are split across the thread pool. With AVX-512 IFMA the quotient runs on the
// 8-lane kernel (core/poly/ntt_ifma.hpp); the result is the same.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "core/field/fr.hpp"
#include "core/parallel/thread_pool.hpp"

namespace enygma {

namespace ntt_detail {
struct F64Tables;
struct IfmaTables;
// a[i] = a[i] b[i] - c[i] for i < n, over the pool: the quotient's last step on the scalar field.
void product_minus(Fr* a, const Fr* b, const Fr* c, size_t n, ThreadPool& pool);
}  // namespace ntt_detail

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

  // Evaluations on the n-th roots -> evaluations on the odd coset x_i = omega_2n * omega^i, both in
  // natural order: coset_forward(inverse(a), omega_2n) without the two bit-reversal
  // permutations, the 1/n and the coset powers in one multiplication per element.
  void to_odd_coset(Fr* a, ThreadPool& pool) const;
  // The Groth16 quotient's scalars: a, b, c hold evaluations of A, B, C on the n-th roots; on
  // return a[i] = A(x_i) B(x_i) - C(x_i) on the odd coset (natural order); b and c are scratch.
  void odd_coset_product(Fr* a, Fr* b, Fr* c, ThreadPool& pool) const;

  // One domain per size for the life of the process, built on first use (thread-safe): the
  // prover's, so that its twiddles and coset tables are computed once, not per proof.
  static const NttDomain& shared(unsigned log_n);

  NttDomain(const NttDomain&) = delete;
  NttDomain& operator=(const NttDomain&) = delete;
  ~NttDomain();

  // The tables of odd_coset_product and to_odd_coset, built on first use.
  struct CosetTables;
  // The f64 lanes' tables (core/poly/ntt_f64.hpp), built on first use: odd_coset_product's in
  // WebAssembly with relaxed SIMD, and the tests' elsewhere. Needs n >= 2.
  const ntt_detail::F64Tables& f64_tables() const;
  // The IFMA kernel's tables (core/poly/ntt_ifma.hpp), built on first use (builds with the
  // kernel only).
  const ntt_detail::IfmaTables& ifma_tables() const;

  // A primitive 2^28-th root of unity: 5^((r - 1) / 2^28), 5 generating Fr^*.
  static Fr root_of_unity_max();

 private:
  // Decimation in time: bit-reversed order in, natural order out (omega, or omega^-1 unscaled).
  template <bool kInverse>
  void transform(Fr* a, ThreadPool& pool) const;
  // Decimation in frequency with omega^-1, unscaled: natural order in, bit-reversed order out.
  void inverse_dif(Fr* a, ThreadPool& pool) const;
  void bit_reverse(Fr* a, ThreadPool& pool) const;
  CosetTables& coset_tables() const;
  // factor[p] = omega_2n^rev(p) / n, built on first use.
  const std::vector<Fr>& coset_factors() const;

  size_t n_;
  unsigned log_n_;
  Fr omega_, omega_2n_, n_inv_;
  // Per stage, contiguous: the stage with half-size h (h = 1, 2, 4, ..., n/2) uses
  // twiddles_[h - 1 + j] = omega_2h^j for j < h. The inverse transform reads the same table
  // backwards: omega_2h^-j = -omega_2h^(h-j).
  std::vector<Fr> twiddles_;
  mutable std::once_flag coset_once_;
  mutable std::unique_ptr<CosetTables> coset_;
};

}  // namespace enygma
