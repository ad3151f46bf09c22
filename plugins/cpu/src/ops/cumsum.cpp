// ops/cumsum.cpp: cumsum (ONNX CumSum: inclusive or exclusive, forward or reverse) along any
// axis of row-major tensors of every numeric dtype, running sums in the reference's precision
// (real_lines.hpp: long double for i64 and u64, double otherwise), each stored rounded and
// saturated as the reference does. Sums along the contiguous axis run a line at a time; along an
// outer axis whole rows are summed, vectorised over the contiguous dims. Independent lines are
// split over the runtime's threads.
#include <algorithm>

#include "../parallel_ranges.hpp"
#include "../real_lines.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

constexpr std::int64_t row_block = 256;           // contiguous lines summed together, at most
constexpr std::int64_t block_elements = 1 << 15;  // values held per block, about
constexpr std::int64_t grain = 1 << 15;           // elements per thread, at least

class cumsum_step final : public step {
  public:
    cumsum_step(const node_view& v, const op::cumsum& c, const runtime::Context& ctx)
        : src_(v.n.inputs[0]),
          dst_(v.n.outputs[0]),
          in_(run_of(v.in[0])),
          out_(run_of(v.out[0])),
          exclusive_(c.exclusive()),
          reverse_(c.reverse()),
          ctx_(ctx) {
        const tensor_desc& src = v.in[0];
        const int axis = c.axis() < 0 ? c.axis() + src.rank() : c.axis();
        for (int d = 0; d < src.rank(); ++d)
            (d < axis ? outer_ : d == axis ? length_ : inner_) *= src.dim(d);
        block_ = std::clamp<std::int64_t>(block_elements / std::max<std::int64_t>(1, length_), 8,
                                          row_block);
        blocks_ = (inner_ + block_ - 1) / block_;
        parts_ = parts_for(ctx_, outer_ * length_ * inner_, grain);
    }

    void run(const buffers& b) override {
        if (outer_ * length_ * inner_ == 0) return;
        const void* x = b[static_cast<std::size_t>(src_)]->host_data();
        void* y = b[static_cast<std::size_t>(dst_)]->host_data();
        if (wide_reals(in_.type)) {
            sums<long double>(x, y);
        } else {
            sums<double>(x, y);
        }
    }

  private:
    template <typename Real>
    void sums(const void* x, void* y) const {
        const std::int64_t units = outer_ * blocks_;
        const int parts = static_cast<int>(std::min<std::int64_t>(parts_, units));
        parallel_ranges(ctx_, units, parts, [&](std::int64_t begin, std::int64_t end, int) {
            for (std::int64_t u = begin; u < end; ++u) unit<Real>(x, y, u);
        });
    }

    /// The lines of unit `u`: an outer index and a run of up to block_ inner indices, as
    /// rows values[k * n + i] summed in the order the reference sums them.
    template <typename Real>
    void unit(const void* x, void* y, std::int64_t u) const {
        thread_local std::vector<Real> values, acc;
        const std::int64_t o = u / blocks_;
        const std::int64_t i0 = (u % blocks_) * block_;
        const std::int64_t n = std::min(block_, inner_ - i0);
        const std::int64_t first = o * length_ * inner_ + i0;
        const bool line = inner_ == 1;  // one load and one store for the whole line
        values.resize(static_cast<std::size_t>(length_ * n));
        acc.assign(static_cast<std::size_t>(n), Real{0});
        for (std::int64_t k = 0; k < (line ? 1 : length_); ++k)
            load_reals(in_, x, first + k * inner_, line ? length_ : n, 1, values.data() + k * n);
        Real* a = acc.data();
        for (std::int64_t step = 0; step < length_; ++step) {
            const std::int64_t k = reverse_ ? length_ - 1 - step : step;
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
            if (!line) store_reals(out_, y, first + k * inner_, n, 1, row);
        }
        if (line) store_reals(out_, y, first, length_, 1, values.data());
    }

    int src_, dst_;
    element_run in_, out_;
    bool exclusive_, reverse_;
    const runtime::Context& ctx_;
    std::int64_t outer_ = 1, length_ = 1, inner_ = 1, block_ = row_block, blocks_ = 1;
    int parts_ = 1;
};

}  // namespace

void state_cumsum(router& r) {
    r.state<op::cumsum>(
        [](const op::cumsum&, const query_view& v) {
            return answer(native(route::native_plain), v.in, v.out);
        },
        [](const op::cumsum& c, const build_context& b) {
            return std::make_unique<cumsum_step>(b.node, c, b.ctx);
        });
}

}  // namespace tessera::plugins::cpu
