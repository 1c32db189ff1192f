#include "core/groth16/quotient.hpp"

namespace enygma {

void quotient_odd_coset(const EvaluationDomain& domain, Fr* a, Fr* b, Fr* c, ThreadPool& pool) {
  domain.odd_coset_product(a, b, c, pool);
}

}  // namespace enygma
