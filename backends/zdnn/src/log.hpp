// Minimal logging facility honouring ZDNN_LOGLEVEL and ZDNN_LOGMODULE; writes to stderr.
#pragma once

#include "settings.hpp"

namespace tessera::zdnn {

// printf-style message from `module` (e.g. "transform") inside API function `where`.
void log_message(LogLevel level, const char* module, const char* where, const char* format, ...)
    __attribute__((format(printf, 4, 5)));

}  // namespace tessera::zdnn
