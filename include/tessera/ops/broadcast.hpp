// tessera/ops/broadcast.hpp: expand (numpy broadcast of a tensor against a shape, ONNX Expand)
// and tile (repeat a tensor along each dim, ONNX Tile). Both move raw elements: every dtype
// works.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/ops_data.h"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Expand. Input order: src. Output: the numpy broadcast of src's shape and dims() (either side
/// may hold the 1s), src's dtype and quantisation.
struct expand : pod_op<expand, tsr_expand_params, TSR_OP_EXPAND> {
    static constexpr std::string_view name = "expand";

    expand() = default;
    explicit expand(const shape& target) { set_dims(target); }

    expand& set_dims(const shape& target) {
        raw().rank = target.rank();
        for (int i = 0; i < target.rank(); ++i) raw().dims[i] = target[i];
        return *this;
    }
    /// Rank of the target shape.
    int rank() const { return raw().rank; }
    /// Extent i of the target shape; 0 for i outside [0, rank).
    std::int64_t dim(int i) const {
        return i >= 0 && i < raw().rank && i < TSR_MAX_DIMS ? raw().dims[i] : 0;
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        if (raw().rank < 0 || raw().rank > TSR_MAX_DIMS) {
            check.fail("", "target rank " + std::to_string(raw().rank) + " is outside [0, " +
                               std::to_string(TSR_MAX_DIMS) + "]");
        }
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check_valid_type(check, "src", src);
        check_non_negative_dims(check, "src", src);
        shape target;
        for (int i = 0; i < raw().rank; ++i) {
            if (raw().dims[i] < 0)
                check.fail("", "target dim " + std::to_string(i) + " is " +
                                   std::to_string(raw().dims[i]) + ", must be >= 0");
            target.push_back(raw().dims[i]);
        }
        const shape out = broadcast_shapes(check, src.dims(), target, "src");
        check.fits("src", out, src.type());
        return {output_like(out, src)};
    }
};

/// Tile. Input order: src. Output dim i = repeats(i) * src dim i (repeats given for every dim of
/// src, each >= 0), src's dtype and quantisation.
struct tile : pod_op<tile, tsr_tile_params, TSR_OP_TILE> {
    static constexpr std::string_view name = "tile";

    tile() = default;
    tile(std::initializer_list<std::int64_t> r) { set_repeats(std::vector<std::int64_t>(r)); }

    tile& set_repeats(const std::vector<std::int64_t>& r) {
        raw().rank = static_cast<std::int32_t>(r.size());
        for (std::size_t i = 0; i < r.size() && i < static_cast<std::size_t>(TSR_MAX_DIMS); ++i)
            raw().repeats[i] = r[i];
        return *this;
    }
    /// Number of dims the repeats cover (must be src's rank).
    int rank() const { return raw().rank; }
    /// Repeat count of dim i; 1 for i outside [0, rank).
    std::int64_t repeats(int i) const {
        return i >= 0 && i < raw().rank && i < TSR_MAX_DIMS ? raw().repeats[i] : 1;
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check_valid_type(check, "src", src);
        check_non_negative_dims(check, "src", src);
        if (raw().rank != src.rank()) {
            check.fail("src", "rank is " + std::to_string(src.rank()) + ", the repeats cover " +
                                  std::to_string(raw().rank) + " dims");
        }
        shape out;
        for (int i = 0; i < src.rank(); ++i) {
            if (raw().repeats[i] < 0)
                check.fail("", "repeats of dim " + std::to_string(i) + " is " +
                                   std::to_string(raw().repeats[i]) + ", must be >= 0");
            out.push_back(check.mul("src", src.dim(i), raw().repeats[i]), src.dims().label(i));
        }
        check.fits("src", out, src.type());
        return {output_like(out, src)};
    }
};

}  // namespace tessera::op
