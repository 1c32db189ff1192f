#include "core/groth16/quotient.hpp"

namespace enygma {

void quotient_odd_coset(const NttDomain& domain, Fr* a, Fr* b, Fr* c, ThreadPool& pool) {
  const Fr g = domain.omega_2n();
  for (Fr* x : {a, b, c}) {
    domain.inverse(x, pool);
    domain.coset_forward(x, g, pool);
  }
  pool.parallel_for(
      domain.size(),
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) a[i] = a[i] * b[i] - c[i];
      },
      1024);
}

}  // namespace enygma
