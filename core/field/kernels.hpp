// The field kernels behind one interface: the only place that chooses between backends. The
// prime fields (core/field/prime_field.hpp), Fp2 (core/curve/fp2.hpp) and the MSM's batch-affine
// additions (core/msm/batch_affine_lanes.hpp) call the functions below and name no backend.
//
// Backends, one folder each, hold arithmetic only and no choice:
//   portable64/  four 64-bit limbs with 128-bit products; modular addition and subtraction on
//                words for every target (with ADC/SBB intrinsics and CMOVs on x86-64); a K by
//                table
//   portable32/  nine 29-bit limbs in 64-bit words, no 128-bit products (WebAssembly)
//   adx/         MULX/ADCX/ADOX assembly (x86-64, chosen at run time): Montgomery
//                multiplication, Fp2 multiplication with lazy reduction and Fp2 squaring
//   ifma/        eight field elements at once with AVX-512 IFMA (x86-64, chosen at run time),
//                for batch-affine point additions (core/msm/batch_affine_ifma.cpp), the
//                quotient's transforms (core/poly/ntt_ifma.cpp) and groups of independent Fp2
//                products in the pairing (core/field/ifma/fp2_lanes.hpp)
//   wasm/        on portable32's limbs, for WebAssembly: Fp2 products with lazy reduction
// Which backends a build has, and the run-time switches of the x86-64 ones, are in
// core/field/cpu_features.hpp. Every backend computes the same function on the same in-memory
// layout (four little-endian 64-bit words, Montgomery form with R = 2^256): proofs are
// byte-identical whichever runs, and tests compare each backend with the others.
//
// F is the prime field type (PrimeField<P>): F::kModulus, F::kInv64, F::kInv32.
#pragma once

#include <cstdint>

#include "core/field/cpu_features.hpp"
#include "core/field/portable64/add_sub.hpp"
#include "core/field/portable64/mul_small.hpp"
#if defined(ENYGMA_LIMB32)
#include "core/field/portable32/mont_mul.hpp"
#include "core/field/wasm/fp2.hpp"
#else
#include "core/field/portable64/mont_mul.hpp"
#endif
#if defined(ENYGMA_HAVE_ADX_KERNEL)
#include "core/field/adx/fp2_mul.hpp"
#include "core/field/adx/mont_mul.hpp"
#endif

// The field types' additions, subtractions and small multiples (core/field/prime_field.hpp,
// core/curve/fp2.hpp): always inlined on the 64-bit backends, where GCC otherwise calls them out
// of line and the calls cost about as much as the additions; left to the compiler for
// WebAssembly, where forcing them measured slower.
#if defined(ENYGMA_LIMB32)
#define ENYGMA_FIELD_OP
#else
#define ENYGMA_FIELD_OP __attribute__((always_inline))
#endif

namespace enygma::kernels {

#define ENYGMA_KERNEL inline __attribute__((always_inline))

#if defined(ENYGMA_HAVE_ADX_KERNEL)
// Where the ADX kernel exists, the portable one is the cold path and stays out of line, so that
// each call site carries one kernel only.
template <class F>
__attribute__((noinline, cold)) void mul_portable_cold(uint64_t r[4], const uint64_t a[4],
                                                       const uint64_t b[4]) {
  portable64::mont_mul(r, a, b, F::kModulus.w, F::kInv64);
}
#endif

// r = a b 2^-256 mod m (Montgomery multiplication), a, b < m. r may alias a or b. Always
// inlined: a call costs about as much as a fifth of the multiplication.
template <class F>
ENYGMA_KERNEL void mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
#if defined(ENYGMA_LIMB32)
  portable32::mont_mul(r, a, b, F::kModulus.w, F::kInv32);
#elif defined(ENYGMA_HAVE_ADX_KERNEL)
  if (__builtin_expect(g_use_adx, 1)) {
    adx::mont_mul(r, a, b, F::kModulus.w, F::kInv64);
  } else {
    mul_portable_cold<F>(r, a, b);
  }
#else
  portable64::mont_mul(r, a, b, F::kModulus.w, F::kInv64);
#endif
}

// r = a^2 2^-256 mod m.
// (A dedicated squaring kernel gains nothing here: the compilers already merge the equal limb
// products a_i a_j and a_j a_i of mul(a, a).)
template <class F>
ENYGMA_KERNEL void square(uint64_t r[4], const uint64_t a[4]) {
  mul<F>(r, a, a);
}

// r = a + b mod m and r = a - b mod m, a, b < m.
template <class F>
ENYGMA_KERNEL void add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
#if defined(__x86_64__) && !defined(ENYGMA_LIMB32)
  portable64::add_x86(r, a, b, F::kModulus.w);
#else
  portable64::add(r, a, b, F::kModulus.w);
#endif
}
template <class F>
ENYGMA_KERNEL void sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
#if defined(__x86_64__) && !defined(ENYGMA_LIMB32)
  portable64::sub_x86(r, a, b, F::kModulus.w);
#else
  portable64::sub(r, a, b, F::kModulus.w);
#endif
}

// r = K a + Sign b mod m for a constant K, Sign in {-1, 0, +1} (b unused for 0), a, b < m,
// K + |Sign| <= 16. One reduction by a table of multiples of m
// (core/field/portable64/mul_small.hpp).
template <class F, unsigned K, int Sign>
ENYGMA_KERNEL void mul_small(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
#if defined(__x86_64__) && !defined(ENYGMA_LIMB32)
  portable64::small_combination<F, K, Sign, /*kWide=*/true>(r, a, b);
#else
  portable64::small_combination<F, K, Sign>(r, a, b);
#endif
}

// (r0 + r1 u) = (a0 + a1 u)(b0 + b1 u) in Fp2 = F[u] / (u^2 + 1), coefficients in Montgomery
// form below m. r0, r1 may alias the inputs.
template <class F>
ENYGMA_KERNEL void fp2_mul(uint64_t r0[4], uint64_t r1[4], const uint64_t a0[4],
                           const uint64_t a1[4], const uint64_t b0[4], const uint64_t b1[4]) {
#if defined(ENYGMA_LIMB32)
  wasm::fp2_mul<F>(r0, r1, a0, a1, b0, b1);
#else
#if defined(ENYGMA_HAVE_ADX_KERNEL)
  if (__builtin_expect(g_use_adx, 1)) return adx::fp2_mul<F>(r0, r1, a0, a1, b0, b1);
#endif
  // Karatsuba: three multiplications.
  uint64_t t0[4], t1[4], t2[4], sa[4], sb[4];
  mul<F>(t0, a0, b0);
  mul<F>(t1, a1, b1);
  add<F>(sa, a0, a1);
  add<F>(sb, b0, b1);
  mul<F>(t2, sa, sb);
  sub<F>(r0, t0, t1);
  sub<F>(t2, t2, t0);
  sub<F>(r1, t2, t1);
#endif
}

// (r0 + r1 u) = (a0 + a1 u)^2 in Fp2, coefficients below m; r0, r1 may alias the inputs.
// kHaveFp2Square: a backend has a dedicated one (WebAssembly: lazy reduction; ADX: two products
// of unreduced operands), which Fp2 then calls; elsewhere Fp2 squares with Fp operations, which
// GCC keeps in registers where this word-pointer form stores and reloads the intermediate
// results.
#if defined(ENYGMA_LIMB32) || defined(ENYGMA_HAVE_ADX_KERNEL)
inline constexpr bool kHaveFp2Square = true;
#else
inline constexpr bool kHaveFp2Square = false;
#endif
template <class F>
ENYGMA_KERNEL void fp2_square(uint64_t r0[4], uint64_t r1[4], const uint64_t a0[4],
                              const uint64_t a1[4]) {
#if defined(ENYGMA_LIMB32)
  wasm::fp2_square<F>(r0, r1, a0, a1);
#else
#if defined(ENYGMA_HAVE_ADX_KERNEL)
  if (__builtin_expect(g_use_adx, 1)) return adx::fp2_square<F>(r0, r1, a0, a1);
#endif
  // (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u: two multiplications.
  uint64_t p[4], s[4], d[4];
  mul<F>(p, a0, a1);
  add<F>(s, a0, a1);
  sub<F>(d, a0, a1);
  mul<F>(r0, s, d);
  add<F>(r1, p, p);
#endif
}

// Limb width of the variable-time inversion (core/field/inverse_vartime.hpp): 62-bit limbs with
// 128-bit products, or 30-bit limbs with 64-bit products where 128-bit ones are library calls.
#if defined(ENYGMA_LIMB32)
inline constexpr int kSafegcdLimbBits = 30;
#else
inline constexpr int kSafegcdLimbBits = 62;
#endif

// Batch-affine point additions on a lane kernel (core/msm/batch_affine_lanes.hpp): whether
// this build has one, and whether it runs now. WebAssembly's is f64x2 relaxed SIMD
// (core/msm/batch_affine_f64.cpp), on in the module linked with it where the engine fuses
// relaxed_madd; its integer SIMD (two 64-bit or four 32-bit lanes, 32x32->64 products through
// shuffles in V8) and a one-lane kernel keeping 29-bit limbs between operations both measured
// no faster than the scalar code.
// The quotient's transforms over Fr have a lane kernel too (core/poly/ntt_ifma.cpp), on the
// same backend.
#if defined(ENYGMA_HAVE_IFMA_KERNEL)
inline constexpr bool kHaveBatchLanes = true;
inline bool batch_lanes_enabled() {
  return g_use_ifma;
}
inline bool ntt_lanes_enabled() {
  return g_use_ifma;
}
inline bool fp2_lanes_enabled() {
  return g_use_ifma;
}
#elif defined(ENYGMA_HAVE_F64_LANES)
inline constexpr bool kHaveBatchLanes = true;
inline bool batch_lanes_enabled() {
  return g_use_f64_lanes;
}
inline bool ntt_lanes_enabled() {
  return g_use_f64_lanes;
}
inline bool fp2_lanes_enabled() {
  return g_use_f64_lanes;
}
#else
inline constexpr bool kHaveBatchLanes = false;
inline bool batch_lanes_enabled() {
  return false;
}
inline bool ntt_lanes_enabled() {
  return false;
}
inline bool fp2_lanes_enabled() {
  return false;
}
#endif

#undef ENYGMA_KERNEL

}  // namespace enygma::kernels
