// ops/routes.cpp: the router with every op file's ops stated, built once.
#include "../layouts.hpp"
#include "ops.hpp"

namespace tessera::plugins::myriad {

const router& op_routes() {
    static const router routes = [] {
        router r(backend_name);
        state_custom(r);
        state_conv2d(r);
        state_activation(r);
        state_binary(r);
        state_normalization(r);
        state_resize(r);
        state_convert(r);
        state_depth_to_space(r);
        state_softmax(r);
        r.decline_others([](const op_desc& o) {
            return std::string(o.name()) +
                   " has no Myriad custom layer form (myriad runs custom ops, conv2d, "
                   "activations, binary ops, layer_norm, lrn, resize_bilinear, depth_to_space, "
                   "softmax and element-type reorders through bindings)";
        });
        return r;
    }();
    return routes;
}

}  // namespace tessera::plugins::myriad
