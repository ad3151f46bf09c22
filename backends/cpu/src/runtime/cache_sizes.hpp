// The host's per-core data cache sizes, read once (sysconf, else sysfs, else conservative
// defaults), for cache blocking that depends on the machine rather than on the instruction set.
#pragma once

#include <cstddef>
#include <string>

namespace tessera::cpu {

struct CacheSizes {
    std::size_t l1d = 0;  ///< bytes of level-1 data cache per core
    std::size_t l2 = 0;   ///< bytes of level-2 cache per core
};

/// Sizes used when the host does not report one.
constexpr CacheSizes kFallbackCacheSizes{32 * 1024, 512 * 1024};

/// This host's cache sizes (detected on first use; never zero).
const CacheSizes& host_cache_sizes();

/// Bytes in a sysfs cache size string ("48K", "1024K", "32M", "512"); 0 if it is not one.
std::size_t parse_cache_size(const std::string& text);

}  // namespace tessera::cpu
