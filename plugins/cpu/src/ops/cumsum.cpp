// ops/cumsum.cpp: cumsum (ONNX CumSum: inclusive or exclusive, forward or reverse) along any
// axis of row-major tensors of every numeric dtype, running sums in the reference's precision
// (real_lines.hpp: long double for i64 and u64, double otherwise), each stored rounded and
// saturated as the reference does. Sums along the contiguous axis run a line at a time; along an
// outer axis whole rows are summed, vectorised over the contiguous dims. Independent lines are
// split over the runtime's threads.
#include <algorithm>

#include "../parallel_ranges.hpp"
#include "../real_lines.hpp"
#include "../row_major.hpp"
#include "../step_buffers.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

constexpr std::int64_t cumsum_row_block = 256;  // contiguous lines summed together, at most
constexpr std::int64_t cumsum_block_elements = 1 << 15;  // values held per block, about
constexpr std::int64_t cumsum_grain = 1 << 15;           // elements per thread, at least

class cumsum_step final : public step {
  public:
    cumsum_step(const node_view& v, const op::cumsum& c, const runtime::Context& ctx)
        : src_(v.n.inputs[0]),
          dst_(v.n.outputs[0]),
          in_(run_of(v.in[0])),
          out_(run_of(v.out[0])),
          exclusive_(c.exclusive()),
          reverse_(c.reverse()),
          ctx_(ctx),
          split_(split_at_axis(v.in[0], c.axis())) {
        block_ = std::clamp<std::int64_t>(
            cumsum_block_elements / std::max<std::int64_t>(1, split_.length), 8, cumsum_row_block);
        blocks_ = (split_.inner + block_ - 1) / block_;
        parts_ = parts_for(ctx_, split_.count(), cumsum_grain);
    }

    void run(const buffers& b) override {
        if (split_.count() == 0) return;
        const void* x = host_data_of(b, src_);
        void* y = host_data_of(b, dst_);
        with_reals_of(in_.type, [&](auto real) { sums<decltype(real)>(x, y); });
    }

  private:
    template <typename Real>
    void sums(const void* x, void* y) const {
        parallel_items(ctx_, split_.outer * blocks_, parts_,
                       [&](std::int64_t u) { unit<Real>(x, y, u); });
    }

    /// The lines of unit `u`: an outer index and a run of up to block_ inner indices, as
    /// rows values[k * n + i] summed in the order the reference sums them.
    template <typename Real>
    void unit(const void* x, void* y, std::int64_t u) const {
        thread_local std::vector<Real> values, acc;
        const std::int64_t o = u / blocks_;
        const std::int64_t i0 = (u % blocks_) * block_;
        const std::int64_t n = std::min(block_, split_.inner - i0);
        const std::int64_t first = o * split_.length * split_.inner + i0;
        const bool line = split_.inner == 1;  // one load and one store for the whole line
        values.resize(static_cast<std::size_t>(split_.length * n));
        acc.assign(static_cast<std::size_t>(n), Real{0});
        for (std::int64_t k = 0; k < (line ? 1 : split_.length); ++k)
            load_reals(in_, x, first + k * split_.inner, line ? split_.length : n, 1,
                       values.data() + k * n);
        Real* a = acc.data();
        for (std::int64_t step = 0; step < split_.length; ++step) {
            const std::int64_t k = reverse_ ? split_.length - 1 - step : step;
            Real* row = values.data() + k * n;
            if (exclusive_) {
                for (std::int64_t i = 0; i < n; ++i) {
                    const Real v = row[i];
                    row[i] = a[i];
                    a[i] += v;
                }
            } else {
                for (std::int64_t i = 0; i < n; ++i) row[i] = a[i] += row[i];
            }
            if (!line) store_reals(out_, y, first + k * split_.inner, n, 1, row);
        }
        if (line) store_reals(out_, y, first, split_.length, 1, values.data());
    }

    int src_, dst_;
    element_run in_, out_;
    bool exclusive_, reverse_;
    const runtime::Context& ctx_;
    axis_split split_;  // the source around the summed axis
    std::int64_t block_ = cumsum_row_block, blocks_ = 1;
    int parts_ = 1;
};

}  // namespace

void state_cumsum(router& r) {
    state_native_step<op::cumsum, cumsum_step>(r);
}

}  // namespace tessera::plugins::cpu
