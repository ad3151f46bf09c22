// ops/data_movement.cpp: reshape, permute and transpose (a permute) on row-major tensors. A
// reshape is a copy of the bytes (none when the memory plan gave the output the input's buffer);
// a permute walks the output in order with the input strides of the permuted dims, the innermost
// dim as one loop.
// Element sizes other than 1, 2, 4 and 8 bytes run on the reference kernel.
#include <array>
#include <cstring>
#include <vector>

#include "../element_moves.hpp"
#include "../row_major.hpp"
#include "../step_buffers.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

class reshape_step final : public step {
  public:
    explicit reshape_step(const node_view& v)
        : src_(v.n.inputs[0]),
          dst_(v.n.outputs[0]),
          bytes_(static_cast<std::size_t>(v.out[0].num_elements()) * size_of(v.out[0].type())) {}

    void run(const buffers& b) override {
        void* dst = host_data_of(b, dst_);
        const void* src = host_data_of(b, src_);
        if (dst != src) std::memmove(dst, src, bytes_);
    }

  private:
    int src_, dst_;
    std::size_t bytes_;
};

/// dst[i0, ..., ik] = src at sum_j i_j * stride[order[j]], for row-major tensors.
template <typename Element>
class permute_step final : public step {
  public:
    permute_step(const node_view& v, const op::permute& p)
        : src_(v.n.inputs[0]), dst_(v.n.outputs[0]), rank_(p.rank()) {
        const tensor_desc& in = v.in[0];
        const std::vector<int> order = p.order();
        const std::array<std::int64_t, TSR_MAX_DIMS> in_stride = row_major_strides(in);
        for (int i = 0; i < rank_; ++i) {
            extent_[static_cast<std::size_t>(i)] = in.dim(order[static_cast<std::size_t>(i)]);
            stride_[static_cast<std::size_t>(i)] =
                in_stride[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
        }
        count_ = v.out[0].num_elements();
    }

    void run(const buffers& b) override {
        if (count_ == 0) return;
        const auto* src = static_cast<const Element*>(host_data_of(b, src_));
        auto* dst = static_cast<Element*>(host_data_of(b, dst_));
        if (rank_ == 0) {
            dst[0] = src[0];
            return;
        }
        const std::size_t inner = static_cast<std::size_t>(rank_ - 1);
        const std::int64_t width = extent_[inner], step = stride_[inner];
        std::array<std::int64_t, TSR_MAX_DIMS> index{};
        std::int64_t offset = 0;
        for (std::int64_t done = 0; done < count_; done += width) {
            const Element* from = src + offset;
            for (std::int64_t x = 0; x < width; ++x) dst[x] = from[x * step];
            dst += width;
            for (int d = rank_ - 2; d >= 0; --d) {  // advance the outer index
                const auto k = static_cast<std::size_t>(d);
                offset += stride_[k];
                if (++index[k] < extent_[k]) break;
                offset -= stride_[k] * extent_[k];
                index[k] = 0;
            }
        }
    }

  private:
    int src_, dst_, rank_;
    std::int64_t count_ = 0;
    std::array<std::int64_t, TSR_MAX_DIMS> extent_{}, stride_{};
};

std::unique_ptr<step> make_permute(const node_view& v, const op::permute& p) {
    return with_element_bits(size_of(v.in[0].type()), [&](auto bits) -> std::unique_ptr<step> {
        return std::make_unique<permute_step<decltype(bits)>>(v, p);
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
                               [&] { return std::make_unique<reshape_step>(b.node); });
        });
    r.state<op::permute>(
        [](const op::permute&, const query_view& v) {
            return answer(element_size_route(v.q.inputs[0]), v.in, v.out);
        },
        [](const op::permute& p, const build_context& b) {
            return routed_step(element_size_route(b.node.in[0]), b,
                               [&] { return make_permute(b.node, p); });
        });
    r.state<op::transpose>(
        [](const op::transpose&, const query_view& v) {
            return answer(element_size_route(v.q.inputs[0]), v.in, v.out);
        },
        [](const op::transpose& t, const build_context& b) {
            return routed_step(element_size_route(b.node.in[0]), b, [&] {
                return make_permute(b.node, t.as_permute(b.node.in[0].rank()));
            });
        });
}

}  // namespace tessera::plugins::cpu
