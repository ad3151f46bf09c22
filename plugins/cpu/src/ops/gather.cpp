// ops/gather.cpp: gather (numpy take along one axis) on row-major tensors. The i32 or i64 indices
// are resolved first (negative ones count from the end of the axis; one outside [-n, n) fails the
// run with invalid_argument before anything is written), then each output row of the dims after
// the axis is copied from its data row: a memcpy, or one element, by element size. Large outputs
// are split over the runtime's threads.
#include <cstring>
#include <string>

#include <tessera/numeric/convert.hpp>

#include "../strided_copy.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice gather_route(const descs& in, const tensor_desc& out) {
    return element_move_route(in[0], out);
}

class gather_step final : public step {
  public:
    gather_step(const node_view& v, const op::gather& g, const runtime::Context& ctx)
        : data_(v.n.inputs[0]),
          indices_(v.n.inputs[1]),
          dst_(v.n.outputs[0]),
          wide_indices_(v.in[1].type() == dtype::i64),
          size_(size_of(v.in[0].type())),
          ctx_(ctx) {
        const tensor_desc& data = v.in[0];
        const int axis = g.axis() < 0 ? g.axis() + data.rank() : g.axis();
        for (int i = 0; i < data.rank(); ++i) {
            if (i < axis) outer_ *= data.dim(i);
            if (i > axis) inner_ *= data.dim(i);
        }
        extent_ = data.dim(axis);
        at_.resize(static_cast<std::size_t>(v.in[1].num_elements()));
    }

    void run(const buffers& b) override {
        resolve_indices(b[static_cast<std::size_t>(indices_)]->host_data());
        const void* data = b[static_cast<std::size_t>(data_)]->host_data();
        void* dst = b[static_cast<std::size_t>(dst_)]->host_data();
        switch (size_) {
            case 1:
                return copy_rows<std::uint8_t>(data, dst);
            case 2:
                return copy_rows<std::uint16_t>(data, dst);
            case 4:
                return copy_rows<std::uint32_t>(data, dst);
            default:
                return copy_rows<std::uint64_t>(data, dst);
        }
    }

  private:
    void resolve_indices(const void* indices) {
        const auto* bytes = static_cast<const char*>(indices);
        for (std::size_t j = 0; j < at_.size(); ++j) {
            const std::int64_t raw = wide_indices_
                                         ? numeric::read_stored<std::int64_t>(bytes + 8 * j)
                                         : numeric::read_stored<std::int32_t>(bytes + 4 * j);
            const std::int64_t at = raw < 0 ? raw + extent_ : raw;
            if (at < 0 || at >= extent_) {
                throw error(status::invalid_argument,
                            "index " + std::to_string(raw) + " is outside [-" +
                                std::to_string(extent_) + ", " + std::to_string(extent_) + ")",
                            {backend_name, "gather", "indices"});
            }
            at_[j] = at;
        }
    }

    /// out[o, j, :] = data[o, at[j], :] for every outer o and index j.
    template <typename Element>
    void copy_rows(const void* data, void* dst) const {
        const auto* from = static_cast<const Element*>(data);
        auto* to = static_cast<Element*>(dst);
        const auto m = static_cast<std::int64_t>(at_.size());
        const std::int64_t rows = outer_ * m;
        if (rows == 0 || inner_ == 0) return;
        const int parts = static_cast<int>(
            std::min<std::int64_t>(parts_for(ctx_, rows * inner_, copy_grain), rows));
        parallel_ranges(ctx_, rows, parts, [&](std::int64_t begin, std::int64_t end, int) {
            for (std::int64_t r = begin; r < end; ++r) {
                const std::int64_t o = r / m, j = r % m;
                const Element* row =
                    from + (o * extent_ + at_[static_cast<std::size_t>(j)]) * inner_;
                if (inner_ == 1) {
                    to[r] = *row;
                } else {
                    std::memcpy(to + r * inner_, row,
                                static_cast<std::size_t>(inner_) * sizeof(Element));
                }
            }
        });
    }

    int data_, indices_, dst_;
    bool wide_indices_;
    std::size_t size_;
    const runtime::Context& ctx_;
    std::int64_t outer_ = 1, inner_ = 1, extent_ = 0;
    std::vector<std::int64_t> at_;  // the resolved indices of the last run
};

}  // namespace

void state_gather(router& r) {
    r.state<op::gather>(
        [](const op::gather&, const query_view& v) {
            return answer(gather_route(v.in, v.out[0]), v.in, v.out);
        },
        [](const op::gather& g, const build_context& b) {
            return routed_step(gather_route(b.node.in, b.node.out[0]), b,
                               [&] { return std::make_unique<gather_step>(b.node, g, b.ctx); });
        });
}

}  // namespace tessera::plugins::cpu
