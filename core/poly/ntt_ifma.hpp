// The quotient's transforms on AVX-512 IFMA: NttDomain::odd_coset_product eight lanes at a time,
// on the 52-bit-limb kernel of core/field/ifma/fe8.hpp. Chosen at run time
// (kernels::ntt_lanes_enabled(), core/field/kernels.hpp); the scalar code in core/poly/ntt.cpp
// computes the same values everywhere else.
//
// Layout: the polynomial is held in blocks of eight consecutive elements, limb i of the eight in
// one 512-bit vector (radix 2^52, five limbs, the scalar Montgomery form's integers as they
// are). Stages whose butterflies pair elements of different blocks (half-size h >= 8) are
// vertical: lane l of one block meets lane l of another, with a vector of eight twiddles. The
// three stages inside a block (h = 1, 2, 4) permute lanes. Twiddles and coset factors are
// stored 2^260-scaled, so a product with a value of the scalar form stays in the scalar form
// (core/field/ifma/fe8.hpp). Values are reduced lazily (bounds beside the code in ntt_ifma.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/field/cpu_features.hpp"
#include "core/field/fr.hpp"
#include "core/parallel/thread_pool.hpp"

namespace enygma {
class NttDomain;
}

namespace enygma::ntt_detail {

#if defined(ENYGMA_HAVE_IFMA_KERNEL)
// Below this size the scalar code runs (a few blocks only).
inline constexpr size_t kIfmaMinSize = 64;

// Twiddles and coset factors of one domain size, in the kernel's layout.
struct IfmaTables;
IfmaTables* make_ifma_tables(const NttDomain& domain);
void destroy_ifma_tables(IfmaTables* tables);

// The radix-3 passes of an EvaluationDomain of size 3m (core/poly/evaluation_domain.hpp), eight
// triples at a time on the scalar form's arrays: in[j] and out[j] are the domain's twiddles of
// the pass in and out (m each, m a multiple of 8), w its cube root of unity.
struct IfmaRadix3Tables;
IfmaRadix3Tables* make_ifma_radix3_tables(const std::vector<Fr> (&in)[2],
                                          const std::vector<Fr> (&out)[2], const Fr& w,
                                          const Fr& w_inv, const Fr& third);
void destroy_ifma_radix3_tables(IfmaRadix3Tables* tables);
// EvaluationDomain::to_odd_coset for n = 3m: the pass in, the m-domain's transforms (sub: its
// tables, m >= kIfmaMinSize) on each third, the pass out. Witness-derived scratch is wiped.
void ifma_to_odd_coset_radix3(const IfmaTables& sub, const IfmaRadix3Tables& r3, Fr* a,
                              ThreadPool& pool);

// NttDomain::odd_coset_product for the domain the tables were made for (n >= kIfmaMinSize).
// Witness-derived scratch is wiped before returning.
void ifma_odd_coset_product(const IfmaTables& tables, Fr* a, Fr* b, Fr* c, ThreadPool& pool);
#endif

}  // namespace enygma::ntt_detail
