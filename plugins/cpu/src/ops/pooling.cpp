// ops/pooling.cpp: max and average pooling (windowed and global) on the runtime's Pooling in
// nchw16c; non-f32 and output-rounding forms run on the reference kernel.
#include <tessera/cpu/functions/pooling.hpp>

#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

/// The pooling's mode and window (padding resolved) for the runtime.
runtime::PoolingInfo runtime_pooling(const op::pooling& p, const tensor_desc& src) {
    runtime::PoolingInfo info;
    info.type = p.is_max() ? runtime::PoolingType::max : runtime::PoolingType::average;
    info.global = p.global();
    info.exclude_padding = p.kind() != pooling_kind::average_include_padding;
    if (info.global) return info;
    const auto g = p.geometry(src);
    info.kernel_h = g.kh;
    info.kernel_w = g.kw;
    info.stride_h = g.sh;
    info.stride_w = g.sw;
    info.pad_top = g.y.pad_before;
    info.pad_bottom = g.y.pad_after;
    info.pad_left = g.x.pad_before;
    info.pad_right = g.x.pad_after;
    return info;
}

route_choice pooling_route(const op::pooling& p, const descs& in, const tensor_desc& out) {
    if (!all_f32(in)) return reference_because("integer pooling");
    if (p.global()) return native(route::native_blocked);
    if (runtime::Pooling::output_shape(runtime_info(blocked(in[0])), runtime_pooling(p, in[0])) !=
        dims_of(out))
        return reference_because("output rounding");
    return native(route::native_blocked);
}

class pooling_step final : public function_step {
  public:
    pooling_step(const build_context& b, const op::pooling& p) : function_step(b.node) {
        auto f = std::make_unique<runtime::Pooling>(b.ctx, b.memory);
        f->configure(in(0), out(), runtime_pooling(p, b.node.in[0]));
        set_function(std::move(f));
    }
};

}  // namespace

void state_pooling(router& r) {
    r.state<op::pooling>(
        [](const op::pooling& p, const query_view& v) {
            return answer(pooling_route(p, v.q.inputs, v.out[0]), v.in, v.out);
        },
        [](const op::pooling& p, const build_context& b) {
            return routed_step(pooling_route(p, b.node.in, b.node.out[0]), b,
                               [&] { return std::make_unique<pooling_step>(b, p); });
        });
}

}  // namespace tessera::plugins::cpu
