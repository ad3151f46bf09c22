// ops_unpool.cpp: ONNX MaxUnpool, lowered at load for constant indices (a bound graph input):
// every output element either copies the input element whose index names it or is zero, so the
// whole op is one gather from the flattened input with a zero slot appended, its table computed
// from the indices (flat positions in the inferred unpooled shape, kept at their coordinates
// when output_shape is larger).
#include "context.hpp"

namespace tessera::onnx::detail {

void map_max_unpool(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const tensor_desc xdesc = ctx.desc_of(x);
    const shape xd = xdesc.dims();
    if (xd.rank() < 3) ctx.unsupported("input rank " + std::to_string(xd.rank()) + " is below 3");
    const auto spatial = static_cast<std::size_t>(xd.rank() - 2);
    const auto& index_tensor = ctx.constant_input(1, "I");
    if (index_tensor.num_elements() != xd.num_elements())
        ctx.unsupported("I and X differ in element count");
    // Indices are flat positions in the shape MaxPool's input had (the inferred shape); an
    // output_shape larger than that keeps each element at its coordinates there.
    const auto kernel = ctx.attr_ints("kernel_shape");
    if (kernel.size() != spatial) ctx.unsupported("kernel_shape has the wrong length");
    auto strides = ctx.attr_ints("strides");
    if (strides.empty()) strides.assign(spatial, 1);
    auto pads = ctx.attr_ints("pads");
    if (pads.empty()) pads.assign(2 * spatial, 0);
    if (strides.size() != spatial || pads.size() != 2 * spatial)
        ctx.unsupported("strides or pads has the wrong length");
    std::vector<std::int64_t> inferred{xd[0], xd[1]};
    for (std::size_t i = 0; i < spatial; ++i)
        inferred.push_back((xd[static_cast<int>(i) + 2] - 1) * strides[i] - pads[i] -
                           pads[i + spatial] + kernel[i]);
    std::vector<std::int64_t> out_dims = inferred;
    if (ctx.has_input(2)) {
        out_dims = integers(ctx.constant_input(2, "output_shape"));
        if (out_dims.size() != static_cast<std::size_t>(xd.rank()))
            ctx.unsupported("output_shape does not list one extent per input dim");
    }
    std::int64_t total = 1;
    for (auto e : out_dims) {
        if (e < 1) ctx.unsupported("an output extent below 1");
        total *= e;
    }
    if (total > INT32_MAX) ctx.unsupported("the output has more than 2^31 elements");
    const std::int64_t count = xd.num_elements();
    // Output position -> input element copied there, `count` (the zero slot) where none is.
    host_tensor table = make_host(element_type::int32, {total});
    for (std::int64_t p = 0; p < total; ++p) set_integer(table, p, count);
    const auto indices = integers(index_tensor);
    std::int64_t inferred_total = 1;
    for (auto e : inferred) inferred_total *= e;
    for (std::int64_t i = 0; i < count; ++i) {
        std::int64_t rest = indices[static_cast<std::size_t>(i)];
        if (rest < 0 || rest >= inferred_total)
            ctx.unsupported("index " + std::to_string(rest) + " is outside the " +
                            std::to_string(inferred_total) + " elements of the unpooled shape");
        // Coordinates in the inferred shape, flattened again in the output's.
        std::vector<std::int64_t> coordinate(inferred.size());
        for (std::size_t a = inferred.size(); a-- > 0;) {
            coordinate[a] = rest % inferred[a];
            rest /= inferred[a];
        }
        std::int64_t p = 0;
        for (std::size_t a = 0; a < inferred.size(); ++a) {
            if (coordinate[a] >= out_dims[a])
                ctx.unsupported("index " + std::to_string(indices[static_cast<std::size_t>(i)]) +
                                " lies outside output_shape");
            p = p * out_dims[a] + coordinate[a];
        }
        set_integer(table, p, i);
    }
    const auto flat = ctx.reshape(x, shape{count});
    host_tensor zero = make_host(onnx_type(xdesc.type()), {1});
    const auto with_zero =
        ctx.emit(op::concat(0), {flat, ctx.constant_tensor(zero, ctx.node_label + "/zero")});
    const auto y =
        ctx.emit(op::gather(0), {with_zero, ctx.constant_tensor(table, ctx.node_label + "/table")});
    ctx.reshape(y, shape(out_dims.begin(), out_dims.end()), ctx.output_name(0));
}

}  // namespace tessera::onnx::detail
