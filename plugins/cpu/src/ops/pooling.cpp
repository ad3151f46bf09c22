// ops/pooling.cpp: max and average pooling (windowed and global). f32 runs on the runtime's
// Pooling in nchw16c; ceil-rounded max and padding-excluding average pooling run there too, the
// windows past the declared padding read as padding the runtime adds. Every other form
// (ceil-rounded averages counting padding, windows reaching padding wider than the runtime
// takes) and every other dtype (f16, bf16, dlfloat16, i8, u8, i16) runs in the plugin's own
// loops as the reference computes it: stored values in double, maxima and sums in the
// reference's order, averages rounded with the op's rounding; output rows split over the
// runtime's threads.
#include <algorithm>
#include <limits>

#include <tessera/cpu/functions/pooling.hpp>

#include "../image_rows.hpp"
#include "../real_lines.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

constexpr std::int64_t pooling_grain = 1 << 12;  // output elements per thread, at least

/// The pooling's mode and window for the runtime: the declared padding, widened after the
/// input so the runtime's (floor-rounded) output extent is the op's (ceil rounding).
runtime::PoolingInfo runtime_pooling(const op::pooling& p, const tensor_desc& src) {
    runtime::PoolingInfo info;
    info.type = p.is_max() ? runtime::PoolingType::max : runtime::PoolingType::average;
    info.global = p.global();
    info.exclude_padding = p.kind() != pooling_kind::average_include_padding;
    if (info.global) return info;
    const auto g = p.geometry(src);
    const auto reached_after = [](const op::spatial_extent& e, std::int64_t in, std::int64_t k,
                                  std::int64_t s) {
        return std::max(e.pad_after, (e.out - 1) * s + k - in - e.pad_before);
    };
    info.kernel_h = g.kh;
    info.kernel_w = g.kw;
    info.stride_h = g.sh;
    info.stride_w = g.sw;
    info.pad_top = g.y.pad_before;
    info.pad_bottom = reached_after(g.y, g.h, g.kh, g.sh);
    info.pad_left = g.x.pad_before;
    info.pad_right = reached_after(g.x, g.w, g.kw, g.sw);
    return info;
}

/// Whether the runtime computes the pooling: f32, and no window counts padding the runtime adds
/// past the declared padding as part of its divisor.
bool pooling_on_runtime(const op::pooling& p, const descs& in, const tensor_desc& out) {
    if (!all_f32(in) || out.type() != dtype::f32) return false;
    if (p.global()) return true;
    const runtime::PoolingInfo info = runtime_pooling(p, in[0]);
    const auto g = p.geometry(in[0]);
    const bool widened = info.pad_bottom != g.y.pad_after || info.pad_right != g.x.pad_after;
    if (widened && p.kind() == pooling_kind::average_include_padding) return false;
    if (info.pad_bottom >= info.kernel_h || info.pad_right >= info.kernel_w ||
        info.pad_top >= info.kernel_h || info.pad_left >= info.kernel_w)
        return false;
    return runtime::Pooling::output_shape(runtime_info(blocked(in[0])), info) == dims_of(out);
}

route_choice pooling_route(const op::pooling& p, const descs& in, const tensor_desc& out) {
    if (pooling_on_runtime(p, in, out)) return native(route::native_blocked);
    const quantization a = in[0].quant(), b = out.quant();
    if (in[0].type() != out.type() || a.scale != b.scale || a.zero_point != b.zero_point ||
        a.fixed_point_pos != b.fixed_point_pos)
        return reference_because("the output stores values unlike the input");
    return native(route::native_plain);
}

class pooling_step final : public function_step {
  public:
    pooling_step(const build_context& b, const op::pooling& p) : function_step(b.node) {
        auto f = std::make_unique<runtime::Pooling>(b.ctx, b.memory);
        f->configure(in(0), out(), runtime_pooling(p, b.node.in[0]));
        set_function(std::move(f));
    }
};

/// Pooling on row-major tensors of any pooling dtype, on stored values in double.
class window_pooling_step final : public image_row_step {
  public:
    window_pooling_step(const node_view& v, const op::pooling& p, const runtime::Context& ctx)
        : image_row_step(v, ctx, pooling_grain),
          in_desc_(v.in[0]),
          out_desc_(v.out[0]),
          stored_{v.in[0].type(), quantization{}},  // neutral encoding: stored values
          g_(p.geometry(v.in[0])),
          max_(p.is_max()),
          include_padding_(p.kind() == pooling_kind::average_include_padding),
          rounding_(p.rounding()) {}

  private:
    /// Output row `line` (plane * OH + oy): the window's input rows loaded once, each output
    /// computed as the reference does.
    void output_row(const void* x, void* y, std::int64_t line) const override {
        thread_local std::vector<double> rows, result;
        const std::int64_t plane = line / g_.y.out, oy = line % g_.y.out;
        const std::int64_t y0 = oy * g_.sh - g_.y.pad_before;
        const std::int64_t first_row = std::max<std::int64_t>(0, y0);
        const std::int64_t last_row = std::min(g_.h, y0 + g_.kh);  // exclusive
        const std::int64_t row_count = std::max<std::int64_t>(0, last_row - first_row);
        rows.resize(static_cast<std::size_t>(row_count * g_.w));
        for (std::int64_t r = 0; r < row_count; ++r)
            load_reals(stored_, x, row_start(in_desc_, plane, first_row + r), g_.w,
                       in_desc_.stride(3), rows.data() + r * g_.w);
        // The padded input spans [-pad_before, in + pad_after): positions the divisor counts.
        const std::int64_t counted_rows =
            std::max<std::int64_t>(0, std::min(y0 + g_.kh, g_.h + g_.y.pad_after) - y0);
        result.resize(static_cast<std::size_t>(g_.x.out));
        for (std::int64_t ox = 0; ox < g_.x.out; ++ox) {
            const std::int64_t x0 = ox * g_.sw - g_.x.pad_before;
            const std::int64_t first_col = std::max<std::int64_t>(0, x0);
            const std::int64_t last_col = std::min(g_.w, x0 + g_.kw);
            double best = -std::numeric_limits<double>::infinity();
            double sum = 0.0;
            for (std::int64_t r = 0; r < row_count; ++r) {
                const double* row = rows.data() + r * g_.w;
                for (std::int64_t c = first_col; c < last_col; ++c) {
                    best = std::max(best, row[c]);
                    sum += row[c];
                }
            }
            double value = best;
            if (!max_) {
                const std::int64_t counted =
                    include_padding_
                        ? counted_rows * std::max<std::int64_t>(
                                             0, std::min(x0 + g_.kw, g_.w + g_.x.pad_after) - x0)
                        : row_count * std::max<std::int64_t>(0, last_col - first_col);
                value = sum / static_cast<double>(counted);
            }
            result[static_cast<std::size_t>(ox)] = value;
        }
        const std::int64_t first = row_start(out_desc_, plane, oy);
        const std::int64_t step = out_desc_.stride(3);
        const auto size = static_cast<std::int64_t>(size_of(out_desc_.type()));
        for (std::int64_t ox = 0; ox < g_.x.out; ++ox)
            numeric::store_raw(out_desc_.type(), static_cast<char*>(y) + (first + ox * step) * size,
                               result[static_cast<std::size_t>(ox)], rounding_,
                               overflow_policy::saturate);
    }

    tensor_desc in_desc_, out_desc_;
    element_run stored_;
    op::pooling::geometry_t g_;
    bool max_, include_padding_;
    rounding_policy rounding_;
};

}  // namespace

void state_pooling(router& r) {
    r.state<op::pooling>(
        [](const op::pooling& p, const query_view& v) {
            return answer(pooling_route(p, v.q.inputs, v.out[0]), v.in, v.out);
        },
        [](const op::pooling& p, const build_context& b) -> std::unique_ptr<step> {
            const route_choice chosen = pooling_route(p, b.node.in, b.node.out[0]);
            return routed_step(chosen, b, [&]() -> std::unique_ptr<step> {
                if (chosen.how == route::native_blocked)
                    return std::make_unique<pooling_step>(b, p);
                return std::make_unique<window_pooling_step>(b.node, p, b.ctx);
            });
        });
}

}  // namespace tessera::plugins::cpu
