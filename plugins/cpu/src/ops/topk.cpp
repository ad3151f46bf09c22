// ops/topk.cpp: topk (ONNX TopK: the k largest or smallest elements along any axis and their
// i32 indices) on row-major tensors of every numeric dtype. Each line is ordered as the
// reference's stable sort orders it (NaN above every number, equal values by lower index first)
// with a partial sort of the first k; values are stored as the reference stores them
// (real_lines.hpp). Lines are split over the runtime's threads.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "../parallel_ranges.hpp"
#include "../real_lines.hpp"
#include "../row_major.hpp"
#include "../step_buffers.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

constexpr std::int64_t topk_grain = 1 << 14;  // elements per thread, at least

/// Whether element p comes before element q: the reference's order (NaN largest), then the
/// lower index.
template <typename Real>
bool comes_before(const Real* x, std::int64_t p, std::int64_t q, bool largest) {
    const Real a = x[p], b = x[q];
    const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
    if (a_nan || b_nan) {
        if (a_nan != b_nan) return largest ? a_nan : b_nan;
    } else if (a != b) {
        return largest ? a > b : a < b;
    }
    return p < q;
}

class topk_step final : public step {
  public:
    topk_step(const node_view& v, const op::topk& t, const runtime::Context& ctx)
        : src_(v.n.inputs[0]),
          values_(v.n.outputs[0]),
          indices_(v.n.outputs[1]),
          in_(run_of(v.in[0])),
          out_(run_of(v.out[0])),
          k_(t.k()),
          largest_(t.largest()),
          ctx_(ctx),
          split_(split_at_axis(v.in[0], t.axis())),
          parts_(parts_for(ctx_, split_.count(), topk_grain)) {}

    void run(const buffers& b) override {
        if (k_ == 0 || split_.outer * split_.inner == 0) return;
        const void* x = host_data_of(b, src_);
        void* values = host_data_of(b, values_);
        auto* indices = static_cast<std::int32_t*>(host_data_of(b, indices_));
        with_reals_of(in_.type, [&](auto real) { select<decltype(real)>(x, values, indices); });
    }

  private:
    template <typename Real>
    void select(const void* x, void* values, std::int32_t* indices) const {
        parallel_items(ctx_, split_.outer * split_.inner, parts_,
                       [&](std::int64_t l) { line<Real>(x, values, indices, l); });
    }

    /// Line `l` (outer index l / inner, inner index l % inner).
    template <typename Real>
    void line(const void* x, void* values, std::int32_t* indices, std::int64_t l) const {
        thread_local std::vector<Real> line, kept;
        thread_local std::vector<std::int64_t> order;
        const std::int64_t o = l / split_.inner, i = l % split_.inner;
        line.resize(static_cast<std::size_t>(split_.length));
        kept.resize(static_cast<std::size_t>(k_));
        order.resize(static_cast<std::size_t>(split_.length));
        load_reals(in_, x, o * split_.length * split_.inner + i, split_.length, split_.inner,
                   line.data());
        std::iota(order.begin(), order.end(), std::int64_t{0});
        const Real* v = line.data();
        const bool largest = largest_;
        std::partial_sort(order.begin(), order.begin() + k_, order.end(),
                          [v, largest](std::int64_t p, std::int64_t q) {
                              return comes_before(v, p, q, largest);
                          });
        const std::int64_t first = o * k_ * split_.inner + i;
        for (std::int64_t j = 0; j < k_; ++j) {
            const std::int64_t at = order[static_cast<std::size_t>(j)];
            kept[static_cast<std::size_t>(j)] = v[at];
            indices[first + j * split_.inner] = static_cast<std::int32_t>(at);
        }
        store_reals(out_, values, first, k_, split_.inner, kept.data());
    }

    int src_, values_, indices_;
    element_run in_, out_;
    std::int64_t k_;
    bool largest_;
    const runtime::Context& ctx_;
    axis_split split_;  // the source around the searched axis
    int parts_ = 1;
};

}  // namespace

void state_topk(router& r) {
    state_native_step<op::topk, topk_step>(r);
}

}  // namespace tessera::plugins::cpu
