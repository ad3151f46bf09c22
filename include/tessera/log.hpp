// tessera/log.hpp: logging for the front-end. Quiet by default; TESSERA_LOG_LEVEL (trace, debug,
// info, warn, error, off) sets the level, read once. Through spdlog when the program links it
// (the runtime library of the CMake target tessera::tessera is built with TESSERA_WITH_SPDLOG);
// plain stderr for include-path-only use. write() is defined in the runtime (log_impl.hpp), so
// spdlog's headers never reach user code.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tessera/c/plugin.h"

namespace tessera::log {

enum class level : int { trace = 0, debug = 1, info = 2, warn = 3, error = 4, off = 5 };

inline level parse_level(std::string_view s) {
    if (s == "trace") return level::trace;
    if (s == "debug") return level::debug;
    if (s == "info") return level::info;
    if (s == "warn" || s == "warning") return level::warn;
    if (s == "error") return level::error;
    return level::off;
}

/// The level from TESSERA_LOG_LEVEL, read once; "off" when unset.
inline level threshold() {
    static const level value = [] {
        const char* env = std::getenv("TESSERA_LOG_LEVEL");
        return env ? parse_level(env) : level::off;
    }();
    return value;
}

inline bool enabled(level l) {
    return l != level::off && static_cast<int>(l) >= static_cast<int>(threshold());
}

/// Writes one message when `l` is enabled.
void write(level l, std::string_view source, std::string_view message);

inline void debug(std::string_view source, const std::string& message) {
    write(level::debug, source, message);
}
inline void info(std::string_view source, const std::string& message) {
    write(level::info, source, message);
}
inline void warn(std::string_view source, const std::string& message) {
    write(level::warn, source, message);
}

/// The callback plugins receive in tsr_host_api::log.
inline void from_plugin(std::int32_t lvl, const char* plugin, const char* message) {
    const int clamped = lvl < 0 ? 0 : (lvl > 4 ? 4 : lvl);
    write(static_cast<level>(clamped), plugin ? plugin : "plugin", message ? message : "");
}

}  // namespace tessera::log
