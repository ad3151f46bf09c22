// tessera/ops/reorder.hpp: reorder, a copy that converts layout, dtype and quantisation. The graph
// compiler inserts it where two neighbouring ops disagree on a tensor's layout.
#pragma once

#include <string_view>
#include <vector>

#include "tessera/numeric/fixed_point.hpp"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

struct reorder : pod_op<reorder, tsr_reorder_params, TSR_OP_REORDER> {
    static constexpr std::string_view name = "reorder";

    /// The output descriptor; by default the input's shape and dtype in row-major layout.
    tensor_desc target;
    bool has_target = false;

    reorder() {
        raw().rounding = TSR_ROUND_TO_NEAREST_EVEN;
        raw().overflow = TSR_OVERFLOW_SATURATE;
    }
    explicit reorder(const tensor_desc& to) : reorder() {
        target = to;
        has_target = true;
    }

    /// How integer outputs round.
    reorder& set_rounding(rounding_policy r) {
        raw().rounding = tessera::to_c(r);
        return *this;
    }
    /// What happens when a value does not fit an integer output.
    reorder& set_overflow(overflow_policy o) {
        raw().overflow = tessera::to_c(o);
        return *this;
    }

    /// Integer outputs: how results round (throws for a raw value outside the enum).
    rounding_policy rounding() const { return tessera::from_c<rounding_policy>(raw().rounding); }
    /// Integer outputs: what happens on overflow (throws for a raw value outside the enum).
    overflow_policy overflow() const { return tessera::from_c<overflow_policy>(raw().overflow); }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.count(inputs, 1, 1);
        check.enum_in_range("rounding", raw().rounding, TSR_ROUND_TO_ZERO,
                            TSR_ROUND_TO_NEAREST_EVEN);
        check.enum_in_range("overflow", raw().overflow, TSR_OVERFLOW_WRAP, TSR_OVERFLOW_SATURATE);
        check_valid_type(check, "src", inputs[0]);
        check_non_negative_dims(check, "src", inputs[0]);
        if (!has_target) return {output_like(inputs[0].dims(), inputs[0])};
        check_valid_type(check, "dst", target);
        check_non_negative_dims(check, "dst", target);
        if (const auto problem = target.layout_problem(overlap::rejected))
            check.fail("dst", "layout " + target.to_string() + " is not accepted: " + *problem);
        if (target.dims() != inputs[0].dims()) {
            check.fail("dst", "shape " + target.dims().to_string() + " differs from src " +
                                  inputs[0].dims().to_string());
        }
        return {target};
    }
};

}  // namespace tessera::op
