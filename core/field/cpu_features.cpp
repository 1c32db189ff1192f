#include "core/field/cpu_features.hpp"

namespace enygma {

bool cpu_supports_adx() {
#if defined(ENYGMA_HAVE_ADX_KERNEL)
  __builtin_cpu_init();
  return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("adx");
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
