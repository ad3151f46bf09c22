// plugin_entry.cpp: the one exported symbol of libtessera_plugin_openvx.so.
#include "backend.hpp"
#include "tessera/sdk/plugin_api.hpp"

extern "C" TSR_PLUGIN_EXPORT const tsr_plugin_api* tsr_plugin_entry(const tsr_host_api* host,
                                                                    tsr_error* err) {
    (void)err;
    return tessera::sdk::plugin_api<tessera::plugins::openvx::openvx_backend>(
        host, "openvx", "0.1.0",
        "OpenVX Neural Network extension (libopenvx): i16 Q7.8, i8, u8; precision=q7.8 for f32");
}
