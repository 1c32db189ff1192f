// Many scalar multiplications of one fixed base (key generation): a table of d * 2^(w*i) * B
// for every window i and digit d, so each multiplication is one mixed addition per window.
#pragma once

#include <vector>

#include "core/field/fr.hpp"
#include "core/parallel/thread_pool.hpp"

namespace enygma {

template <class Jacobian>
class FixedBaseTable {
 public:
  using Affine = typename Jacobian::Affine;
  static constexpr unsigned kWindow = 8;
  static constexpr unsigned kWindows = (256 + kWindow - 1) / kWindow;
  static constexpr unsigned kDigits = (1u << kWindow) - 1;  // digits 1 .. 2^w - 1

  explicit FixedBaseTable(const Jacobian& base) : table_(size_t(kWindows) * kDigits) {
    std::vector<Jacobian> jac(table_.size());
    Jacobian window_base = base;
    for (unsigned i = 0; i < kWindows; ++i) {
      Jacobian acc = window_base;
      for (unsigned d = 0; d < kDigits; ++d) {
        jac[size_t(i) * kDigits + d] = acc;
        acc += window_base;
      }
      window_base = acc;  // 2^w * previous window base
    }
    Jacobian::batch_to_affine(jac.data(), table_.data(), jac.size());
  }

  Jacobian mul(const Fr& scalar) const {
    U256 k = scalar.to_u256();
    Jacobian r = Jacobian::infinity();
    for (unsigned i = 0; i < kWindows; ++i) {
      uint32_t d = k.bits(i * kWindow, kWindow);
      if (d != 0) r = r.add_mixed(table_[size_t(i) * kDigits + d - 1]);
    }
    return r;
  }

  // out[i] = scalars[i] * base, in affine form.
  void mul_many(const Fr* scalars, size_t n, Affine* out, ThreadPool& pool) const {
    pool.parallel_for(
        n,
        [&](size_t begin, size_t end) {
          std::vector<Jacobian> jac(end - begin);
          for (size_t i = begin; i < end; ++i) jac[i - begin] = mul(scalars[i]);
          Jacobian::batch_to_affine(jac.data(), out + begin, end - begin);
        },
        256);
  }

 private:
  std::vector<Affine> table_;
};

}  // namespace enygma
