// f16c_oracle.hpp: the x86 F16C instructions as an independent reference for binary16
// conversions. Only call the converters when f16c_available() is true.
#pragma once

#include <cstdint>

namespace tessera_test {

bool f16c_available();
/// fp32 -> binary16 with VCVTPS2PH, round to nearest even.
std::uint16_t f16c_from_float(float f);
/// binary16 -> fp32 with VCVTPH2PS.
float f16c_to_float(std::uint16_t h);

}  // namespace tessera_test
