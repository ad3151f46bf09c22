// backend.cpp: options, devices, query and compile of the openvx backend.
#include "backend.hpp"

#include "tessera/sdk/wide_dtypes.hpp"
#include "vx_handles.hpp"

namespace tessera::plugins::openvx {

namespace sdk = tessera::sdk;

precision precision_from(const sdk::options& opts) {
    precision p = precision::exact;
    for (const auto& [key, value] : opts) {
        if (key != "precision")
            throw error(
                status::invalid_argument,
                "openvx: unknown option '" + key + "' (options: precision=q7.8, precision=exact)",
                {backend_name, "", ""});
        if (value == "q7.8")
            p = precision::q7_8;
        else if (value == "exact")
            p = precision::exact;
        else
            throw error(status::invalid_argument,
                        "openvx: precision=" + value + " is not one of q7.8, exact",
                        {backend_name, "", ""});
    }
    return p;
}

openvx_backend::openvx_backend(const sdk::options& opts)
    : precision_(precision_from(opts)), context_(std::make_shared<vx_context_owner>()) {}

std::vector<sdk::device> openvx_backend::devices() const {
    vx_size dims = 0;
    vxQueryContext(context_->get(), VX_CONTEXT_MAX_TENSOR_DIMENSIONS, &dims, sizeof(dims));
    std::string details =
        "OpenVX 1.1 with the Neural Network extension (provisional 1.0) on the "
        "CPU, tensors of up to " +
        std::to_string(dims) + " dims; ";
    details += precision_ == precision::q7_8
                   ? "precision=q7.8: f32 graphs run in Q7.8 fixed point, quantised at the "
                     "partition edges"
                   : "i16 fixed point (Q7.8), i8 and u8 tensors, exact";
    return {sdk::device{"OpenVX", "cpu", details}};
}

sdk::support openvx_backend::query(const sdk::op_query& q) const {
    // OpenVX tensors hold no 64-bit elements.
    if (auto wide = sdk::decline_wide_dtypes(q, backend_name)) return *wide;
    const router& routes = op_routes();
    if (routes.states(q.op)) return routes.query(q.op, q, precision_);
    return routes.query(q.op, q, precision_);
}

std::unique_ptr<sdk::executable> openvx_backend::compile(const sdk::partition& p) {
    return std::make_unique<program>(context_, p, precision_);
}

}  // namespace tessera::plugins::openvx
