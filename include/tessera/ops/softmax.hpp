// tessera/ops/softmax.hpp: softmax and log-softmax over one or several consecutive axes, with
// zDNN's softmax_mask (only the first `mask` elements of each vector take part).
#pragma once

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/ops/compute_common.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Softmax. Inputs: 0 src. The vectors are the flattened dims [axis, axis + axis_count) (CLML
/// CHANNEL: axis 1; INSTANCE: axis 1, count rank-1; SPATIAL: axis 2, count 2; zDNN: axis -1).
/// y = exp(x - max) / sum(exp(x - max)); log: y = x - max - log(sum). With mask > 0 only the first
/// `mask` elements of each vector take part; the others output 0 (log: -infinity). Output like
/// src. beta (ACL) scales the input first: softmax(beta * x). Floating types, and i16 fixed point
/// as OpenVX's softmax layer: computed on real values in double, stored rounded to nearest even
/// with saturation.
struct softmax : pod_op<softmax, tsr_softmax_params, TSR_OP_SOFTMAX> {
    static constexpr std::string_view name = "softmax";

    softmax() {
        raw().axis = -1;
        raw().axis_count = 1;
        raw().beta = 1.0f;
    }

    softmax& along(int a, int count = 1) {
        raw().axis = a;
        raw().axis_count = count;
        return *this;
    }
    softmax& scaled_by(float b) {
        raw().beta = b;
        return *this;
    }
    softmax& logarithmic(bool l = true) {
        raw().log = l ? 1 : 0;
        return *this;
    }
    softmax& masked(std::uint32_t m) {
        raw().mask = m;
        return *this;
    }

    /// First dim of the vectors; negative counts from the end.
    int axis() const { return raw().axis; }
    /// Number of consecutive dims from axis() that form one vector.
    int axis_count() const { return raw().axis_count; }
    /// Whether this is log-softmax.
    bool log() const { return raw().log != 0; }
    /// Only the first mask() elements of each vector take part (0: all of them).
    std::uint32_t mask() const { return raw().mask; }
    /// Input scale: softmax(beta * x).
    float beta() const { return raw().beta; }

    /// Outer count, vector length and inner count of src seen as [outer, length, inner].
    struct geometry_t {
        std::int64_t outer = 1, length = 1, inner = 1;
    };
    geometry_t geometry(const tensor_desc& src) const {
        const checker check{name};
        check_bool(check, "log", raw().log);
        if (!std::isfinite(raw().beta) || !(raw().beta > 0.0f))
            check.fail("", "beta must be finite and > 0");
        if (src.rank() < 1) check.fail("src", "rank is 0, expected at least 1");
        check.positive_dims("src", src);
        const int a = normalize_axis(check, "src", "axis", raw().axis, src.rank());
        if (raw().axis_count < 1 || raw().axis_count > src.rank() - a) {
            check.fail("src", "axis_count " + std::to_string(raw().axis_count) + " from axis " +
                                  std::to_string(a) + " exceeds rank " +
                                  std::to_string(src.rank()));
        }
        geometry_t g;
        for (int d = 0; d < src.rank(); ++d) {
            auto& part = d < a ? g.outer : (d < a + raw().axis_count ? g.length : g.inner);
            part = check.mul("src", part, src.dim(d));
        }
        if (raw().mask > g.length) {
            check.fail("src", "mask " + std::to_string(raw().mask) + " exceeds the vector length " +
                                  std::to_string(g.length));
        }
        return g;
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check.type_in("src", src,
                      {dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16, dtype::i16});
        geometry(src);
        return {output_like(src.dims(), src)};
    }
};

}  // namespace tessera::op
