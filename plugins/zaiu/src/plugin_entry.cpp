// plugin_entry.cpp: the one exported symbol of libtessera_plugin_zaiu.so.
#include <zdnn.h>

#include "backend.hpp"
#include "tessera/sdk/plugin_api.hpp"

extern "C" TSR_PLUGIN_EXPORT const tsr_plugin_api* tsr_plugin_entry(const tsr_host_api* host,
                                                                    tsr_error* err) {
    if (!zdnn_is_nnpa_installed())
        return tessera::sdk::fail_init(err, "zDNN reports no NNPA (zAIU) on this machine");
    return tessera::sdk::plugin_api<tessera::plugins::zaiu::zaiu_backend>(
        host, "zaiu", "0.1.0", "IBM zAIU through the zDNN API (stick layouts, DLFLOAT16)");
}
