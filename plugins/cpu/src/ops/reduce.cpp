// ops/reduce.cpp: reduce along one axis (ONNX ReduceMax/Min/Sum/Mean/Prod, ArgMax/ArgMin with
// select_last_index either way; several axes come as a chain of these) on row-major tensors of
// every dtype the op accepts, in the reference's precision (real_lines.hpp) so integer results
// and extremes are exact. Reducing the contiguous axis runs each line in lanes (partial
// sums, per-lane extremes with their first or last index, merged); reducing an outer axis
// accumulates whole rows, vectorised over the contiguous dims. Independent outputs are split over
// the runtime's threads.
#include <algorithm>
#include <array>

#include "../parallel_ranges.hpp"
#include "../real_lines.hpp"
#include "../row_major.hpp"
#include "../step_buffers.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

constexpr int reduce_lanes = 8;                 // partial results per line of the contiguous axis
constexpr std::int64_t reduce_row_block = 256;  // contiguous outputs accumulated together
constexpr std::int64_t reduce_grain = 1 << 15;  // elements per thread, at least

bool is_extreme(reduce_kind k) {
    return k == reduce_kind::min || k == reduce_kind::min_idx || k == reduce_kind::max ||
           k == reduce_kind::max_idx;
}

bool is_max(reduce_kind k) {
    return k == reduce_kind::max || k == reduce_kind::max_idx;
}

/// Whether `v` replaces the extreme `acc` (the reference's test: strictly beyond, or equal
/// when the last index is wanted; NaN never replaces). Branch-free, so the loops vectorise.
template <bool Max, bool Last, typename Real>
bool replaces(Real v, Real acc) {
    return (Max ? v > acc : v < acc) | (Last & (v == acc));
}

/// One line's result: the value and, for the extremes, its index.
template <typename Real>
struct line_result {
    Real value;
    std::int64_t index = 0;
};

/// The extreme of x[0, n) and its first (last) index, as the reference's sequential scan finds
/// them: each lane scans its positions in order starting from x[0], then the lanes merge by
/// value and, among equal values, by index.
template <bool Max, bool Last, typename Real>
[[gnu::always_inline]] inline line_result<Real> extreme_of(const Real* x, std::int64_t n) {
    std::array<Real, reduce_lanes> value;
    std::array<std::int64_t, reduce_lanes> index{};
    value.fill(x[0]);
    std::int64_t k = 1;
    for (; k + reduce_lanes <= n; k += reduce_lanes) {
        for (int l = 0; l < reduce_lanes; ++l) {
            const Real v = x[k + l];
            const bool take = replaces<Max, Last>(v, value[l]);
            value[l] = take ? v : value[l];
            index[l] = take ? k + l : index[l];
        }
    }
    for (int l = 0; k < n; ++k, ++l) {
        if (replaces<Max, Last>(x[k], value[l])) {
            value[l] = x[k];
            index[l] = k;
        }
    }
    line_result<Real> r{value[0], index[0]};
    for (int l = 1; l < reduce_lanes; ++l) {
        const bool beyond = Max ? value[l] > r.value : value[l] < r.value;
        const bool tie = value[l] == r.value && (Last ? index[l] > r.index : index[l] < r.index);
        if (beyond || tie) r = {value[l], index[l]};
    }
    return r;
}

/// Row `k` of an outer-axis reduction taken into the extremes a[0, n) and their indices.
template <bool Max, bool Last, typename Real>
[[gnu::always_inline]] inline void take_extremes(const Real* v, Real* a, std::int64_t* at,
                                                 std::int64_t n, std::int64_t k) {
    for (std::int64_t i = 0; i < n; ++i) {
        const bool take = replaces<Max, Last>(v[i], a[i]);
        a[i] = take ? v[i] : a[i];
        at[i] = take ? k : at[i];
    }
}

/// The extreme of x[0, n) and its index for the kind chosen at run time: max or min, the first or
/// the last index. Inlined into its callers, so each caller's instruction set compiles the loops.
template <typename Real>
[[gnu::always_inline]] inline line_result<Real> extreme_line(const Real* x, std::int64_t n,
                                                             bool max, bool last) {
    if (max) return last ? extreme_of<true, true>(x, n) : extreme_of<true, false>(x, n);
    return last ? extreme_of<false, true>(x, n) : extreme_of<false, false>(x, n);
}

/// Row `k` taken into the extremes a[0, n) for the kind chosen at run time (as extreme_line).
template <typename Real>
[[gnu::always_inline]] inline void take_extreme_row(const Real* v, Real* a, std::int64_t* at,
                                                    std::int64_t n, std::int64_t k, bool max,
                                                    bool last) {
    if (max) {
        if (last) return take_extremes<true, true>(v, a, at, n, k);
        return take_extremes<true, false>(v, a, at, n, k);
    }
    if (last) return take_extremes<false, true>(v, a, at, n, k);
    return take_extremes<false, false>(v, a, at, n, k);
}

// The double loops compiled for AVX-512, AVX2 and the baseline, chosen at load time: their
// blends vectorise only past the baseline's SSE2. These overloads are plain functions, which GCC
// and clang both multiversion; each calls the template above with explicit arguments.

[[gnu::target_clones("avx512f", "avx2", "default")]] line_result<double> extreme_line(
    const double* x, std::int64_t n, bool max, bool last) {
    return extreme_line<double>(x, n, max, last);
}

[[gnu::target_clones("avx512f", "avx2", "default")]] void take_extreme_row(
    const double* v, double* a, std::int64_t* at, std::int64_t n, std::int64_t k, bool max,
    bool last) {
    take_extreme_row<double>(v, a, at, n, k, max, last);
}

/// The sum of x[0, n) in `reduce_lanes` partial sums.
template <typename Real>
Real sum_of(const Real* x, std::int64_t n) {
    std::array<Real, reduce_lanes> part{};
    std::int64_t k = 0;
    for (; k + reduce_lanes <= n; k += reduce_lanes)
        for (int l = 0; l < reduce_lanes; ++l) part[l] += x[k + l];
    Real total = 0;
    for (; k < n; ++k) total += x[k];
    for (int l = 0; l < reduce_lanes; ++l) total += part[l];
    return total;
}

/// The product of x[0, n) in the reference's order (products round at every step).
template <typename Real>
Real product_of(const Real* x, std::int64_t n) {
    Real p = x[0];
    for (std::int64_t k = 1; k < n; ++k) p *= x[k];
    return p;
}

/// Per-thread buffers of the loops: `which` 0 and 1.
template <typename Real>
std::vector<Real>& scratch(int which) {
    thread_local std::array<std::vector<Real>, 2> buffers;
    return buffers[static_cast<std::size_t>(which)];
}

std::vector<std::int64_t>& index_scratch() {
    thread_local std::vector<std::int64_t> indices;
    return indices;
}

class reduce_step final : public step {
  public:
    reduce_step(const node_view& v, const op::reduce& r, const runtime::Context& ctx)
        : src_(v.n.inputs[0]),
          dst_(v.n.outputs[0]),
          in_(run_of(v.in[0])),
          out_(run_of(v.out[0])),
          kind_(r.kind()),
          last_(r.is_index() && r.select_last_index()),
          index_(r.is_index()),
          rounding_(r.rounding()),
          ctx_(ctx),
          split_(split_at_axis(v.in[0], r.axis())),
          blocks_((split_.inner + reduce_row_block - 1) / reduce_row_block),
          parts_(parts_for(ctx_, split_.count(), reduce_grain)) {}

    void run(const buffers& b) override {
        const void* x = host_data_of(b, src_);
        void* y = host_data_of(b, dst_);
        with_reals_of(in_.type, [&](auto real) { reduce<decltype(real)>(x, y); });
    }

  private:
    template <typename Real>
    void reduce(const void* x, void* y) const {
        if (split_.inner == 1) {
            parallel_items(ctx_, split_.outer, parts_,
                           [&](std::int64_t o) { reduce_line<Real>(x, y, o); });
            return;
        }
        parallel_items(ctx_, split_.outer * blocks_, parts_,
                       [&](std::int64_t u) { reduce_rows<Real>(x, y, u); });
    }

    /// Output `o` when the reduced axis is the contiguous one.
    template <typename Real>
    void reduce_line(const void* x, void* y, std::int64_t o) const {
        std::vector<Real>& line = scratch<Real>(0);
        line.resize(static_cast<std::size_t>(split_.length));
        load_reals(in_, x, o * split_.length, split_.length, 1, line.data());
        line_result<Real> r{};
        if (is_extreme(kind_)) {
            r = extreme_line(line.data(), split_.length, is_max(kind_), last_);
        } else if (kind_ == reduce_kind::prod) {
            r.value = product_of(line.data(), split_.length);
        } else {
            r.value = sum_of(line.data(), split_.length);
            if (kind_ == reduce_kind::mean) r.value /= static_cast<Real>(split_.length);
        }
        store(y, o, 1, &r.value, &r.index);
    }

    /// Outputs of block unit `u` (an outer index and a run of up to reduce_row_block contiguous
    /// outputs) when the reduced axis is an outer one: whole rows accumulated in order.
    template <typename Real>
    void reduce_rows(const void* x, void* y, std::int64_t u) const {
        const std::int64_t o = u / blocks_;
        const std::int64_t i0 = (u % blocks_) * reduce_row_block;
        const std::int64_t n = std::min(reduce_row_block, split_.inner - i0);
        std::vector<Real>& acc = scratch<Real>(0);
        std::vector<Real>& row = scratch<Real>(1);
        acc.resize(static_cast<std::size_t>(n));
        row.resize(static_cast<std::size_t>(n));
        std::vector<std::int64_t>& index = index_scratch();
        index.assign(static_cast<std::size_t>(n), 0);
        Real* a = acc.data();
        const Real* v = row.data();
        std::int64_t* at = index.data();
        const std::int64_t first = o * split_.length * split_.inner + i0;
        load_reals(in_, x, first, n, 1, a);
        const bool max = is_max(kind_);
        for (std::int64_t k = 1; k < split_.length; ++k) {
            load_reals(in_, x, first + k * split_.inner, n, 1, row.data());
            switch (kind_) {
                case reduce_kind::sum:
                case reduce_kind::mean:
                    for (std::int64_t i = 0; i < n; ++i) a[i] += v[i];
                    break;
                case reduce_kind::prod:
                    for (std::int64_t i = 0; i < n; ++i) a[i] *= v[i];
                    break;
                default:
                    take_extreme_row(v, a, at, n, k, max, last_);
                    break;
            }
        }
        if (kind_ == reduce_kind::mean)
            for (std::int64_t i = 0; i < n; ++i) a[i] /= static_cast<Real>(split_.length);
        store(y, o * split_.inner + i0, n, a, at);
    }

    template <typename Real>
    void store(void* y, std::int64_t first, std::int64_t n, const Real* value,
               const std::int64_t* index) const {
        if (!index_) {
            store_reals(out_, y, first, n, 1, value, rounding_);
            return;
        }
        auto* out = static_cast<std::int32_t*>(y) + first;  // the index forms output i32
        for (std::int64_t i = 0; i < n; ++i) out[i] = static_cast<std::int32_t>(index[i]);
    }

    int src_, dst_;
    element_run in_, out_;
    reduce_kind kind_;
    bool last_, index_;
    rounding_policy rounding_;
    const runtime::Context& ctx_;
    axis_split split_;  // the source around the reduced axis
    std::int64_t blocks_ = 1;
    int parts_ = 1;
};

}  // namespace

void state_reduce(router& r) {  // every kind, axis and dtype runs natively
    state_native_step<op::reduce, reduce_step>(r);
}

}  // namespace tessera::plugins::cpu
