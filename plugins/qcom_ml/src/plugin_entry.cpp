// plugin_entry.cpp: the exported entry of libtessera_plugin_qcom_ml.so. Declines to load when the
// CLML library offers no V1 interface or no OpenCL device exists.
#include "backend.hpp"
#include "clml_interface.hpp"
#include "device_context.hpp"
#include "tessera/sdk/plugin_api.hpp"

extern "C" TSR_PLUGIN_EXPORT const tsr_plugin_api* tsr_plugin_entry(const tsr_host_api* host,
                                                                    tsr_error* err) {
    std::string why;
    if (!tessera::plugins::qcom_ml::clml_v1(&why)) return tessera::sdk::fail_init(err, why);
    if (tessera::plugins::qcom_ml::list_devices().empty())
        return tessera::sdk::fail_init(err, "no OpenCL device");
    return tessera::sdk::plugin_api<tessera::plugins::qcom_ml::qcom_ml_backend>(
        host, "qcom-ml", "1.0",
        "Qualcomm CLML (cl_qcom_ml_ops V1) over OpenCL: ops, OPTIMAL layout, recorded partitions");
}
