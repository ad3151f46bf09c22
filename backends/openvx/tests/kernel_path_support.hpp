// kernel_path_support.hpp: running one graph with the kernels a test selects through the
// environment (TESSERA_OPENVX_KERNELS=scalar / int32, TESSERA_OPENVX_ISA=avx2) and reading back
// which kernel ran from the node's log entry ("runs the ... kernel").
#pragma once

#include <cstdlib>
#include <string>

#include "vx_test_support.hpp"

namespace vx_test {

/// Sets or clears an environment variable for the scope of one run.
inline void set_env(const char* name, const char* value) {
    if (value) {
        setenv(name, value, 1);
    } else {
        unsetenv(name);
    }
}

/// The kernel the node ran last, from the newest "runs the ... kernel" log entry.
inline std::string last_kernel(const test_context& context) {
    const std::string mark = "runs the ";
    for (auto it = context.log().rbegin(); it != context.log().rend(); ++it) {
        const std::size_t at = it->message.find(mark);
        if (at == std::string::npos) continue;
        const std::size_t from = at + mark.size();
        return it->message.substr(from, it->message.rfind(" kernel") - from);
    }
    return "";
}

struct path_result {
    raw_t values;
    std::string kernel;
};

/// Processes `graph` with the kernels selected by TESSERA_OPENVX_KERNELS / TESSERA_OPENVX_ISA.
inline path_result run_path(test_context& context, vx_graph graph, vx_tensor out,
                            const char* kernels, const char* isa) {
    set_env("TESSERA_OPENVX_KERNELS", kernels);
    set_env("TESSERA_OPENVX_ISA", isa);
    process(graph);
    set_env("TESSERA_OPENVX_KERNELS", nullptr);
    set_env("TESSERA_OPENVX_ISA", nullptr);
    return {read_tensor(out), last_kernel(context)};
}

/// True for the names of the int16 SIMD kernels ("int16 SIMD avx512", ...).
inline bool int16_kernel(const std::string& kernel) {
    return kernel.find("int16 SIMD") == 0;
}

}  // namespace vx_test
