// tessera/plugin/registry.hpp: finds, loads and remembers backend plugins; the process's one
// piece of global mutable state. Search order: paths given through the API, files listed in
// TESSERA_PLUGINS, directories listed in TESSERA_PLUGIN_PATH (both ':'-separated, read once),
// then one plugin directory fixed at build time:
//   - TESSERA_BUILD_PLUGIN_DIR: programs built in Tessera's own build tree (its plugins/);
//   - TESSERA_RELATIVE_PLUGIN_DIR: installed Tessera programs, relative to the directory of the
//     program or library holding this code (bin/tessera finds ../lib/tessera/plugins), so a
//     moved installation keeps working and no build tree is ever searched;
//   - TESSERA_INSTALL_PLUGIN_DIR: programs built against an installed package (absolute).
// Files are de-duplicated by real path and backends by name; dlopen uses RTLD_LOCAL and
// libraries are never closed. Every candidate gets a line in the report. A file that is not a
// regular file or an ELF file cut short is refused before dlopen (plugin_file_check.hpp) and an
// entry function that throws is caught, so no bad file takes the process down. An entry function
// that aborts, exits or never returns cannot be contained in-process: `tessera --check-plugin
// FILE` loads a file in a child process and reports what happened.
#pragma once

#include <dlfcn.h>
#include <sys/stat.h>

#include <dirent.h>
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/plugin.h"
#include "tessera/log.hpp"
#include "tessera/plugin/error_record.hpp"
#include "tessera/plugin/module_location.hpp"
#include "tessera/plugin/plugin_file_check.hpp"
#include "tessera/reference/backend.hpp"

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

/// A usable plugin.
struct plugin_entry {
    const tsr_plugin_api* api = nullptr;
    std::string path;
};

namespace detail {

inline const tsr_host_api* host_api() {
    static const tsr_host_api host = [] {
        tsr_host_api h{};
        h.struct_size = sizeof h;
        h.abi_major = TSR_ABI_MAJOR;
        h.abi_minor = TSR_ABI_MINOR;
        h.log = &log::from_plugin;
        return h;
    }();
    return &host;
}

inline std::vector<std::string> split_list(const char* text) {
    std::vector<std::string> out;
    if (!text) return out;
    std::string item;
    for (const char* p = text;; ++p) {
        if (*p == ':' || *p == '\0') {
            if (!item.empty()) out.push_back(item);
            item.clear();
            if (!*p) break;
        } else {
            item += *p;
        }
    }
    return out;
}

/// Same major version, and a plugin minor version this host still accepts.
inline bool abi_compatible(int major, int minor) {
    return major == TSR_ABI_MAJOR && minor >= TSR_ABI_MIN_PLUGIN_MINOR;
}

/// The first required table slot that is missing, or nullptr.
inline const char* missing_required_slot(const tsr_plugin_api* t) {
    if (!t->name || !*t->name) return "name";
    if (!t->create_backend) return "create_backend";
    if (!t->release_backend) return "release_backend";
    if (!t->query_op) return "query_op";
    if (!t->compile) return "compile";
    if (!t->release_compiled) return "release_compiled";
    if (!t->execute) return "execute";
    if (!t->buffer_allocate) return "buffer_allocate";
    if (!t->buffer_release) return "buffer_release";
    if (!t->copy_to_host) return "copy_to_host";
    if (!t->copy_from_host) return "copy_from_host";
    return nullptr;
}

}  // namespace detail

/// Thread safety: every member function may be called from any thread at once (one internal
/// mutex; discovery runs once, under it). Loading a plugin runs its entry function under that
/// mutex, so an entry must not call back into the registry.
class plugin_registry {
  public:
    /// The process-wide registry.
    static plugin_registry& instance() {
        static plugin_registry registry;
        return registry;
    }

    /// Loads one plugin file; the outcome goes into the report (and is returned). Never throws
    /// for a bad plugin.
    load_record load(const std::string& path, const std::string& source = "api") {
        std::lock_guard<std::mutex> lock(mutex_);
        return load_locked(path, source);
    }

    /// Searches the environment and the install directory, once.
    void discover() {
        std::lock_guard<std::mutex> lock(mutex_);
        discover_locked();
    }

    /// The plugin serving `name`, or nullptr. Discovers first.
    const tsr_plugin_api* find(std::string_view name) {
        std::lock_guard<std::mutex> lock(mutex_);
        discover_locked();
        for (const auto& p : plugins_)
            if (name == p.api->name) return p.api;
        return nullptr;
    }

    /// Every usable plugin, the built-in reference backend last.
    std::vector<plugin_entry> plugins() {
        std::lock_guard<std::mutex> lock(mutex_);
        discover_locked();
        return plugins_;
    }

    std::vector<load_record> report() {
        std::lock_guard<std::mutex> lock(mutex_);
        discover_locked();
        return records_;
    }

    /// The report as text, one candidate per line.
    std::string report_text() {
        std::string s;
        for (const auto& r : report()) s += "  " + to_text(r) + '\n';
        return s;
    }

  private:
    plugin_registry() = default;

    void discover_locked() {
        if (discovered_) return;
        discovered_ = true;
        for (const auto& file : detail::split_list(std::getenv("TESSERA_PLUGINS")))
            load_locked(file, "TESSERA_PLUGINS");
        for (const auto& dir : detail::split_list(std::getenv("TESSERA_PLUGIN_PATH")))
            scan_locked(dir, "TESSERA_PLUGIN_PATH");
#if defined(TESSERA_BUILD_PLUGIN_DIR)
        scan_locked(TESSERA_BUILD_PLUGIN_DIR, "build dir");
#elif defined(TESSERA_RELATIVE_PLUGIN_DIR)
        const std::string base = detail::module_directory(reinterpret_cast<const void*>(&instance));
        if (base.empty())
            records_.push_back({TESSERA_RELATIVE_PLUGIN_DIR,
                                "install dir",
                                load_result::not_found,
                                {},
                                "the program's own location is unknown"});
        else
            scan_locked(detail::normalized_path(base + "/" + TESSERA_RELATIVE_PLUGIN_DIR),
                        "install dir");
#elif defined(TESSERA_INSTALL_PLUGIN_DIR)
        scan_locked(TESSERA_INSTALL_PLUGIN_DIR, "install dir");
#endif
        register_builtin_locked();
    }

    void register_builtin_locked() {
        const tsr_plugin_api* api = reference::plugin_table(detail::host_api());
        load_record r{"(compiled in)", "built-in", load_result::builtin, api->name, {}};
        for (const auto& p : plugins_) {
            if (std::string_view(p.api->name) == api->name) {
                r.result = load_result::duplicate;
                r.detail = "shadowed by " + p.path;
                records_.push_back(r);
                return;
            }
        }
        plugins_.push_back({api, "(compiled in)"});
        records_.push_back(r);
    }

    void scan_locked(const std::string& dir, const std::string& source) {
        DIR* d = opendir(dir.c_str());
        if (!d) {
            records_.push_back(
                {dir, source, load_result::not_found, {}, "directory cannot be read"});
            return;
        }
        std::vector<std::string> files;
        while (const dirent* e = readdir(d)) {
            const std::string name = e->d_name;
            if (name.rfind("libtessera_plugin_", 0) == 0 && name.size() > 3 &&
                name.compare(name.size() - 3, 3, ".so") == 0)
                files.push_back(dir + "/" + name);
        }
        closedir(d);
        std::sort(files.begin(), files.end());
        for (const auto& f : files) load_locked(f, source);
    }

    load_record load_locked(const std::string& path, const std::string& source) {
        load_record r{path, source, load_result::not_found, {}, {}};
        auto finish = [&](load_result result, std::string detail) {
            r.result = result;
            r.detail = std::move(detail);
            records_.push_back(r);
            if (result == load_result::loaded)
                log::info("loader", "loaded " + path + " (" + r.backend + ")");
            else
                log::warn("loader", path + ": " + to_string(result) +
                                        (r.detail.empty() ? "" : ": " + r.detail));
            return r;
        };
        struct stat st {};
        if (stat(path.c_str(), &st) != 0) return finish(load_result::not_found, "no such file");
        if (std::string problem = detail::plugin_file_problem(path); !problem.empty())
            return finish(load_result::invalid_file, std::move(problem));
        char resolved[PATH_MAX];
        const std::string real = realpath(path.c_str(), resolved) ? std::string(resolved) : path;
        for (const auto& p : plugins_)
            if (p.path == real) return finish(load_result::duplicate, "already loaded");

        void* handle = dlopen(real.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* why = dlerror();
            return finish(load_result::dlopen_failed, why ? why : "unknown dlopen error");
        }
        // Libraries stay loaded for the life of the process: unloading at exit is the classic
        // crash.
        dlerror();
        void* sym = dlsym(handle, TSR_PLUGIN_ENTRY_SYMBOL);
        if (!sym)
            return finish(load_result::missing_entry,
                          std::string("no symbol ") + TSR_PLUGIN_ENTRY_SYMBOL);
        const auto entry = reinterpret_cast<tsr_plugin_entry_fn>(sym);
        tsr_error err{};
        err.struct_size = sizeof err;
        const tsr_plugin_api* api = nullptr;
        try {
            api = entry(detail::host_api(), &err);
        } catch (const std::exception& e) {
            return finish(load_result::entry_threw, std::string("exception: ") + e.what());
        } catch (...) {
            return finish(load_result::entry_threw, "an exception not derived from std::exception");
        }
        if (!api) {
            const std::string message = detail::bounded_text(err.message);
            return finish(load_result::init_failed,
                          message.empty() ? "entry returned no table" : message);
        }
        if (api->struct_size < offsetof(tsr_plugin_api, event_wait)) {
            return finish(load_result::init_failed,
                          "table too short (" + std::to_string(api->struct_size) + " bytes)");
        }
        r.backend = api->name ? api->name : "";
        if (!detail::abi_compatible(api->abi_major, api->abi_minor)) {
            return finish(load_result::abi_mismatch,
                          "plugin ABI " + std::to_string(api->abi_major) + "." +
                              std::to_string(api->abi_minor) + ", host ABI " +
                              std::to_string(TSR_ABI_MAJOR) + "." + std::to_string(TSR_ABI_MINOR) +
                              " (needs major " + std::to_string(TSR_ABI_MAJOR) +
                              ", minor >= " + std::to_string(TSR_ABI_MIN_PLUGIN_MINOR) +
                              "); rebuild the plugin against this Tessera");
        }
        if (const char* slot = detail::missing_required_slot(api)) {
            return finish(load_result::init_failed,
                          std::string("required slot '") + slot + "' is missing");
        }
        for (auto it = plugins_.begin(); it != plugins_.end(); ++it) {
            if (std::string_view(it->api->name) == api->name) {
                if (it->path == "(compiled in)") {  // a real plugin file replaces the built-in copy
                    plugins_.erase(it);
                    break;
                }
                return finish(load_result::duplicate,
                              "backend '" + r.backend + "' already provided by " + it->path);
            }
        }
        plugins_.push_back({api, real});
        return finish(load_result::loaded,
                      api->version ? std::string("version ") + api->version : std::string());
    }

    std::mutex mutex_;
    bool discovered_ = false;
    std::vector<plugin_entry> plugins_;
    std::vector<load_record> records_;
};

}  // namespace tessera
