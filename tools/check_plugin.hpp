// check_plugin.hpp: `tessera --check-plugin FILE`, loading a plugin file in a child process.
#pragma once

#include <string>

namespace tessera::cli {

/// Loads `path` in a child process and prints what happened: the loader's report line, or the
/// signal or exit status that ended the child, or that the entry did not return within
/// `timeout_s` seconds (the child is then killed). Returns 0 when the plugin loaded, else 1.
int check_plugin(const std::string& path, int timeout_s);

}  // namespace tessera::cli
