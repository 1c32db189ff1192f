#include "core/field/cpu_features.hpp"

#if defined(ENYGMA_HAVE_ADX_KERNEL)
#include <cpuid.h>
#endif

namespace enygma {

bool cpu_supports_adx() {
#if defined(ENYGMA_HAVE_ADX_KERNEL)
  // CPUID leaf 7, sub-leaf 0: EBX bit 8 = BMI2 (MULX), bit 19 = ADX (ADCX/ADOX). Read directly
  // rather than by __builtin_cpu_supports, which clang 14 does not know for "adx".
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  return (ebx & bit_BMI2) && (ebx & bit_ADX);
#else
  return false;
#endif
}

#if defined(ENYGMA_HAVE_ADX_KERNEL)
bool g_use_adx = cpu_supports_adx();
bool adx_enabled() { return g_use_adx; }
void set_adx_enabled(bool on) { g_use_adx = on && cpu_supports_adx(); }
#else
bool adx_enabled() { return false; }
void set_adx_enabled(bool) {}
#endif

}  // namespace enygma
