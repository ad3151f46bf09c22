// Runtime settings taken from the environment (ZDNN_ENABLE_PRECHECK, ZDNN_STATUS_DIAG,
// ZDNN_LOGLEVEL, ZDNN_LOGMODULE). Read by zdnn_init(), which runs at library load and may be
// called again to re-read them; this is the only mutable global state and the API implies it.
#pragma once

#include <cstdint>
#include <string>

namespace tessera::zdnn {

enum class LogLevel : int { off = 0, fatal, error, warn, info, debug, trace };

struct Settings {
  bool precheck = false;
  bool diag_enabled = false;
  uint32_t diag_status = 0;
  LogLevel log_level = LogLevel::off;
  std::string log_modules;  // empty: every module
};

// Re-reads the environment.
void reload_settings();
// A snapshot of the current settings (cheap copy-free access through a reference that stays
// valid until the next reload_settings()).
Settings current_settings();
bool precheck_enabled();

}  // namespace tessera::zdnn
