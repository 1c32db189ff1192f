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

// Whether this CPU could run the ADX kernel, and whether it is in use.
bool cpu_supports_adx();
bool adx_enabled();
// Force the portable kernel (false) or, where supported, the ADX kernel (true). For tests and
// for measuring both; call before starting work on other threads.
void set_adx_enabled(bool on);

}  // namespace enygma
