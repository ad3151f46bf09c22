// ops/gather.cpp: gather (numpy take along one axis) on row-major tensors. The i32 or i64 indices
// are resolved first (negative ones count from the end of the axis; one outside [-n, n) fails the
// run with invalid_argument before anything is written), then each output row of the dims after
// the axis is copied from its data row: a memcpy, or one element, by element size. Large outputs
// are split over the runtime's threads.
#include <cstring>
#include <string>

#include <tessera/numeric/convert.hpp>

#include "../row_major.hpp"
#include "../strided_copy.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

class gather_step final : public step {
  public:
    gather_step(const node_view& v, const op::gather& g, const runtime::Context& ctx)
        : data_(v.n.inputs[0]),
          indices_(v.n.inputs[1]),
          dst_(v.n.outputs[0]),
          wide_indices_(v.in[1].type() == dtype::i64),
          size_(size_of(v.in[0].type())),
          ctx_(ctx),
          split_(split_at_axis(v.in[0], g.axis())) {
        at_.resize(static_cast<std::size_t>(v.in[1].num_elements()));
    }

    void run(const buffers& b) override {
        resolve_indices(host_data_of(b, indices_));
        const void* data = host_data_of(b, data_);
        void* dst = host_data_of(b, dst_);
        with_element_bits(size_, [&](auto bits) { copy_rows<decltype(bits)>(data, dst); });
    }

  private:
    void resolve_indices(const void* indices) {
        const auto* bytes = static_cast<const char*>(indices);
        for (std::size_t j = 0; j < at_.size(); ++j) {
            const std::int64_t raw = wide_indices_
                                         ? numeric::read_stored<std::int64_t>(bytes + 8 * j)
                                         : numeric::read_stored<std::int32_t>(bytes + 4 * j);
            const std::int64_t at = raw < 0 ? raw + split_.length : raw;
            if (at < 0 || at >= split_.length) {
                throw error(status::invalid_argument,
                            "index " + std::to_string(raw) + " is outside [-" +
                                std::to_string(split_.length) + ", " +
                                std::to_string(split_.length) + ")",
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
        const std::int64_t rows = split_.outer * m;
        if (rows == 0 || split_.inner == 0) return;
        const int parts = static_cast<int>(
            std::min<std::int64_t>(parts_for(ctx_, rows * split_.inner, copy_grain), rows));
        parallel_ranges(ctx_, rows, parts, [&](std::int64_t begin, std::int64_t end, int) {
            for (std::int64_t r = begin; r < end; ++r) {
                const std::int64_t o = r / m, j = r % m;
                const Element* row =
                    from + (o * split_.length + at_[static_cast<std::size_t>(j)]) * split_.inner;
                if (split_.inner == 1) {
                    to[r] = *row;
                } else {
                    std::memcpy(to + r * split_.inner, row,
                                static_cast<std::size_t>(split_.inner) * sizeof(Element));
                }
            }
        });
    }

    int data_, indices_, dst_;
    bool wide_indices_;
    std::size_t size_;
    const runtime::Context& ctx_;
    axis_split split_;              // the data around the axis
    std::vector<std::int64_t> at_;  // the resolved indices of the last run
};

}  // namespace

void state_gather(router& r) {
    state_element_move<op::gather>(r, [](const op::gather& g, const build_context& b) {
        return std::make_unique<gather_step>(b.node, g, b.ctx);
    });
}

}  // namespace tessera::plugins::cpu
