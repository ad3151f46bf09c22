// strided_copy.hpp: the element walk shared by the data-movement steps (slice, concat, expand,
// tile, depth_to_space, reorder): an n-D box of elements read at src + sum i_k * src_step[k] and
// written at dst + sum i_k * dst_step[k] (element steps of any sign; 0 repeats an element).
// Dims are merged where both sides are contiguous across them, so inner runs are as long as
// possible: a run contiguous on both sides is one memcpy, a repeated element a fill. Large walks
// are split over the runtime's threads by outer rows. Also the stating of the ops that move
// elements unchanged from one input to one output.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include <vector>

#include "element_moves.hpp"
#include "parallel_ranges.hpp"
#include "program.hpp"
#include "step_buffers.hpp"

namespace tessera::plugins::cpu {

/// The dims of a strided walk, outermost first, merged and without extent-1 dims.
class copy_plan {
  public:
    static constexpr int max_rank = 2 * TSR_MAX_DIMS;

    /// Appends a dim inside the ones added before.
    void add_dim(std::int64_t extent, std::int64_t src_step, std::int64_t dst_step) {
        if (extent == 0) empty_ = true;
        if (extent == 1) return;
        const std::size_t k = static_cast<std::size_t>(rank_);
        extent_[k] = extent;
        src_step_[k] = src_step;
        dst_step_[k] = dst_step;
        ++rank_;
        merge_innermost();
    }
    /// Element offsets of the box's first element.
    void set_origin(std::int64_t src_offset, std::int64_t dst_offset) {
        src_origin_ = src_offset;
        dst_origin_ = dst_offset;
    }

    bool empty() const { return empty_; }
    std::int64_t count() const {
        if (empty_) return 0;
        std::int64_t n = 1;
        for (int k = 0; k < rank_; ++k) n *= extent_[static_cast<std::size_t>(k)];
        return n;
    }
    /// Elements of the innermost dim (one run); 1 for a single element.
    std::int64_t run_length() const { return rank_ ? extent_[inner()] : 1; }
    std::int64_t run_src_step() const { return rank_ ? src_step_[inner()] : 1; }
    std::int64_t run_dst_step() const { return rank_ ? dst_step_[inner()] : 1; }
    /// Number of runs (the product of all dims but the innermost).
    std::int64_t rows() const { return empty_ ? 0 : count() / run_length(); }

    /// Calls row(src_offset, dst_offset) for runs [begin, end), in order.
    template <typename Row>
    void for_rows(std::int64_t begin, std::int64_t end, Row&& row) const {
        if (begin >= end) return;
        const int outer = rank_ > 0 ? rank_ - 1 : 0;
        std::array<std::int64_t, max_rank> index{};
        std::int64_t src = src_origin_, dst = dst_origin_, rest = begin;
        for (int d = outer - 1; d >= 0; --d) {
            const auto k = static_cast<std::size_t>(d);
            index[k] = rest % extent_[k];
            rest /= extent_[k];
            src += index[k] * src_step_[k];
            dst += index[k] * dst_step_[k];
        }
        for (std::int64_t r = begin; r < end; ++r) {
            row(src, dst);
            for (int d = outer - 1; d >= 0; --d) {  // advance the outer index
                const auto k = static_cast<std::size_t>(d);
                src += src_step_[k];
                dst += dst_step_[k];
                if (++index[k] < extent_[k]) break;
                src -= src_step_[k] * extent_[k];
                dst -= dst_step_[k] * extent_[k];
                index[k] = 0;
            }
        }
    }

  private:
    std::size_t inner() const { return static_cast<std::size_t>(rank_ - 1); }
    /// Folds the last dim into the one outside it where both sides step across them evenly.
    void merge_innermost() {
        if (rank_ < 2) return;
        const std::size_t i = inner(), o = i - 1;
        if (src_step_[o] != src_step_[i] * extent_[i] || dst_step_[o] != dst_step_[i] * extent_[i])
            return;
        extent_[o] *= extent_[i];
        src_step_[o] = src_step_[i];
        dst_step_[o] = dst_step_[i];
        --rank_;
    }

    int rank_ = 0;
    bool empty_ = false;
    std::int64_t src_origin_ = 0, dst_origin_ = 0;
    std::array<std::int64_t, max_rank> extent_{}, src_step_{}, dst_step_{};
};

/// Elements per thread part below which a walk stays on the calling thread.
inline constexpr std::int64_t copy_grain = 1 << 16;

/// Splits the runs of `plan` over the context's threads and calls rows(begin, end) per part.
template <typename Rows>
void parallel_rows(const runtime::Context& ctx, const copy_plan& plan, Rows&& rows) {
    const std::int64_t count = plan.rows();
    if (count == 0) return;
    const int parts =
        static_cast<int>(std::min<std::int64_t>(parts_for(ctx, plan.count(), copy_grain), count));
    parallel_ranges(ctx, count, parts,
                    [&](std::int64_t begin, std::int64_t end, int) { rows(begin, end); });
}

/// Copies the elements of `plan` (Element: an unsigned integer of the element's size).
template <typename Element>
void copy_elements(const runtime::Context& ctx, const copy_plan& plan, const void* src, void* dst) {
    const auto* from = static_cast<const Element*>(src);
    auto* to = static_cast<Element*>(dst);
    const std::int64_t n = plan.run_length(), ss = plan.run_src_step(), ds = plan.run_dst_step();
    parallel_rows(ctx, plan, [&](std::int64_t begin, std::int64_t end) {
        plan.for_rows(begin, end, [&](std::int64_t s, std::int64_t d) {
            const Element* a = from + s;
            Element* b = to + d;
            if (ss == 1 && ds == 1) {
                std::memcpy(b, a, static_cast<std::size_t>(n) * sizeof(Element));
            } else if (ss == 0 && ds == 1) {
                std::fill_n(b, n, *a);
            } else {
                for (std::int64_t x = 0; x < n; ++x) b[x * ds] = a[x * ss];
            }
        });
    });
}

/// copy_elements for an element of `size` bytes (1, 2, 4 or 8).
inline void copy_elements(const runtime::Context& ctx, const copy_plan& plan, const void* src,
                          void* dst, std::size_t size) {
    with_element_bits(size, [&](auto bits) { copy_elements<decltype(bits)>(ctx, plan, src, dst); });
}

/// Whether two tensors store values alike (dtype and quantisation): elements move as bytes.
inline bool stores_alike(const tensor_desc& a, const tensor_desc& b) {
    const quantization qa = a.quant(), qb = b.quant();
    return a.type() == b.type() && qa.scale == qb.scale && qa.zero_point == qb.zero_point &&
           qa.fixed_point_pos == qb.fixed_point_pos;
}

/// The route of an op moving elements of `in` unchanged into `out` (its answer lays both out
/// row-major): native when both store values alike; otherwise (a conversion on the way) the
/// reference kernel.
inline route_choice element_move_route(const tensor_desc& in, const tensor_desc& out) {
    if (!movable_by_size(in)) return {route::reference, TSR_REASON_DTYPE, "element size"};
    if (!stores_alike(in, out))
        return {route::reference, TSR_REASON_DTYPE, "the output stores values differently"};
    return {route::native_plain, TSR_REASON_NONE, {}};
}

/// One strided copy of a step: elements of partition tensor `src` into tensor `dst`.
struct copy_piece {
    int src = 0, dst = 0;
    copy_plan plan;
};

/// A step running strided copies of elements of `size` bytes, one after another (the pieces of
/// a concat, or the single walk of a slice, expand, tile, depth_to_space or reorder).
class copy_step final : public step {
  public:
    copy_step(std::vector<copy_piece> pieces, std::size_t size, const runtime::Context& ctx)
        : pieces_(std::move(pieces)), size_(size), ctx_(ctx) {}

    void run(const buffers& b) override {
        for (const copy_piece& p : pieces_)
            copy_elements(ctx_, p.plan, host_data_of(b, p.src), host_data_of(b, p.dst), size_);
    }

  private:
    std::vector<copy_piece> pieces_;
    std::size_t size_;
    const runtime::Context& ctx_;
};

/// States `Op`, which moves elements of its input 0 unchanged into its output 0, on the route
/// element_move_route chooses; the native step is make_step(op, build_context).
template <typename Op, typename MakeStep>
void state_element_move(router& r, MakeStep make_step) {
    r.state<Op>(
        [](const Op&, const query_view& v) {
            return answer(element_move_route(v.in[0], v.out[0]), v.in, v.out);
        },
        [make_step](const Op& o, const build_context& b) {
            return routed_step(element_move_route(b.node.in[0], b.node.out[0]), b,
                               [&] { return make_step(o, b); });
        });
}

/// States `Op` as one strided copy of its input 0 into its output 0 along the walk
/// plan_of(op, in, out) (state_element_move's route).
template <typename Op, typename PlanOf>
void state_single_copy(router& r, PlanOf plan_of) {
    state_element_move<Op>(
        r, [plan_of](const Op& o, const build_context& b) -> std::unique_ptr<step> {
            const node_view& v = b.node;
            std::vector<copy_piece> pieces{
                {v.n.inputs[0], v.n.outputs[0], plan_of(o, v.in[0], v.out[0])}};
            return std::make_unique<copy_step>(std::move(pieces), size_of(v.in[0].type()), b.ctx);
        });
}

}  // namespace tessera::plugins::cpu
