// Logging to stderr filtered by ZDNN_LOGLEVEL and the ZDNN_LOGMODULE list (comma/space separated).
#include "log.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>

namespace tessera::zdnn {
namespace {

bool module_selected(const std::string& modules, const char* module) {
  if (modules.empty()) return true;
  const std::string wanted(module);
  size_t pos = 0;
  while (pos < modules.size()) {
    const size_t end = modules.find_first_of(", ", pos);
    const std::string item = modules.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (item == wanted) return true;
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return false;
}

const char* level_name(LogLevel l) {
  static constexpr const char* names[] = {"OFF", "FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE"};
  return names[static_cast<int>(l)];
}

}  // namespace

void log_message(LogLevel level, const char* module, const char* where, const char* format, ...) {
  const Settings s = current_settings();
  if (level == LogLevel::off || static_cast<int>(level) > static_cast<int>(s.log_level)) return;
  if (!module_selected(s.log_modules, module)) return;
  char text[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  std::fprintf(stderr, "zDNN %s [%s] %s: %s\n", level_name(level), module, where, text);
}

}  // namespace tessera::zdnn
