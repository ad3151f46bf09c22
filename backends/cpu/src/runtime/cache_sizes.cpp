// Cache size detection: sysconf where glibc knows the CPU (x86 cpuid), else the kernel's sysfs
// description of cpu0's caches (ARM and other hosts), else kFallbackCacheSizes.
#include "runtime/cache_sizes.hpp"

#include <unistd.h>

#include <cctype>
#include <fstream>

namespace tessera::cpu {
namespace {

std::string read_line(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

/// Size of cpu0's cache of `level` whose type is "Data" or "Unified"; 0 if none is described.
std::size_t sysfs_cache_size(int level) {
    const std::string base = "/sys/devices/system/cpu/cpu0/cache/index";
    for (int index = 0; index < 8; ++index) {
        const std::string dir = base + std::to_string(index) + "/";
        const std::string lvl = read_line(dir + "level");
        if (lvl.empty()) break;
        const std::string type = read_line(dir + "type");
        if (lvl == std::to_string(level) && (type == "Data" || type == "Unified"))
            return parse_cache_size(read_line(dir + "size"));
    }
    return 0;
}

/// glibc's size for the cache of `level` (1: data, 2: unified); 0 where it does not know it.
std::size_t sysconf_size(int level) {
#if defined(_SC_LEVEL1_DCACHE_SIZE)
    const long v = sysconf(level == 1 ? _SC_LEVEL1_DCACHE_SIZE : _SC_LEVEL2_CACHE_SIZE);
    return v > 0 ? static_cast<std::size_t>(v) : 0;
#else
    (void)level;
    return 0;
#endif
}

std::size_t detect(int level, std::size_t fallback) {
    if (std::size_t s = sysconf_size(level)) return s;
    if (std::size_t s = sysfs_cache_size(level)) return s;
    return fallback;
}

}  // namespace

std::size_t parse_cache_size(const std::string& text) {
    std::size_t value = 0, i = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i)
        value = value * 10 + static_cast<std::size_t>(text[i] - '0');
    if (i == 0) return 0;
    const std::string unit = text.substr(i);
    if (unit.empty()) return value;
    if (unit == "K") return value * 1024;
    if (unit == "M") return value * 1024 * 1024;
    return 0;
}

const CacheSizes& host_cache_sizes() {
    static const CacheSizes sizes{detect(1, kFallbackCacheSizes.l1d),
                                  detect(2, kFallbackCacheSizes.l2)};
    return sizes;
}

}  // namespace tessera::cpu
