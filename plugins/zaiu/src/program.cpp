// program.cpp: the zaiu router, compiled partitions, operand views and scratch sticks.
#include "program.hpp"

#include <vector>

#include "ops/ops.hpp"

namespace tessera::plugins::zaiu {

using tessera::tensor_desc;

pre_shape view_shape(const zdnn_tensor_desc& t, zdnn_data_layouts layout) {
    pre_shape p;
    p.layout = layout;
    bool ok = true;
    switch (layout) {
        case ZDNN_1D:
            ok = t.dim4 == 1 && t.dim3 == 1 && t.dim2 == 1;
            p.rank = 1;
            p.dims = {t.dim1, 0, 0, 0};
            break;
        case ZDNN_2D:
            ok = t.dim4 == 1 && t.dim3 == 1;
            p.rank = 2;
            p.dims = {t.dim2, t.dim1, 0, 0};
            break;
        case ZDNN_2DS:
            ok = t.dim3 == 1 && t.dim2 == 1;
            p.rank = 2;
            p.dims = {t.dim4, t.dim1, 0, 0};
            break;
        case ZDNN_3DS:
            ok = t.dim3 == 1;
            p.rank = 3;
            p.dims = {t.dim4, t.dim2, t.dim1, 0};
            break;
        case ZDNN_NHWC:
            p.rank = 4;
            p.dims = {t.dim4, t.dim3, t.dim2, t.dim1};
            break;
        default:
            ok = false;
            break;
    }
    if (!ok) {
        throw tessera::error(tessera::status::invalid_argument,
                             "sticks (" + std::to_string(t.dim4) + "," + std::to_string(t.dim3) +
                                 "," + std::to_string(t.dim2) + "," + std::to_string(t.dim1) +
                                 ") have no view in zDNN layout " + std::to_string(layout),
                             {backend_name, "", ""});
    }
    return p;
}

operand::operand(int id, const tensor_desc& stored, zdnn_data_layouts layout) : id_(id) {
    const zdnn_tensor_desc t = transformed_of(stored);
    const stick_kind kind = format_of(stored)->kind;
    if (kind == stick_kind::kernel_hwck || kind == stick_kind::rnn_gates ||
        kind == stick_kind::feature_4ds || format_of(stored)->quant != stick_quant::none) {
        // kernels, RNN gates, RNN outputs and int8 sticks are seen through the shape they were
        // transformed with
        view_ = std::make_unique<zview>(format_of(stored)->pre(stored.dims()),
                                        *zdnn_type_of(stored.type()));
        return;
    }
    const zdnn_data_types type = t.type == ZDNN_BINARY_INT32 ? INT32 : FP32;
    view_ = std::make_unique<zview>(view_shape(t, layout), type);
    if (!same_sticks(view_->transformed(), t)) {
        throw tessera::error(
            tessera::status::runtime_error,
            "internal: view of " + stored.to_string() + " does not match its sticks",
            {backend_name, "", ""});
    }
}

zdnn_ztensor* operand::bind(const buffers& b, bool transformed) const {
    tessera::sdk::buffer* buf = b.at(static_cast<std::size_t>(id_));
    if (!buf || !buf->host_data()) {
        throw tessera::error(tessera::status::invalid_argument,
                             "tensor " + std::to_string(id_) + " has no buffer",
                             {backend_name, "", ""});
    }
    if (static_cast<std::uint64_t>(buf->size()) < view_->size()) {
        throw tessera::error(tessera::status::invalid_argument,
                             "buffer of tensor " + std::to_string(id_) + " holds " +
                                 std::to_string(buf->size()) + " bytes, needs " +
                                 std::to_string(view_->size()),
                             {backend_name, "", ""});
    }
    return view_->bind(buf->host_data(), transformed);
}

scratch scratch::zeros(const pre_shape& shape) {
    scratch s(shape, FP32);
    std::uint64_t count = 1;
    for (int i = 0; i < shape.rank; ++i) count *= shape.dims[static_cast<std::size_t>(i)];
    const std::vector<float> zero(count, 0.0f);
    check(zdnn_transform_ztensor(s.out(), zero.data()), "zdnn_transform_ztensor (zeros)");
    return s;
}

const router& op_routes() {
    static const router routes = [] {
        router r(backend_name);
        for (auto state : {&state_elementwise, &state_softmax, &state_matmul,
                           &state_quantized_matmul, &state_conv2d, &state_pooling, &state_batchnorm,
                           &state_statistics, &state_rnn, &state_reorder})
            state(r);
        r.decline_others(
            [](const op_desc& o) { return std::string(o.name()) + " has no zDNN counterpart"; });
        return r;
    }();
    return routes;
}

program::program(const tessera::sdk::partition& p) : tensors_(p.tensors) {
    for (const auto& n : p.nodes) {
        try {
            steps_.push_back(op_routes().build(n.op, n, p.tensors));
        } catch (const tessera::error& e) {
            throw tessera::error(
                e.code(), e.message(),
                {backend_name, n.name.empty() ? std::string(n.op.name()) : n.name, e.tensor()});
        }
    }
}

void program::execute(const std::vector<tessera::sdk::buffer*>& b) {
    if (b.size() != tensors_.size()) {
        throw tessera::error(tessera::status::invalid_argument,
                             "expected " + std::to_string(tensors_.size()) + " buffers, got " +
                                 std::to_string(b.size()),
                             {backend_name, "", ""});
    }
    for (auto& s : steps_) s->run(b);
}

}  // namespace tessera::plugins::zaiu
