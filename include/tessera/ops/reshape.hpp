// tessera/ops/reshape.hpp: reshape, the same elements in row-major order under new dims.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/ops_data.h"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Reshape. Input order: src. Output: dims (one may be -1, inferred), src's dtype and
/// quantisation, no labels; the element count is preserved.
struct reshape : pod_op<reshape, tsr_reshape_params, TSR_OP_RESHAPE> {
    static constexpr std::string_view name = "reshape";

    reshape() = default;
    reshape(std::initializer_list<std::int64_t> d) { set_dims(d); }

    reshape& set_dims(std::initializer_list<std::int64_t> d) {
        raw().rank = 0;
        for (auto e : d) {
            if (raw().rank < TSR_MAX_DIMS) dims[raw().rank] = e;
            ++raw().rank;
        }
        return *this;
    }
    reshape& set_dims(const shape& s) {
        raw().rank = s.rank();
        for (int i = 0; i < s.rank(); ++i) dims[i] = s[i];
        return *this;
    }

    /// Rank of the new shape.
    int rank() const { return raw().rank; }
    /// New extent of dim i (-1: inferred); 0 for i outside [0, rank).
    std::int64_t dim(int i) const { return i >= 0 && i < raw().rank ? dims[i] : 0; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check_valid_type(check, "src", src);
        check_non_negative_dims(check, "src", src);
        if (raw().rank < 0 || raw().rank > TSR_MAX_DIMS) {
            check.fail("", "target rank is " + std::to_string(raw().rank) + ", must be 0 to " +
                               std::to_string(TSR_MAX_DIMS));
        }
        int inferred = -1;
        std::int64_t known = 1;
        for (int i = 0; i < raw().rank; ++i) {
            if (dims[i] == -1) {
                if (inferred >= 0)
                    check.fail("", "target dims " + std::to_string(inferred) + " and " +
                                       std::to_string(i) + " are both -1");
                inferred = i;
            } else if (dims[i] < 0) {
                check.fail("", "target dim " + std::to_string(i) + " is " +
                                   std::to_string(dims[i]) + ", must be >= 0 or -1");
            } else {
                known = check.mul("dst", known, dims[i]);
            }
        }
        const std::int64_t count = src.num_elements();
        shape out;
        for (int i = 0; i < raw().rank; ++i) out.push_back(dims[i]);
        if (inferred < 0) check.fits("dst", out, src.type());
        if (inferred >= 0) {
            if (known == 0 || count % known != 0) {
                check.fail("src", "cannot infer target dim " + std::to_string(inferred) + ": " +
                                      std::to_string(count) + " elements are not a multiple of " +
                                      std::to_string(known));
            }
            out[inferred] = count / known;
            check.fits("dst", out, src.type());
        } else if (known != count) {
            check.fail("src", "has " + std::to_string(count) + " elements, target " +
                                  out.to_string() + " has " + std::to_string(known));
        }
        return {output_like(out, src)};
    }
};

}  // namespace tessera::op
