// tessera/ops/scan.hpp: ops that run along one axis keeping it: cumsum (inclusive or exclusive,
// forward or reverse running sums, ONNX CumSum) and topk (the k largest or smallest elements and
// their indices, ONNX TopK).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/ops_compute.h"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/setters.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Checks the one numeric input of a scan (any dtype but bool, rank >= 1, no negative dims) and
/// returns `axis` resolved against its rank.
inline int check_scan_input(const checker& check, const std::vector<tensor_desc>& inputs,
                            int axis) {
    check.count(inputs, 1, 1);
    const tensor_desc& src = inputs[0];
    check_valid_type(check, "src", src);
    if (src.type() == dtype::boolean) check.fail("src", "dtype bool is not numeric");
    if (src.rank() < 1) check.fail("src", "rank is 0, expected at least 1");
    check_non_negative_dims(check, "src", src);
    return normalize_axis(check, "axis", axis, src.rank());
}

/// CumSum. Input order: src (numeric). Output like src: running sums along axis(); exclusive
/// leaves the element itself out, reverse sums from the end. Integer sums saturate.
struct cumsum : pod_op<cumsum, tsr_cumsum_params, TSR_OP_CUMSUM>, axis_setters<cumsum> {
    friend struct axis_setters<cumsum>;
    static constexpr std::string_view name = "cumsum";

    cumsum() { raw().axis = 0; }
    explicit cumsum(int axis) : cumsum() { raw().axis = axis; }

    cumsum& set_exclusive(bool on) {
        raw().exclusive = on ? 1 : 0;
        return *this;
    }
    cumsum& set_reverse(bool on) {
        raw().reverse = on ? 1 : 0;
        return *this;
    }
    /// The summed dim; negative counts from the end.
    int axis() const { return raw().axis; }
    /// Whether each sum leaves its own element out.
    bool exclusive() const { return raw().exclusive != 0; }
    /// Whether the sums run from the end of the axis.
    bool reverse() const { return raw().reverse != 0; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check_flag(check, "exclusive", raw().exclusive);
        check_flag(check, "reverse", raw().reverse);
        check_scan_input(check, inputs, raw().axis);
        return {output_like(inputs[0].dims(), inputs[0])};
    }
};

/// TopK. Input order: src (numeric). Outputs: values (src's dtype) and indices (i32), src's dims
/// with axis() of extent k(): the k largest (smallest when !largest()) elements along the axis,
/// in descending (ascending) order; equal values keep the lower index first, NaN counts as the
/// largest value. sorted() = false allows any order (the reference kernel still sorts).
struct topk : pod_op<topk, tsr_topk_params, TSR_OP_TOPK>, axis_setters<topk> {
    friend struct axis_setters<topk>;
    static constexpr std::string_view name = "topk";

    topk() {
        raw().axis = -1;
        raw().largest = 1;
        raw().sorted = 1;
        raw().k = 1;
    }
    explicit topk(std::int64_t k, int axis = -1) : topk() {
        raw().k = k;
        raw().axis = axis;
    }

    topk& set_k(std::int64_t k) {
        raw().k = k;
        return *this;
    }
    topk& set_largest(bool on) {
        raw().largest = on ? 1 : 0;
        return *this;
    }
    topk& set_sorted(bool on) {
        raw().sorted = on ? 1 : 0;
        return *this;
    }
    /// Number of elements kept along the axis.
    std::int64_t k() const { return raw().k; }
    /// The searched dim; negative counts from the end.
    int axis() const { return raw().axis; }
    /// Largest (true) or smallest elements.
    bool largest() const { return raw().largest != 0; }
    /// Whether the k elements must come in order.
    bool sorted() const { return raw().sorted != 0; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check_flag(check, "largest", raw().largest);
        check_flag(check, "sorted", raw().sorted);
        const int a = check_scan_input(check, inputs, raw().axis);
        const tensor_desc& src = inputs[0];
        if (raw().k < 0 || raw().k > src.dim(a)) {
            check.fail("src", "k is " + std::to_string(raw().k) + ", must be in [0, " +
                                  std::to_string(src.dim(a)) + "] (dim " + std::to_string(a) + ")");
        }
        shape out = src.dims();
        out[a] = raw().k;
        return {output_like(out, src), tensor_desc(out, dtype::i32)};
    }
};

}  // namespace tessera::op
