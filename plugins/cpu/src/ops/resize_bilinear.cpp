// ops/resize_bilinear.cpp: resize_bilinear (align_corners, half-pixel centres or neither, sizes
// up or down) on row-major tensors of every dtype, in the plugin's own loops as the reference
// computes it: source coordinates and weights in double per output row and column, the two
// source rows read as real values (real_lines.hpp), interpolated in double and stored with the
// reference's rounding; output rows split over the runtime's threads.
#include <algorithm>
#include <cmath>

#include <tessera/reference/data_movement.hpp>

#include "../element_values.hpp"
#include "../image_rows.hpp"
#include "../real_lines.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

constexpr std::int64_t resize_grain = 1 << 13;  // output elements per thread, at least

/// Where output position d along one axis reads: the two source positions and the weight of the
/// second, as reference::detail::resize_source gives them.
struct resize_tap {
    std::int64_t first = 0, second = 0;
    double weight = 0.0;
};

std::vector<resize_tap> resize_taps(const op::resize_bilinear& r, std::int64_t in,
                                    std::int64_t out) {
    std::vector<resize_tap> taps(static_cast<std::size_t>(out));
    for (std::int64_t d = 0; d < out; ++d) {
        const double s = reference::detail::resize_source(r, d, in, out);
        resize_tap& t = taps[static_cast<std::size_t>(d)];
        t.first = static_cast<std::int64_t>(std::floor(s));
        t.second = t.first + 1 < in ? t.first + 1 : t.first;
        t.weight = s - static_cast<double>(t.first);
    }
    return taps;
}

class resize_bilinear_step final : public image_row_step {
  public:
    resize_bilinear_step(const node_view& v, const op::resize_bilinear& r,
                         const runtime::Context& ctx)
        : image_row_step(v, ctx, resize_grain),
          in_desc_(v.in[0]),
          out_desc_(v.out[0]),
          in_(run_of(v.in[0])),
          out_(run_of(v.out[0])),
          rows_(resize_taps(r, v.in[0].dim(2), v.out[0].dim(2))),
          columns_(resize_taps(r, v.in[0].dim(3), v.out[0].dim(3))) {}

  private:
    /// Output row `line` (plane-major: plane * OH + oy).
    void output_row(const void* x, void* y, std::int64_t line) const override {
        thread_local std::vector<double> top_row, bottom_row, result;
        const std::int64_t in_w = in_desc_.dim(3), out_w = out_desc_.dim(3);
        const std::int64_t plane = line / out_desc_.dim(2), oy = line % out_desc_.dim(2);
        const resize_tap& r = rows_[static_cast<std::size_t>(oy)];
        top_row.resize(static_cast<std::size_t>(in_w));
        bottom_row.resize(static_cast<std::size_t>(in_w));
        result.resize(static_cast<std::size_t>(out_w));
        load_reals(in_, x, row_start(in_desc_, plane, r.first), in_w, in_desc_.stride(3),
                   top_row.data());
        load_reals(in_, x, row_start(in_desc_, plane, r.second), in_w, in_desc_.stride(3),
                   bottom_row.data());
        for (std::int64_t ox = 0; ox < out_w; ++ox) {
            const resize_tap& c = columns_[static_cast<std::size_t>(ox)];
            const auto x0 = static_cast<std::size_t>(c.first),
                       x1 = static_cast<std::size_t>(c.second);
            const double top = top_row[x0] + (top_row[x1] - top_row[x0]) * c.weight;
            const double bottom = bottom_row[x0] + (bottom_row[x1] - bottom_row[x0]) * c.weight;
            result[static_cast<std::size_t>(ox)] = top + (bottom - top) * r.weight;
        }
        const std::int64_t first = row_start(out_desc_, plane, oy);
        const std::int64_t step = out_desc_.stride(3);
        if (out_.type == dtype::f32 || out_.type == dtype::f64) {
            store_reals(out_, y, first, out_w, step, result.data());
            return;
        }
        for (std::int64_t ox = 0; ox < out_w; ++ox)
            store_real_value(out_.type, out_.quant,
                             static_cast<char*>(y) + (first + ox * step) * out_.element_size(),
                             result[static_cast<std::size_t>(ox)]);
    }

    tensor_desc in_desc_, out_desc_;
    element_run in_, out_;
    std::vector<resize_tap> rows_, columns_;
};

}  // namespace

void state_resize_bilinear(router& r) {
    state_native_step<op::resize_bilinear, resize_bilinear_step>(r);
}

}  // namespace tessera::plugins::cpu
