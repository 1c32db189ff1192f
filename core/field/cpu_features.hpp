// Which field kernels this build contains, and which of them run on this CPU. The kernels
// themselves are called through core/field/kernels.hpp only.
//
// Build: ENYGMA_LIMB32 (set for WebAssembly, or wherever there is no 128-bit product) selects
// the 29-bit-limb backend; the x86-64 kernels exist on native x86-64 builds, ENYGMA_NO_ASM
// leaves the ADX assembly out (the sanitizer and fuzz builds) and ENYGMA_NO_IFMA the AVX-512
// one. Run time: the default native build runs on any x86-64; the ADX and IFMA kernels are
// switched on at start from cpuid, and can be switched off (tests, benchmarks,
// ENYGMA_DISABLE_KERNELS).
#pragma once

#if !defined(ENYGMA_LIMB32) && !defined(__SIZEOF_INT128__)
#define ENYGMA_LIMB32 1
#endif

namespace enygma {

#if defined(__x86_64__) && !defined(ENYGMA_LIMB32) && !defined(ENYGMA_NO_ASM)
#define ENYGMA_HAVE_ADX_KERNEL 1
// True when the ADX kernel is in use. Read on every multiplication: a plain global load and a
// perfectly predicted branch.
extern bool g_use_adx;
#endif

// Intrinsics, not inline assembly: also built under the sanitizers (ENYGMA_NO_ASM), which see
// its scalar parts and memory accesses.
#if defined(__x86_64__) && !defined(ENYGMA_LIMB32) && !defined(ENYGMA_NO_IFMA)
#define ENYGMA_HAVE_IFMA_KERNEL 1
// True when the 8-lane AVX-512 IFMA kernels (core/field/ifma/fe8.hpp) are in use.
extern bool g_use_ifma;
#endif

// Whether this CPU could run the ADX kernel (BMI2 + ADX), and whether it is in use.
bool cpu_supports_adx();
bool adx_enabled();
// Force the portable kernel (false) or, where supported, the ADX kernel (true). For tests and
// for measuring both; call before starting work on other threads.
void set_adx_enabled(bool on);

// The same for AVX-512 F + IFMA (and the OS saving the 512-bit registers): batch-affine G1 and
// G2 additions eight at a time (core/msm/batch_affine_lanes.hpp).
bool cpu_supports_ifma();
bool ifma_enabled();
void set_ifma_enabled(bool on);

// Whichever lane kernel for batch-affine additions this build has (AVX-512 IFMA on x86-64; none
// in WebAssembly): whether it is in use, and a switch for tests and benchmarks.
bool batch_lanes_enabled();
void set_batch_lanes_enabled(bool on);

}  // namespace enygma
