// tessera/log_impl.hpp: the definition of log::write (log.hpp): through spdlog when built with
// TESSERA_WITH_SPDLOG (the runtime library of the CMake target is), else plain stderr. Part of
// the runtime: included once per program, by tessera/implementation.hpp.
#pragma once

#include <cstdio>
#include <string_view>

#include "tessera/log.hpp"

#if defined(TESSERA_WITH_SPDLOG)
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#endif

namespace tessera::log {

void write(level l, std::string_view source, std::string_view message) {
    if (!enabled(l)) return;
#if defined(TESSERA_WITH_SPDLOG)
    static const auto logger = [] {
        auto existing = spdlog::get("tessera");
        if (existing) return existing;
        auto created = spdlog::stderr_color_mt("tessera");
        created->set_level(spdlog::level::trace);
        return created;
    }();
    logger->log(static_cast<spdlog::level::level_enum>(static_cast<int>(l)), "[{}] {}", source,
                message);
#else
    static const char* const names[] = {"trace", "debug", "info", "warn", "error"};
    std::fprintf(stderr, "[tessera] [%s] [%.*s] %.*s\n", names[static_cast<int>(l)],
                 static_cast<int>(source.size()), source.data(), static_cast<int>(message.size()),
                 message.data());
#endif
}

}  // namespace tessera::log
