// plugin_entry.cpp: the one exported symbol of libtessera_plugin_myriad.so. Declines to load when
// no OpenCL device exists.
#include "backend.hpp"
#include "myriad/cl_config.h"
#include "tessera/sdk/plugin_api.hpp"

extern "C" TSR_PLUGIN_EXPORT const tsr_plugin_api* tsr_plugin_entry(const tsr_host_api* host,
                                                                    tsr_error* err) {
    try {
        std::vector<cl::Platform> platforms;
        cl::Platform::get(&platforms);
        std::size_t devices = 0;
        for (const cl::Platform& p : platforms) {
            std::vector<cl::Device> found;
            try {
                p.getDevices(CL_DEVICE_TYPE_ALL, &found);
            } catch (const cl::Error&) {
            }
            devices += found.size();
        }
        if (devices == 0) return tessera::sdk::fail_init(err, "no OpenCL device");
    } catch (const std::exception& e) {
        return tessera::sdk::fail_init(err, std::string("no OpenCL platform: ") + e.what());
    }
    return tessera::sdk::plugin_api<tessera::plugins::myriad::myriad_backend>(
        host, "myriad", "0.1.0",
        "Myriad (NCS2) custom layers: bindings XML + OpenCL C kernels on any OpenCL device");
}
