// image_rows.hpp: the plugin's own loops over the rows of a 4-D row-major output image (pooling,
// resize_bilinear): a step computing one output row at a time, the rows split over the
// runtime's threads, and where a row of an image starts.
#pragma once

#include <cstdint>

#include "parallel_ranges.hpp"
#include "program.hpp"
#include "step_buffers.hpp"

namespace tessera::plugins::cpu {

/// A step of a node with one input and one output image [N, C, OH, OW] whose output rows
/// (line = (n * C + c) * OH + oy) are computed one at a time by output_row.
class image_row_step : public step {
  public:
    /// `grain`: output elements per thread, at least.
    image_row_step(const node_view& v, const runtime::Context& ctx, std::int64_t grain)
        : src_(v.n.inputs[0]),
          dst_(v.n.outputs[0]),
          lines_(v.out[0].dim(0) * v.out[0].dim(1) * v.out[0].dim(2)),
          ctx_(ctx) {
        parts_ = parts_for(ctx_, v.out[0].num_elements(), grain);
    }

    void run(const buffers& b) final {
        const void* x = host_data_of(b, src_);
        void* y = host_data_of(b, dst_);
        parallel_items(ctx_, lines_, parts_, [&](std::int64_t line) { output_row(x, y, line); });
    }

  protected:
    /// Element offset of (n, c, h, 0) in the image `d`, plane = n * C + c.
    static std::int64_t row_start(const tensor_desc& d, std::int64_t plane, std::int64_t h) {
        return d.offset() + plane / d.dim(1) * d.stride(0) + plane % d.dim(1) * d.stride(1) +
               h * d.stride(2);
    }

    /// Computes output row `line` from the input at `x` into the output at `y`.
    virtual void output_row(const void* x, void* y, std::int64_t line) const = 0;

  private:
    int src_, dst_;
    std::int64_t lines_;
    const runtime::Context& ctx_;
    int parts_ = 1;
};

}  // namespace tessera::plugins::cpu
