// tessera/version.hpp: the front-end's version and the plugin ABI version it speaks.
#pragma once

#include "tessera/c/plugin.h"

namespace tessera {

inline constexpr int version_major = 0;
inline constexpr int version_minor = 1;
inline constexpr int version_patch = 0;
inline constexpr const char* version_string = "0.1.0";
inline constexpr int abi_major = TSR_ABI_MAJOR;
inline constexpr int abi_minor = TSR_ABI_MINOR;

}  // namespace tessera
