// Run-time choice of the x86-64 multiplication kernel. The default build runs on any x86-64;
// when the CPU has BMI2 and ADX, field multiplication uses MULX/ADCX/ADOX (limbs64_adx.hpp).
#pragma once

namespace enygma {

#if defined(__x86_64__) && !defined(ENYGMA_LIMB32) && !defined(ENYGMA_NO_ASM)
#define ENYGMA_HAVE_ADX_KERNEL 1
// True when the ADX kernel is in use. Read on every multiplication: a plain global load and a
// perfectly predicted branch.
extern bool g_use_adx;
#endif

// Intrinsics, not inline assembly: also built under the sanitizers (ENYGMA_NO_ASM), which see
// its scalar parts and memory accesses. ENYGMA_NO_IFMA leaves it out.
#if defined(__x86_64__) && !defined(ENYGMA_LIMB32) && !defined(ENYGMA_NO_IFMA)
#define ENYGMA_HAVE_IFMA_KERNEL 1
// True when the 8-lane AVX-512 IFMA kernels (core/field/fp_ifma.hpp) are in use.
extern bool g_use_ifma;
#endif

// Whether this CPU could run the ADX kernel, and whether it is in use.
bool cpu_supports_adx();
bool adx_enabled();
// Force the portable kernel (false) or, where supported, the ADX kernel (true). For tests and
// for measuring both; call before starting work on other threads.
void set_adx_enabled(bool on);

// The same for AVX-512 F + IFMA (and the OS saving the 512-bit registers): batch-affine G1
// additions eight at a time (core/msm/batch_affine_ifma.hpp).
bool cpu_supports_ifma();
bool ifma_enabled();
void set_ifma_enabled(bool on);

}  // namespace enygma
