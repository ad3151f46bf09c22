// sample_network.cpp: the `tessera` tool's sample network (sample_network.hpp).
#include "sample_network.hpp"

#include <cstdint>

namespace tessera::cli {

namespace {

/// A constant of shape `s` with small values that vary along the tensor.
tensor filled(const shape& s, float scale, float offset = 0.0f) {
    tensor t(tensor_desc(s, dtype::f32));
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        t.data_as<float>()[i] = offset + scale * static_cast<float>((i * 7) % 13 - 6) / 6.0f;
    return t;
}

}  // namespace

graph sample_network() {
    graph g;
    auto t = g.input("x", tensor_desc(shape::nchw(1, 8, 16, 16), dtype::f32));
    t = g.apply("conv", op::conv2d().padding(1, 1, 1, 1),
                {t, g.constant("conv.w", filled(shape{16, 8, 3, 3}, 0.2f))});
    t = g.apply("bn", op::batchnorm(),
                {t, g.constant("bn.mean", filled(shape{16}, 0.1f)),
                 g.constant("bn.var", filled(shape{16}, 0.2f, 1.0f))});
    t = g.apply("relu", op::activation(activation_kind::relu), {t});
    t = g.apply("pool", op::pooling(pooling_kind::max).kernel(2, 2).stride(2, 2), {t});
    t = g.apply("fc", op::fully_connected(),
                {t, g.constant("fc.w", filled(shape{10, 16 * 8 * 8}, 0.05f))});
    g.output(g.apply("softmax", op::softmax().along(1), {t}));
    return g;
}

}  // namespace tessera::cli
