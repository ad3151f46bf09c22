// tessera/plugin/registry_impl.hpp: the plugin loader behind plugin_registry (registry.hpp):
// dlopen, directory scans, file checks, the ABI handshake and the built-in reference backend.
// Part of the runtime: included once per program, by tessera/implementation.hpp.
#pragma once

#include <dlfcn.h>
#include <sys/stat.h>

#include <dirent.h>
#include <algorithm>
#include <climits>
#include <cstddef>
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
#include "tessera/plugin/registry.hpp"
#include "tessera/reference/backend.hpp"

namespace tessera {

namespace detail {

const tsr_host_api* host_api() {
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

std::vector<std::string> split_list(const char* text) {
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
bool abi_compatible(int major, int minor) {
    return major == TSR_ABI_MAJOR && minor >= TSR_ABI_MIN_PLUGIN_MINOR;
}

/// The first required table slot that is missing, or nullptr.
const char* missing_required_slot(const tsr_plugin_api* t) {
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

namespace detail {

/// The setting handed over by set_fixed_directory (none until then).
fixed_plugin_directory& fixed_directory_setting() {
    static fixed_plugin_directory setting;
    return setting;
}

}  // namespace detail

bool plugin_registry::set_fixed_directory(const detail::fixed_plugin_directory& where) {
    plugin_registry& registry = instance();
    std::lock_guard<std::mutex> lock(registry.mutex_);
    detail::fixed_directory_setting() = where;
    return true;
}

plugin_registry& plugin_registry::instance() {
    static plugin_registry registry;
    return registry;
}

load_record plugin_registry::load(const std::string& path, const std::string& source) {
    std::lock_guard<std::mutex> lock(mutex_);
    return load_locked(path, source);
}

void plugin_registry::discover() {
    std::lock_guard<std::mutex> lock(mutex_);
    discover_locked();
}

const tsr_plugin_api* plugin_registry::find(std::string_view name) {
    std::lock_guard<std::mutex> lock(mutex_);
    discover_locked();
    for (const auto& p : plugins_)
        if (name == p.api->name) return p.api;
    return nullptr;
}

std::vector<plugin_entry> plugin_registry::plugins() {
    std::lock_guard<std::mutex> lock(mutex_);
    discover_locked();
    return plugins_;
}

std::vector<load_record> plugin_registry::report() {
    std::lock_guard<std::mutex> lock(mutex_);
    discover_locked();
    return records_;
}

std::string plugin_registry::report_text() {
    std::string s;
    for (const auto& r : report()) s += "  " + to_text(r) + '\n';
    return s;
}

void plugin_registry::discover_locked() {
    if (discovered_) return;
    discovered_ = true;
    for (const auto& file : detail::split_list(std::getenv("TESSERA_PLUGINS")))
        load_locked(file, "TESSERA_PLUGINS");
    for (const auto& dir : detail::split_list(std::getenv("TESSERA_PLUGIN_PATH")))
        scan_locked(dir, "TESSERA_PLUGIN_PATH");
    const detail::fixed_plugin_directory& fixed = detail::fixed_directory_setting();
    using fixed_kind = detail::fixed_plugin_directory::kind;
    if (fixed.where == fixed_kind::build_tree) {
        scan_locked(fixed.path, "build dir");
    } else if (fixed.where == fixed_kind::relative_to_module) {
        const std::string base = detail::module_directory(fixed.module_address);
        if (base.empty())
            records_.push_back({fixed.path,
                                "install dir",
                                load_result::not_found,
                                {},
                                "the program's own location is unknown"});
        else
            scan_locked(detail::normalized_path(base + "/" + fixed.path), "install dir");
    } else if (fixed.where == fixed_kind::install) {
        scan_locked(fixed.path, "install dir");
    }
    register_builtin_locked();
}

void plugin_registry::register_builtin_locked() {
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

void plugin_registry::scan_locked(const std::string& dir, const std::string& source) {
    DIR* d = opendir(dir.c_str());
    if (!d) {
        records_.push_back({dir, source, load_result::not_found, {}, "directory cannot be read"});
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

load_record plugin_registry::load_locked(const std::string& path, const std::string& source) {
    load_record r{path, source, load_result::not_found, {}, {}};
    auto finish = [&](load_result result, std::string detail) {
        r.result = result;
        r.detail = std::move(detail);
        records_.push_back(r);
        if (result == load_result::loaded)
            log::info("loader", "loaded " + path + " (" + r.backend + ")");
        else
            log::warn("loader",
                      path + ": " + to_string(result) + (r.detail.empty() ? "" : ": " + r.detail));
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

}  // namespace tessera
