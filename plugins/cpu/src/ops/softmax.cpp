// ops/softmax.cpp: softmax and log-softmax. Row-major f32 over the last axis without a mask runs
// on the runtime's Softmax; every other form (any axis or run of axes, masks, beta, f16, bf16,
// dlfloat16 and i16 fixed point) runs in the plugin's own loops in double, as the reference
// computes it (real_lines.hpp): vectors along the contiguous axis one at a time, vectors along an
// outer axis as whole rows, vectorised over the contiguous dims; split over the runtime's
// threads.
#include <algorithm>
#include <cmath>
#include <limits>

#include <tessera/cpu/functions/softmax.hpp>

#include "../parallel_ranges.hpp"
#include "../real_lines.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

constexpr std::int64_t row_block = 256;           // contiguous vectors computed together, at most
constexpr std::int64_t block_elements = 1 << 15;  // values held per block, about
constexpr std::int64_t grain = 1 << 13;           // elements per thread, at least

bool on_runtime(const op::softmax& s, const descs& in) {
    const bool last = s.axis() == -1 || s.axis() == in[0].rank() - 1;
    return all_f32(in) && last && s.axis_count() == 1 && s.mask() == 0;
}

class runtime_softmax_step final : public function_step {
  public:
    runtime_softmax_step(const build_context& b, const op::softmax& s) : function_step(b.node) {
        auto f = std::make_unique<runtime::Softmax>(b.ctx);
        f->configure(in(0), out(), s.beta(), s.log());
        set_function(std::move(f));
    }
};

/// Softmax over [outer, length, inner] vectors in double.
class softmax_step final : public step {
  public:
    softmax_step(const node_view& v, const op::softmax& s, const runtime::Context& ctx)
        : src_(v.n.inputs[0]),
          dst_(v.n.outputs[0]),
          in_(run_of(v.in[0])),
          out_(run_of(v.out[0])),
          geometry_(s.geometry(v.in[0])),
          used_(s.mask() ? static_cast<std::int64_t>(s.mask()) : geometry_.length),
          beta_(s.beta()),
          log_(s.log()),
          ctx_(ctx) {
        block_ = std::clamp<std::int64_t>(
            block_elements / std::max<std::int64_t>(1, geometry_.length), 8, row_block);
        blocks_ = (geometry_.inner + block_ - 1) / block_;
        parts_ = parts_for(ctx_, geometry_.outer * geometry_.length * geometry_.inner, grain);
    }

    void run(const buffers& b) override {
        const void* x = b[static_cast<std::size_t>(src_)]->host_data();
        void* y = b[static_cast<std::size_t>(dst_)]->host_data();
        const std::int64_t units = geometry_.outer * blocks_;
        const int parts = static_cast<int>(std::min<std::int64_t>(parts_, units));
        parallel_ranges(ctx_, units, parts, [&](std::int64_t begin, std::int64_t end, int) {
            for (std::int64_t u = begin; u < end; ++u) vectors(x, y, u);
        });
    }

  private:
    /// The vectors of unit `u`: an outer index and a run of up to block_ inner indices.
    void vectors(const void* x, void* y, std::int64_t u) const {
        thread_local std::vector<double> values, max, sum;
        const std::int64_t inner = geometry_.inner, length = geometry_.length;
        const std::int64_t o = u / blocks_;
        const std::int64_t i0 = (u % blocks_) * block_;
        const std::int64_t n = std::min(block_, inner - i0);
        const std::int64_t first = o * length * inner + i0;
        values.resize(static_cast<std::size_t>(length * n));
        max.assign(static_cast<std::size_t>(n), -std::numeric_limits<double>::infinity());
        sum.assign(static_cast<std::size_t>(n), 0.0);
        // values[k * n + i]: element (o, k, i0 + i), scaled by beta; one load when inner is 1.
        const bool line = inner == 1;
        for (std::int64_t k = 0; k < (line ? 1 : length); ++k)
            load_reals(in_, x, first + k * inner, line ? length : n, 1, values.data() + k * n);
        for (double& v : values) v *= beta_;
        for (std::int64_t k = 0; k < used_; ++k) {
            const double* row = values.data() + k * n;
            for (std::int64_t i = 0; i < n; ++i) max[i] = std::max(max[i], row[i]);
        }
        for (std::int64_t k = 0; k < used_; ++k) {
            const double* row = values.data() + k * n;
            for (std::int64_t i = 0; i < n; ++i) sum[i] += std::exp(row[i] - max[i]);
        }
        for (std::int64_t i = 0; i < n; ++i) sum[i] = log_ ? std::log(sum[i]) : sum[i];
        for (std::int64_t k = 0; k < length; ++k) {
            double* row = values.data() + k * n;
            for (std::int64_t i = 0; i < n; ++i) {
                if (k >= used_) {
                    row[i] = log_ ? -std::numeric_limits<double>::infinity() : 0.0;
                } else {
                    const double shifted = row[i] - max[i];
                    row[i] = log_ ? shifted - sum[i] : std::exp(shifted) / sum[i];
                }
            }
            if (!line) store_reals(out_, y, first + k * inner, n, 1, row);
        }
        if (line) store_reals(out_, y, first, length, 1, values.data());
    }

    int src_, dst_;
    element_run in_, out_;
    op::softmax::geometry_t geometry_;
    std::int64_t used_;
    double beta_;
    bool log_;
    const runtime::Context& ctx_;
    std::int64_t block_ = row_block, blocks_ = 1;
    int parts_ = 1;
};

std::unique_ptr<step> softmax_for(const build_context& b, const op::softmax& s) {
    if (on_runtime(s, b.node.in)) return std::make_unique<runtime_softmax_step>(b, s);
    return std::make_unique<softmax_step>(b.node, s, b.ctx);
}

}  // namespace

void state_softmax(router& r) {
    r.state<op::softmax>(
        [](const op::softmax&, const query_view& v) {
            return answer(native(route::native_plain), v.in, v.out);
        },
        [](const op::softmax& s, const build_context& b) { return softmax_for(b, s); });
}

}  // namespace tessera::plugins::cpu
