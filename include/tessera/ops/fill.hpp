// tessera/ops/fill.hpp: fill, a tensor of a given descriptor with every element one value.
#pragma once

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/ops_data.h"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Fill. No inputs. Output: the dims, dtype and quantisation of `output` (row-major), every
/// element the real number `value` stored in that dtype (rounded to nearest even, saturated).
struct fill : pod_op<fill, tsr_fill_params, TSR_OP_FILL> {
    static constexpr std::string_view name = "fill";

    fill() {
        raw().output = tensor_desc(shape{1}, dtype::f32).c_desc();
        raw().value = 0.0;
    }
    fill(const tensor_desc& out, double v) : fill() {
        raw().output = out.c_desc();
        raw().value = v;
    }

    fill& set_output(const tensor_desc& out) {
        raw().output = out.c_desc();
        return *this;
    }
    fill& set_value(double v) {
        raw().value = v;
        return *this;
    }

    /// The output's descriptor (row-major).
    tensor_desc output() const { return tensor_desc(raw().output); }
    /// The value of every element.
    double value() const { return raw().value; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.count(inputs, 0, 0);
        if (std::isnan(raw().value)) check.fail("", "value is NaN");
        if (raw().output.rank < 0 || raw().output.rank > TSR_MAX_DIMS) {
            check.fail("output", "rank is " + std::to_string(raw().output.rank) +
                                     ", must be 0 to " + std::to_string(TSR_MAX_DIMS));
        }
        const tensor_desc d(raw().output);
        check_valid_type(check, "output", d);
        check_non_negative_dims(check, "output", d);
        return {output_like(d.dims(), d)};
    }
};

}  // namespace tessera::op
