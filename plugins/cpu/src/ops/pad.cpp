// ops/pad.cpp: pad (constant, reflect, symmetric, edge) on row-major tensors, row by row: a row
// whose outer position falls in constant padding is filled with the constant, any other copies
// its source row with one memcpy and fills its borders per the mode. The constant is stored as
// the reference stores it (the output's dtype and quantisation); every dtype moved by element
// size, large outputs split over the runtime's threads.
#include <algorithm>
#include <array>
#include <cstring>

#include <tessera/reference/data_movement.hpp>

#include "../strided_copy.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

class pad_step final : public step {
  public:
    pad_step(const node_view& v, const op::pad& p, const runtime::Context& ctx)
        : src_(v.n.inputs[0]),
          dst_(v.n.outputs[0]),
          kind_(p.kind()),
          rank_(v.in[0].rank()),
          size_(size_of(v.in[0].type())),
          ctx_(ctx) {
        const tensor_desc& in = v.in[0];
        const tensor_desc& out = v.out[0];
        const tensor constant = reference::detail::constant_element(out, p.value());
        std::memcpy(&constant_, constant.data(), size_);
        for (int i = 0; i < rank_; ++i) {
            const auto k = static_cast<std::size_t>(i);
            extent_[k] = in.dim(i);
            before_[k] = p.pad_before(i);
            out_extent_[k] = out.dim(i);
            in_stride_[k] = in.stride(i);
        }
        count_ = out.num_elements();
    }

    void run(const buffers& b) override {
        const void* src = host_data_of(b, src_);
        void* dst = host_data_of(b, dst_);
        with_element_bits(size_, [&](auto bits) { pad_rows<decltype(bits)>(src, dst); });
    }

  private:
    template <typename Element>
    void pad_rows(const void* src, void* dst) const {
        if (count_ == 0) return;
        const auto* from = static_cast<const Element*>(src);
        auto* to = static_cast<Element*>(dst);
        Element constant;
        std::memcpy(&constant, &constant_, sizeof constant);
        if (rank_ == 0) {
            to[0] = from[0];
            return;
        }
        const auto inner = static_cast<std::size_t>(rank_ - 1);
        const std::int64_t width = out_extent_[inner], n = extent_[inner], before = before_[inner];
        const std::int64_t rows = count_ / width;
        const int parts =
            static_cast<int>(std::min<std::int64_t>(parts_for(ctx_, count_, copy_grain), rows));
        parallel_ranges(ctx_, rows, parts, [&](std::int64_t begin, std::int64_t end, int) {
            std::array<std::int64_t, TSR_MAX_DIMS> index{};
            std::int64_t rest = begin;
            for (int d = rank_ - 2; d >= 0; --d) {
                const auto k = static_cast<std::size_t>(d);
                index[k] = rest % out_extent_[k];
                rest /= out_extent_[k];
            }
            for (std::int64_t r = begin; r < end; ++r) {
                Element* row = to + r * width;
                const std::int64_t at = source_row(index);
                if (at < 0) {
                    std::fill_n(row, width, constant);
                } else {
                    const Element* in = from + at;
                    for (std::int64_t x = 0; x < width; ++x) {
                        if (x == before && n > 0) {  // the source row, whole
                            std::memcpy(row + x, in, static_cast<std::size_t>(n) * sizeof(Element));
                            x += n - 1;
                            continue;
                        }
                        const std::int64_t s = reference::detail::pad_source(kind_, x - before, n);
                        row[x] = s < 0 ? constant : in[s * in_stride_[inner]];
                    }
                }
                for (int d = rank_ - 2; d >= 0; --d) {  // advance the outer index
                    const auto k = static_cast<std::size_t>(d);
                    if (++index[k] < out_extent_[k]) break;
                    index[k] = 0;
                }
            }
        });
    }

    /// The element offset of the source row of output row `index`; -1 in constant padding.
    std::int64_t source_row(const std::array<std::int64_t, TSR_MAX_DIMS>& index) const {
        std::int64_t at = 0;
        for (int d = 0; d < rank_ - 1; ++d) {
            const auto k = static_cast<std::size_t>(d);
            const std::int64_t s =
                reference::detail::pad_source(kind_, index[k] - before_[k], extent_[k]);
            if (s < 0) return -1;
            at += s * in_stride_[k];
        }
        return at;
    }

    int src_, dst_;
    pad_kind kind_;
    int rank_;
    std::size_t size_;
    const runtime::Context& ctx_;
    std::uint64_t constant_ = 0;  // the padding element's bytes
    std::int64_t count_ = 0;
    std::array<std::int64_t, TSR_MAX_DIMS> extent_{}, before_{}, out_extent_{}, in_stride_{};
};

}  // namespace

void state_pad(router& r) {
    state_element_move<op::pad>(r, [](const op::pad& p, const build_context& b) {
        return std::make_unique<pad_step>(b.node, p, b.ctx);
    });
}

}  // namespace tessera::plugins::cpu
