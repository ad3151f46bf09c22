// tessera/plugin/error_record.hpp: reads the text fields of a plugin's tsr_error record. A plugin
// may fill a field to its last byte without a terminator, so every read stops at the end of the
// field's buffer.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>

#include "tessera/c/plugin.h"

namespace tessera::detail {

/// The text of a fixed-size char field: up to its first NUL, or the whole buffer when it has none.
template <std::size_t N>
std::string bounded_text(const char (&field)[N]) {
    const void* nul = std::memchr(field, '\0', N);
    const std::size_t length =
        nul ? static_cast<std::size_t>(static_cast<const char*>(nul) - field) : N;
    return std::string(field, length);
}

}  // namespace tessera::detail
