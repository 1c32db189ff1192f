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

#include <string>

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

// WebAssembly: batch-affine additions two at a time on f64x2 relaxed SIMD
// (core/msm/batch_affine_f64.cpp), in the module linked with that kernel (wasm/CMakeLists.txt:
// enygma_module_relaxed), which sets g_f64_lanes_available at start when the engine's
// relaxed_madd is fused. Other WebAssembly builds link the kernel's C++ model and leave it off.
#if defined(ENYGMA_LIMB32) && defined(__wasm__)
#define ENYGMA_HAVE_F64_LANES 1
extern bool g_use_f64_lanes;
void set_f64_lanes_available(bool available);
bool f64_lanes_available();
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

// The CPU as cpuid names it, so that a measurement can name its machine: the vendor
// ("AuthenticAMD", "GenuineIntel"), the family and model as the OS shows them (the base values
// with the extended ones added as the vendors define), the stepping, and the brand string
// without its padding. known is false (and the rest empty) where there is no cpuid
// (WebAssembly, other architectures).
struct CpuIdentity {
  bool known = false;
  std::string vendor, brand;
  unsigned family = 0, model = 0, stepping = 0;
};
CpuIdentity cpu_identity();

// Whichever lane kernel for batch-affine additions this build has (AVX-512 IFMA on x86-64; f64
// lanes in WebAssembly where available): whether it is in use, and a switch for tests and
// benchmarks.
bool batch_lanes_enabled();
void set_batch_lanes_enabled(bool on);

}  // namespace enygma
