// f16c_oracle.cpp: F16C-based binary16 conversions, compiled for F16C per function so the rest
// of the test binary stays baseline x86-64.
#include "f16c_oracle.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

namespace tessera_test {

bool f16c_available() {
    // CPUID leaf 1, ECX bit 29 (clang 14's __builtin_cpu_supports does not know "f16c").
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
}

__attribute__((target("f16c"))) std::uint16_t f16c_from_float(float f) {
    return static_cast<std::uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
}

__attribute__((target("f16c"))) float f16c_to_float(std::uint16_t h) {
    return _cvtsh_ss(h);
}

}  // namespace tessera_test

#else

namespace tessera_test {

bool f16c_available() {
    return false;
}
std::uint16_t f16c_from_float(float) {
    return 0;
}
float f16c_to_float(std::uint16_t) {
    return 0.0f;
}

}  // namespace tessera_test

#endif
