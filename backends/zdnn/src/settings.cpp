// Environment-variable settings of the zDNN emulator, read once at load and by zdnn_init().
#include "settings.hpp"

#include <strings.h>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace tessera::zdnn {
namespace {

std::mutex& settings_mutex() {
  static std::mutex m;
  return m;
}
Settings& settings_storage() {
  static Settings s;
  return s;
}

LogLevel parse_level(const char* text) {
  struct Named {
    const char* name;
    LogLevel level;
  };
  static constexpr Named names[] = {{"off", LogLevel::off},    {"fatal", LogLevel::fatal}, {"error", LogLevel::error},
                                    {"warn", LogLevel::warn},  {"info", LogLevel::info},   {"debug", LogLevel::debug},
                                    {"trace", LogLevel::trace}};
  for (const auto& n : names)
    if (strcasecmp(text, n.name) == 0) return n.level;
  return LogLevel::off;
}

}  // namespace

void reload_settings() {
  Settings s;
  if (const char* p = std::getenv("ZDNN_ENABLE_PRECHECK")) s.precheck = strcasecmp(p, "true") == 0;
  if (const char* d = std::getenv("ZDNN_STATUS_DIAG"); d && *d) {
    char* end = nullptr;
    const unsigned long v = std::strtoul(d, &end, 0);  // decimal or 0x-prefixed hexadecimal
    if (end && *end == '\0') {
      s.diag_enabled = true;
      s.diag_status = static_cast<uint32_t>(v);
    }
  }
  if (const char* l = std::getenv("ZDNN_LOGLEVEL")) s.log_level = parse_level(l);
  if (const char* m = std::getenv("ZDNN_LOGMODULE")) s.log_modules = m;
  std::lock_guard<std::mutex> lock(settings_mutex());
  settings_storage() = s;
}

Settings current_settings() {
  std::lock_guard<std::mutex> lock(settings_mutex());
  return settings_storage();
}

bool precheck_enabled() {
  std::lock_guard<std::mutex> lock(settings_mutex());
  return settings_storage().precheck;
}

}  // namespace tessera::zdnn
