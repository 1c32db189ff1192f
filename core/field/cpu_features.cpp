#include "core/field/cpu_features.hpp"

#if defined(__x86_64__)
#include <cpuid.h>

#include <cstring>
#endif

namespace enygma {

CpuIdentity cpu_identity() {
  CpuIdentity id;
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return id;
  char vendor[13] = {};
  memcpy(vendor, &ebx, 4);
  memcpy(vendor + 4, &edx, 4);
  memcpy(vendor + 8, &ecx, 4);
  id.vendor = vendor;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return id;
  // Leaf 1 EAX: stepping 3:0, model 7:4, family 11:8, extended model 19:16, extended family
  // 27:20. The extended family is added where the family is 0xF; the extended model is the
  // model's high nibble where the family is 6 or 0xF.
  const unsigned base_family = (eax >> 8) & 0xF, base_model = (eax >> 4) & 0xF;
  id.family = base_family == 0xF ? base_family + ((eax >> 20) & 0xFF) : base_family;
  id.model =
      base_family == 6 || base_family == 0xF ? (((eax >> 16) & 0xF) << 4) | base_model : base_model;
  id.stepping = eax & 0xF;
  id.known = true;
  // (__get_cpuid_max returns an int in clang's cpuid.h, an unsigned in GCC's)
  if (static_cast<unsigned>(__get_cpuid_max(0x80000000u, nullptr)) >= 0x80000004u) {
    char brand[49] = {};
    for (unsigned leaf = 0; leaf < 3; ++leaf) {
      __get_cpuid(0x80000002u + leaf, &eax, &ebx, &ecx, &edx);
      const unsigned words[4] = {eax, ebx, ecx, edx};
      memcpy(brand + 16 * leaf, words, sizeof words);
    }
    std::string b(brand);  // (up to its NUL)
    const size_t first = b.find_first_not_of(' ');
    const size_t last = b.find_last_not_of(' ');
    id.brand = first == std::string::npos ? std::string() : b.substr(first, last - first + 1);
  }
#endif
  return id;
}

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

bool cpu_supports_ifma() {
#if defined(ENYGMA_HAVE_IFMA_KERNEL)
  // CPUID.1:ECX bit 27 = OSXSAVE, bit 28 = AVX; XCR0 bits 1, 2 (SSE, AVX) and 5, 6, 7 (opmask,
  // ZMM) = the OS saves the AVX-512 state; CPUID.7.0:EBX bit 5 = AVX2 (the compiler uses it in
  // the kernels' helpers), bit 16 = AVX512F, bit 21 = AVX512IFMA.
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & (1u << 27)) || !(ecx & (1u << 28))) {
    return false;
  }
  unsigned xcr0_lo = 0, xcr0_hi = 0;
  __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
  if ((xcr0_lo & 0xE6u) != 0xE6u) return false;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  return (ebx & (1u << 5)) && (ebx & (1u << 16)) && (ebx & (1u << 21));
#else
  return false;
#endif
}

#if defined(ENYGMA_HAVE_IFMA_KERNEL)
bool g_use_ifma = cpu_supports_ifma();
bool ifma_enabled() {
  return g_use_ifma;
}
void set_ifma_enabled(bool on) {
  g_use_ifma = on && cpu_supports_ifma();
}
#else
bool ifma_enabled() {
  return false;
}
void set_ifma_enabled(bool) {}
#endif

#if defined(ENYGMA_HAVE_F64_LANES)
bool g_use_f64_lanes = false;
namespace {
bool g_f64_lanes_available = false;
}
void set_f64_lanes_available(bool available) {
  g_f64_lanes_available = available;
  g_use_f64_lanes = available;
}
bool f64_lanes_available() {
  return g_f64_lanes_available;
}
#endif

bool batch_lanes_enabled() {
#if defined(ENYGMA_HAVE_IFMA_KERNEL)
  return g_use_ifma;
#elif defined(ENYGMA_HAVE_F64_LANES)
  return g_use_f64_lanes;
#else
  return false;
#endif
}

void set_batch_lanes_enabled([[maybe_unused]] bool on) {
#if defined(ENYGMA_HAVE_IFMA_KERNEL)
  set_ifma_enabled(on);
#elif defined(ENYGMA_HAVE_F64_LANES)
  g_use_f64_lanes = on && g_f64_lanes_available;
#endif
}

#if defined(ENYGMA_HAVE_ADX_KERNEL)
bool g_use_adx = cpu_supports_adx();
bool adx_enabled() {
  return g_use_adx;
}
void set_adx_enabled(bool on) {
  g_use_adx = on && cpu_supports_adx();
}
#else
bool adx_enabled() {
  return false;
}
void set_adx_enabled(bool) {}
#endif

}  // namespace enygma
