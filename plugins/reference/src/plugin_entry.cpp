// plugin_entry.cpp: exports the header-embedded reference backend as a dlopen-able plugin,
// so tests exercise the loader with the very code every program has built in.
#include "tessera/reference/backend.hpp"

extern "C" TSR_PLUGIN_EXPORT const tsr_plugin_api* tsr_plugin_entry(const tsr_host_api* host,
                                                                    tsr_error* /*err*/) {
    return tessera::reference::plugin_table(host);
}
