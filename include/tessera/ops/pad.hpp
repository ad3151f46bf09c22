// tessera/ops/pad.hpp: pad, grows each dim by before/after elements: constant, reflect,
// symmetric or edge (CLML pad modes, per-dim amounts).
#pragma once

#include <cmath>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/ops_data.h"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Pad. Input order: src. Output dim i = before[i] + src dim i + after[i], src's dtype.
/// REFLECT needs pads <= dim-1, SYMMETRIC pads <= dim, EDGE a non-empty dim.
struct pad : pod_op<pad, tsr_pad_params, TSR_OP_PAD> {
    static constexpr std::string_view name = "pad";

    pad() {
        mode = TSR_PAD_CONSTANT;
        raw().value = 0.0;
    }
    pad(std::initializer_list<std::int64_t> pads_before,
        std::initializer_list<std::int64_t> pads_after, tsr_pad_mode m = TSR_PAD_CONSTANT,
        double constant = 0.0)
        : pad() {
        set_pads(pads_before, pads_after);
        mode = m;
        raw().value = constant;
    }

    pad& set_mode(tsr_pad_mode m) {
        mode = m;
        return *this;
    }
    pad(std::initializer_list<std::int64_t> pads_before,
        std::initializer_list<std::int64_t> pads_after, pad_kind m, double constant = 0.0)
        : pad(pads_before, pads_after, to_c(m), constant) {}
    pad& set_mode(pad_kind m) { return set_mode(to_c(m)); }
    pad& set_value(double v) {
        raw().value = v;
        return *this;
    }
    /// Amounts per dim, from dim 0; dims not named get 0.
    pad& set_pads(std::initializer_list<std::int64_t> pads_before,
                  std::initializer_list<std::int64_t> pads_after) {
        fill_array(before, pads_before);
        fill_array(after, pads_after);
        return *this;
    }
    pad& set_dim(int dim, std::int64_t pad_before, std::int64_t pad_after) {
        if (dim >= 0 && dim < TSR_MAX_DIMS) {
            before[dim] = pad_before;
            after[dim] = pad_after;
        }
        return *this;
    }

    /// How the border is filled (throws for a raw mode outside the enum).
    pad_kind kind() const { return tessera::from_c<pad_kind>(mode); }
    /// Elements added before dim `dim` (0 for a dim outside [0, TSR_MAX_DIMS)).
    std::int64_t pad_before(int dim) const {
        return dim >= 0 && dim < TSR_MAX_DIMS ? before[dim] : 0;
    }
    /// Elements added after dim `dim` (0 for a dim outside [0, TSR_MAX_DIMS)).
    std::int64_t pad_after(int dim) const {
        return dim >= 0 && dim < TSR_MAX_DIMS ? after[dim] : 0;
    }

    /// TSR_PAD_CONSTANT: the value of the added elements.
    double value() const { return raw().value; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.enum_in_range("pad mode", mode, TSR_PAD_CONSTANT, TSR_PAD_EDGE);
        if (mode == TSR_PAD_CONSTANT && std::isnan(raw().value))
            check.fail("", "constant value is NaN");
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check_valid_type(check, "src", src);
        check_non_negative_dims(check, "src", src);
        shape out = src.dims();
        for (int i = 0; i < TSR_MAX_DIMS; ++i) {
            const std::string which = "dim " + std::to_string(i);
            if (before[i] < 0 || after[i] < 0) {
                check.fail("", "padding of " + which + " is (" + std::to_string(before[i]) + ", " +
                                   std::to_string(after[i]) + "), must be >= 0");
            }
            if (i >= src.rank()) {
                if (before[i] || after[i]) {
                    check.fail("src", "rank is " + std::to_string(src.rank()) + " but " + which +
                                          " is padded");
                }
                continue;
            }
            const std::int64_t n = src.dim(i);
            const std::int64_t most = before[i] > after[i] ? before[i] : after[i];
            if (most > 0) {
                if (mode == TSR_PAD_REFLECT && most > n - 1) {
                    check.fail("src", which + " is " + std::to_string(n) + ": reflect padding " +
                                          std::to_string(most) +
                                          " must be <= " + std::to_string(n - 1));
                }
                if (mode == TSR_PAD_SYMMETRIC && most > n) {
                    check.fail("src", which + " is " + std::to_string(n) + ": symmetric padding " +
                                          std::to_string(most) +
                                          " must be <= " + std::to_string(n));
                }
                if (mode == TSR_PAD_EDGE && n == 0) {
                    check.fail("src", which + " is 0: edge padding needs an element to repeat");
                }
            }
            out[i] = check.add("src", check.add("src", before[i], n), after[i]);
        }
        check.fits("dst", out, src.type());
        return {output_like(out, src)};
    }

  private:
    static void fill_array(std::int64_t (&dst)[TSR_MAX_DIMS],
                           std::initializer_list<std::int64_t> src) {
        int i = 0;
        for (auto v : src) {
            if (i < TSR_MAX_DIMS) dst[i] = v;
            ++i;
        }
        for (; i < TSR_MAX_DIMS; ++i) dst[i] = 0;
    }
};

}  // namespace tessera::op
