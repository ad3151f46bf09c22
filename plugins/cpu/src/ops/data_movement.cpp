// ops/data_movement.cpp: reshape, permute and transpose (a permute) on row-major tensors. A
// reshape is a copy of the bytes, none when the memory plan gave the output the input's buffer
// (the program reports each reshape's output as an alias of its input, so the host may do so);
// a permute walks the output in order with the input strides of the permuted dims, the innermost
// dim as one loop. Both split large tensors over the threads.
// Element sizes other than 1, 2, 4 and 8 bytes run on the reference kernel.
#include <array>
#include <cstring>
#include <vector>

#include "../element_moves.hpp"
#include "../parallel_ranges.hpp"
#include "../row_major.hpp"
#include "../step_buffers.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

/// Bytes per thread at least when a copy is split.
constexpr std::int64_t copy_grain = 1 << 16;
/// Elements per thread at least when a permute is split.
constexpr std::int64_t permute_grain = 1 << 14;

class reshape_step final : public step {
  public:
    reshape_step(const node_view& v, const runtime::Context& ctx)
        : src_(v.n.inputs[0]),
          dst_(v.n.outputs[0]),
          bytes_(static_cast<std::size_t>(v.out[0].num_elements()) * size_of(v.out[0].type())),
          ctx_(ctx),
          parts_(parts_for(ctx, static_cast<std::int64_t>(bytes_), copy_grain)) {}

    int aliased_input() const override { return src_; }

    void run(const buffers& b) override {
        auto* dst = static_cast<unsigned char*>(host_data_of(b, dst_));
        const auto* src = static_cast<const unsigned char*>(host_data_of(b, src_));
        if (dst == src) return;
        if (dst < src + bytes_ && src < dst + bytes_) {  // overlapping: one move, in order
            std::memmove(dst, src, bytes_);
            return;
        }
        parallel_ranges(ctx_, static_cast<std::int64_t>(bytes_), parts_,
                        [&](std::int64_t begin, std::int64_t end, int) {
                            std::memcpy(dst + begin, src + begin,
                                        static_cast<std::size_t>(end - begin));
                        });
    }

  private:
    int src_, dst_;
    std::size_t bytes_;
    const runtime::Context& ctx_;
    int parts_;
};

/// dst[i0, ..., ik] = src at sum_j i_j * stride[order[j]], for row-major tensors; the output's
/// rows (its last dim) split over the threads.
template <typename Element>
class permute_step final : public step {
  public:
    permute_step(const node_view& v, const op::permute& p, const runtime::Context& ctx)
        : src_(v.n.inputs[0]), dst_(v.n.outputs[0]), rank_(p.rank()), ctx_(ctx) {
        const tensor_desc& in = v.in[0];
        const std::vector<int> order = p.order();
        const std::array<std::int64_t, TSR_MAX_DIMS> in_stride = row_major_strides(in);
        for (int i = 0; i < rank_; ++i) {
            extent_[static_cast<std::size_t>(i)] = in.dim(order[static_cast<std::size_t>(i)]);
            stride_[static_cast<std::size_t>(i)] =
                in_stride[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
        }
        count_ = v.out[0].num_elements();
        width_ = rank_ > 0 ? extent_[static_cast<std::size_t>(rank_ - 1)] : 1;
        rows_ = width_ > 0 ? count_ / width_ : 0;
        parts_ = parts_for(ctx, count_, permute_grain);
    }

    void run(const buffers& b) override {
        if (count_ == 0) return;
        const auto* src = static_cast<const Element*>(host_data_of(b, src_));
        auto* dst = static_cast<Element*>(host_data_of(b, dst_));
        if (rank_ == 0) {
            dst[0] = src[0];
            return;
        }
        parallel_ranges(ctx_, rows_, parts_, [&](std::int64_t begin, std::int64_t end, int) {
            rows(src, dst, begin, end);
        });
    }

  private:
    /// Output rows [begin, end).
    void rows(const Element* src, Element* dst, std::int64_t begin, std::int64_t end) const {
        const std::size_t inner = static_cast<std::size_t>(rank_ - 1);
        const std::int64_t step = stride_[inner];
        // The outer index of row `begin`, and its input offset.
        std::array<std::int64_t, TSR_MAX_DIMS> index{};
        std::int64_t offset = 0;
        for (std::int64_t d = rank_ - 2, rest = begin; d >= 0; --d) {
            const auto k = static_cast<std::size_t>(d);
            index[k] = rest % extent_[k];
            rest /= extent_[k];
            offset += index[k] * stride_[k];
        }
        dst += begin * width_;
        for (std::int64_t row = begin; row < end; ++row) {
            const Element* from = src + offset;
            for (std::int64_t x = 0; x < width_; ++x) dst[x] = from[x * step];
            dst += width_;
            for (int d = rank_ - 2; d >= 0; --d) {  // advance the outer index
                const auto k = static_cast<std::size_t>(d);
                offset += stride_[k];
                if (++index[k] < extent_[k]) break;
                offset -= stride_[k] * extent_[k];
                index[k] = 0;
            }
        }
    }

    int src_, dst_, rank_;
    const runtime::Context& ctx_;
    std::int64_t count_ = 0, width_ = 1, rows_ = 0;
    int parts_ = 1;
    std::array<std::int64_t, TSR_MAX_DIMS> extent_{}, stride_{};
};

std::unique_ptr<step> make_permute(const node_view& v, const op::permute& p,
                                   const runtime::Context& ctx) {
    return with_element_bits(size_of(v.in[0].type()), [&](auto bits) -> std::unique_ptr<step> {
        return std::make_unique<permute_step<decltype(bits)>>(v, p, ctx);
    });
}

}  // namespace

void state_data_movement(router& r) {
    r.state<op::reshape>(
        [](const op::reshape&, const query_view& v) {
            return answer(element_size_route(v.q.inputs[0]), v.in, v.out);
        },
        [](const op::reshape&, const build_context& b) {
            return routed_step(element_size_route(b.node.in[0]), b,
                               [&] { return std::make_unique<reshape_step>(b.node, b.ctx); });
        });
    r.state<op::permute>(
        [](const op::permute&, const query_view& v) {
            return answer(element_size_route(v.q.inputs[0]), v.in, v.out);
        },
        [](const op::permute& p, const build_context& b) {
            return routed_step(element_size_route(b.node.in[0]), b,
                               [&] { return make_permute(b.node, p, b.ctx); });
        });
    r.state<op::transpose>(
        [](const op::transpose&, const query_view& v) {
            return answer(element_size_route(v.q.inputs[0]), v.in, v.out);
        },
        [](const op::transpose& t, const build_context& b) {
            return routed_step(element_size_route(b.node.in[0]), b, [&] {
                return make_permute(b.node, t.as_permute(b.node.in[0].rank()), b.ctx);
            });
        });
}

}  // namespace tessera::plugins::cpu
