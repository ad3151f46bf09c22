// ops/gather_elements.cpp: gather_elements (ONNX GatherElements, take_along_axis) on row-major
// tensors of any element size 1, 2, 4 or 8 bytes with i32 or i64 indices. The output is walked
// one innermost row at a time: the row's data offset, without the indexed axis, is kept
// incrementally, and each element adds its index times the axis stride. Rows are split over
// the runtime's threads; an index outside [-n, n) fails the run with a typed error naming the
// op and the indices, as the reference kernel does.
#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "../element_moves.hpp"
#include "../parallel_ranges.hpp"
#include "../row_major.hpp"
#include "../step_buffers.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

template <typename Element, typename Index>
class gather_elements_step final : public step {
  public:
    gather_elements_step(const build_context& b, const op::gather_elements& g)
        : ctx_(b.ctx),
          data_(b.node.n.inputs[0]),
          indices_(b.node.n.inputs[1]),
          dst_(b.node.n.outputs[0]),
          rank_(b.node.in[0].rank()),
          data_stride_(row_major_strides(b.node.in[0])) {
        axis_ = resolved_axis(g.axis(), rank_);
        extent_ = b.node.in[0].dim(axis_);
        for (int k = 0; k < rank_; ++k)
            out_dims_[static_cast<std::size_t>(k)] = b.node.out[0].dim(k);
        width_ = out_dims_[static_cast<std::size_t>(rank_ - 1)];
        count_ = b.node.out[0].num_elements();
    }

    void run(const buffers& b) override {
        if (count_ == 0) return;
        const auto* data = static_cast<const Element*>(host_data_of(b, data_));
        const auto* index = static_cast<const Index*>(host_data_of(b, indices_));
        auto* dst = static_cast<Element*>(host_data_of(b, dst_));
        const std::int64_t rows = count_ / width_;
        std::atomic<bool> bad{false};
        std::atomic<std::int64_t> bad_value{0};
        const int parts = parts_for(ctx_, count_, 1 << 15);
        parallel_ranges(ctx_, rows, parts, [&](std::int64_t begin, std::int64_t end, int) {
            std::int64_t found = 0;
            if (!gather_rows(data, index, dst, begin, end, found) && !bad.exchange(true))
                bad_value = found;
        });
        if (bad) {
            throw error(status::invalid_argument,
                        "index " + std::to_string(bad_value.load()) + " is outside [-" +
                            std::to_string(extent_) + ", " + std::to_string(extent_) + ")",
                        {backend_name, "gather_elements", "indices"});
        }
    }

  private:
    /// Output rows [begin, end); false (with the index in `found`) at the first index out of range.
    bool gather_rows(const Element* data, const Index* index, Element* dst, std::int64_t begin,
                     std::int64_t end, std::int64_t& found) const {
        const auto inner = static_cast<std::size_t>(rank_ - 1);
        const std::int64_t axis_stride = data_stride_[static_cast<std::size_t>(axis_)];
        // The row's coordinates and its data offset over the dims other than the axis.
        std::array<std::int64_t, TSR_MAX_DIMS> at{};
        std::int64_t row = begin, base = 0;
        for (int k = rank_ - 2; k >= 0; --k) {
            const auto kk = static_cast<std::size_t>(k);
            at[kk] = row % out_dims_[kk];
            row /= out_dims_[kk];
            if (k != axis_) base += at[kk] * data_stride_[kk];
        }
        const std::int64_t step = axis_ == rank_ - 1 ? 0 : data_stride_[inner];
        for (std::int64_t r = begin; r < end; ++r) {
            const Index* ix = index + r * width_;
            Element* out = dst + r * width_;
            for (std::int64_t x = 0; x < width_; ++x) {
                std::int64_t i = static_cast<std::int64_t>(ix[x]);
                if (i < 0) i += extent_;
                if (i < 0 || i >= extent_) {
                    found = static_cast<std::int64_t>(ix[x]);
                    return false;
                }
                out[x] = data[base + x * step + i * axis_stride];
            }
            for (int k = rank_ - 2; k >= 0; --k) {  // advance to the next row
                const auto kk = static_cast<std::size_t>(k);
                const std::int64_t s = k == axis_ ? 0 : data_stride_[kk];
                base += s;
                if (++at[kk] < out_dims_[kk]) break;
                base -= s * out_dims_[kk];
                at[kk] = 0;
            }
        }
        return true;
    }

    const runtime::Context& ctx_;
    int data_, indices_, dst_, rank_, axis_ = 0;
    std::int64_t extent_ = 0, width_ = 1, count_ = 0;
    std::array<std::int64_t, TSR_MAX_DIMS> data_stride_{}, out_dims_{};
};

template <typename Index>
std::unique_ptr<step> make_for_index(const build_context& b, const op::gather_elements& g) {
    return with_element_bits(size_of(b.node.in[0].type()), [&](auto bits) -> std::unique_ptr<step> {
        using Element = decltype(bits);
        return std::make_unique<gather_elements_step<Element, Index>>(b, g);
    });
}

std::unique_ptr<step> make_gather_elements(const build_context& b, const op::gather_elements& g) {
    if (b.node.in[1].type() == dtype::i64) return make_for_index<std::int64_t>(b, g);
    return make_for_index<std::int32_t>(b, g);
}

}  // namespace

void state_gather_elements(router& r) {
    r.state<op::gather_elements>(
        [](const op::gather_elements&, const query_view& v) {
            return answer(element_size_route(v.q.inputs[0]), v.in, v.out);
        },
        [](const op::gather_elements& g, const build_context& b) {
            return routed_step(element_size_route(b.node.in[0]), b,
                               [&] { return make_gather_elements(b, g); });
        });
}

}  // namespace tessera::plugins::cpu
