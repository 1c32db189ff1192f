// The quotient h = (a*b - c) / Z of a Groth16 proof, as rapidsnark and snarkjs compute it:
// evaluated on the coset of odd 2n-th roots x_i = g * omega^i (g a primitive 2n-th root)
// instead of divided out.
//
// Why it works: a, b, c have degree < n, so p = a*b - c has degree <= 2n - 2 and is divisible by
// Z(X) = X^n - 1, leaving h of degree <= n - 2. On the odd coset Z(x_i) = g^n - 1 = -2, so
// h(x_i) = -p(x_i)/2, and h(tau) Z(tau) = sum_i p(x_i) * (-L^coset_i(tau) Z(tau) / 2), where
// -L^coset_i(tau) Z(tau) / 2 = (tau^2n - 1) x_i / (2n (tau - x_i)) = L^(2n)_(2i+1)(tau): the
// Lagrange basis of the 2n-th roots at the odd indices. The H query of the proving key holds
// exactly those points over delta (setup.cpp), so the prover's scalars are just p(x_i).
#pragma once

#include "core/field/fr.hpp"
#include "core/parallel/thread_pool.hpp"
#include "core/poly/evaluation_domain.hpp"

namespace enygma {

// a, b, c: evaluations on the n-th roots (n = domain size), overwritten. On return a holds
// p(x_i) = a(x_i) b(x_i) - c(x_i) on the odd coset; b and c are scratch.
void quotient_odd_coset(const EvaluationDomain& domain, Fr* a, Fr* b, Fr* c, ThreadPool& pool);

}  // namespace enygma
