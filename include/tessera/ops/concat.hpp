// tessera/ops/concat.hpp: concat, joins 1..n tensors along one axis (raw element moves).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/ops_data.h"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Concat. Input order: the pieces in output order (at least one); equal rank, dtype and
/// quantisation, equal dims except `axis` (negative counts from the end). Output: the first
/// input's labels, dtype and quantisation; dim `axis` is the sum.
struct concat : pod_op<concat, tsr_concat_params, TSR_OP_CONCAT> {
    static constexpr std::string_view name = "concat";

    concat() { raw().axis = 1; }
    explicit concat(int ax) : concat() { raw().axis = ax; }

    concat& set_axis(int ax) {
        raw().axis = ax;
        return *this;
    }

    /// The dim the inputs are joined along; negative counts from the end.
    int axis() const { return raw().axis; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        if (inputs.empty()) check.fail("", "expects at least 1 input, got 0");
        const tensor_desc& first = inputs[0];
        check_valid_type(check, "input 0", first);
        check_non_negative_dims(check, "input 0", first);
        if (first.rank() < 1) check.fail("input 0", "rank is 0, expected >= 1");
        const int ax = normalize_axis(check, "axis", raw().axis, first.rank());
        shape out = first.dims();
        for (std::size_t k = 1; k < inputs.size(); ++k) {
            const std::string t = "input " + std::to_string(k);
            const tensor_desc& d = inputs[k];
            check.rank(t, d, first.rank());
            check_same_storage(check, t, d, first);
            check_non_negative_dims(check, t, d);
            for (int i = 0; i < d.rank(); ++i) {
                if (i != ax) check.dim(t, d, i, first.dim(i));
            }
            out[ax] = check.add(t, out[ax], d.dim(ax));
        }
        check.fits("dst", out, first.type());
        return {output_like(out, first)};
    }
};

}  // namespace tessera::op
