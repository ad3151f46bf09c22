// tessera/plugin/module_location.hpp: the directory of the program or shared library that holds
// the calling code, so that an installed program finds files relative to where it is installed
// (a moved prefix keeps working). Symbolic links are resolved.
#pragma once

#include <dlfcn.h>
#include <link.h>

#include <climits>
#include <cstdlib>
#include <string>

namespace tessera::detail {

/// `path` with symbolic links, "." and ".." resolved when it exists, else unchanged.
inline std::string normalized_path(const std::string& path) {
    char resolved[PATH_MAX];
    return realpath(path.c_str(), resolved) ? std::string(resolved) : path;
}

/// Directory (no trailing '/') of the module containing `address`, or "" when unknown.
inline std::string module_directory(const void* address) {
    Dl_info info{};
    link_map* module = nullptr;
    if (!dladdr1(address, &info, reinterpret_cast<void**>(&module), RTLD_DL_LINKMAP) || !module)
        return {};
    // The main program's link map has an empty name; its file is /proc/self/exe.
    const std::string file =
        module->l_name && module->l_name[0] ? module->l_name : "/proc/self/exe";
    char resolved[PATH_MAX];
    if (!realpath(file.c_str(), resolved)) return {};
    std::string dir(resolved);
    const auto slash = dir.rfind('/');
    return slash == std::string::npos ? std::string() : dir.substr(0, slash);
}

}  // namespace tessera::detail
