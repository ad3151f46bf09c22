// tessera/plugin/registry.hpp: finds, loads and remembers backend plugins; the process's one
// piece of global mutable state. Search order: paths given through the API, files listed in
// TESSERA_PLUGINS, directories listed in TESSERA_PLUGIN_PATH (both ':'-separated, read once),
// then one plugin directory fixed at build time:
//   - TESSERA_BUILD_PLUGIN_DIR: programs built in Tessera's own build tree (its plugins/);
//   - TESSERA_RELATIVE_PLUGIN_DIR: installed Tessera programs, relative to the directory of the
//     program or library that includes this header (bin/tessera finds ../lib/tessera/plugins),
//     so a moved installation keeps working and no build tree is ever searched;
//   - TESSERA_INSTALL_PLUGIN_DIR: programs built against an installed package (absolute).
// Files are de-duplicated by real path and backends by name; dlopen uses RTLD_LOCAL and
// libraries are never closed. Every candidate gets a line in the report. A file that is not a
// regular file or an ELF file cut short is refused before dlopen (plugin_file_check.hpp) and an
// entry function that throws is caught, so no bad file takes the process down. An entry function
// that aborts, exits or never returns cannot be contained in-process: `tessera --check-plugin
// FILE` loads a file in a child process and reports what happened.
// The macro is read where this header is included (it comes with the CMake target), and handed
// to the registry before main(); the loader itself (dlopen, directory scans) is defined in the
// runtime (registry_impl.hpp).
#pragma once

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/plugin.h"

namespace tessera {

enum class load_result {
    loaded,         ///< usable
    builtin,        ///< compiled into this program (the reference backend)
    not_found,      ///< no such file
    invalid_file,   ///< not a regular file, or an ELF file cut short (refused before dlopen)
    dlopen_failed,  ///< detail holds dlerror()'s full text
    missing_entry,  ///< no tsr_plugin_entry symbol
    abi_mismatch,   ///< detail names both versions
    entry_threw,    ///< the entry function threw; detail holds what() when it is known
    init_failed,    ///< the entry returned NULL or the table lacks required slots
    duplicate,      ///< same file or same backend name as an earlier candidate
};

inline const char* to_string(load_result r) {
    switch (r) {
        case load_result::loaded:
            return "loaded";
        case load_result::builtin:
            return "built-in";
        case load_result::not_found:
            return "not found";
        case load_result::invalid_file:
            return "invalid file";
        case load_result::dlopen_failed:
            return "dlopen failed";
        case load_result::missing_entry:
            return "missing entry symbol";
        case load_result::abi_mismatch:
            return "ABI mismatch";
        case load_result::entry_threw:
            return "entry threw";
        case load_result::init_failed:
            return "init failed";
        case load_result::duplicate:
            return "duplicate";
    }
    return "?";
}

/// One candidate plugin file and what became of it.
struct load_record {
    std::string path;
    std::string
        source;  ///< "api", "TESSERA_PLUGINS", "TESSERA_PLUGIN_PATH", "install dir", "built-in"
    load_result result = load_result::not_found;
    std::string backend;  ///< the backend's name when known
    std::string detail;
};

/// One report line: "[outcome] path (source) backend 'name': detail".
inline std::string to_text(const load_record& r) {
    std::string s = "[" + std::string(to_string(r.result)) + "] " + r.path + " (" + r.source + ")";
    if (!r.backend.empty()) s += " backend '" + r.backend + "'";
    if (!r.detail.empty()) s += ": " + r.detail;
    return s;
}

namespace detail {

/// The plugin directory fixed at build time, and how to read it.
struct fixed_plugin_directory {
    enum class kind { none, build_tree, relative_to_module, install };
    kind where = kind::none;
    const char* path = nullptr;
    /// For relative_to_module: an address inside the program or library the path is relative to.
    const void* module_address = nullptr;
};

}  // namespace detail

/// A usable plugin.
struct plugin_entry {
    const tsr_plugin_api* api = nullptr;
    std::string path;
};

/// Thread safety: every member function may be called from any thread at once (one internal
/// mutex; discovery runs once, under it). Loading a plugin runs its entry function under that
/// mutex, so an entry must not call back into the registry.
class plugin_registry {
  public:
    /// The process-wide registry.
    static plugin_registry& instance();

    /// Loads one plugin file; the outcome goes into the report (and is returned). Never throws
    /// for a bad plugin.
    load_record load(const std::string& path, const std::string& source = "api");

    /// Searches the environment and the install directory, once.
    void discover();

    /// The plugin serving `name`, or nullptr. Discovers first.
    const tsr_plugin_api* find(std::string_view name);

    /// Every usable plugin, the built-in reference backend last.
    std::vector<plugin_entry> plugins();

    std::vector<load_record> report();

    /// The report as text, one candidate per line.
    std::string report_text();

    /// Sets the plugin directory searched last (see the top of this file); the headers call it
    /// before main() from the program's own build settings. A later call replaces the setting
    /// until the first discovery.
    static bool set_fixed_directory(const detail::fixed_plugin_directory& where);

  private:
    plugin_registry() = default;

    void discover_locked();
    void register_builtin_locked();
    void scan_locked(const std::string& dir, const std::string& source);
    load_record load_locked(const std::string& path, const std::string& source);

    std::mutex mutex_;
    bool discovered_ = false;
    std::vector<plugin_entry> plugins_;
    std::vector<load_record> records_;
};

#if defined(TESSERA_BUILD_PLUGIN_DIR) || defined(TESSERA_RELATIVE_PLUGIN_DIR) || \
    defined(TESSERA_INSTALL_PLUGIN_DIR)
namespace detail {

/// The build-time plugin directory of the code including this header.
inline constexpr fixed_plugin_directory configured_plugin_directory() {
#if defined(TESSERA_BUILD_PLUGIN_DIR)
    return {fixed_plugin_directory::kind::build_tree, TESSERA_BUILD_PLUGIN_DIR};
#elif defined(TESSERA_RELATIVE_PLUGIN_DIR)
    return {fixed_plugin_directory::kind::relative_to_module, TESSERA_RELATIVE_PLUGIN_DIR};
#else
    return {fixed_plugin_directory::kind::install, TESSERA_INSTALL_PLUGIN_DIR};
#endif
}

/// Hands configured_plugin_directory() to the registry during static initialisation (code
/// built without a build-time directory, such as the runtime library itself, defines nothing).
inline const bool plugin_directory_registered = plugin_registry::set_fixed_directory(
    {configured_plugin_directory().where, configured_plugin_directory().path,
     &plugin_directory_registered});

}  // namespace detail
#endif

}  // namespace tessera
