// plugin_entry.cpp: the one exported symbol of libtessera_plugin_cpu.so.
#include <tessera/sdk/plugin_api.hpp>

#include "backend.hpp"

extern "C" TSR_PLUGIN_EXPORT const tsr_plugin_api* tsr_plugin_entry(const tsr_host_api* host,
                                                                    tsr_error* /*err*/) {
    return tessera::sdk::plugin_api<tessera::plugins::cpu::cpu_backend>(
        host, "cpu", "0.1.0",
        "ACL-style CPU runtime (oneTBB, xsimd: AVX-512/AVX2/NEON), blocked nchw16c activations");
}
