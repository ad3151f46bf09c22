// tessera/ops/depth_to_space.hpp: depth_to_space, moves channel blocks into b x b spatial
// blocks (DCR as CLML and TensorFlow, CRD as ONNX's CRD mode).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/ops_data.h"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// DepthToSpace. Input order: src N,C,H,W. Output N, C/(b*b), H*b, W*b, src's dtype.
struct depth_to_space : pod_op<depth_to_space, tsr_depth_to_space_params, TSR_OP_DEPTH_TO_SPACE> {
    static constexpr std::string_view name = "depth_to_space";

    depth_to_space() {
        raw().block_size = 2;
        mode = TSR_DEPTH_TO_SPACE_DCR;
    }
    explicit depth_to_space(int block, tsr_depth_to_space_mode m = TSR_DEPTH_TO_SPACE_DCR)
        : depth_to_space() {
        raw().block_size = block;
        mode = m;
    }

    depth_to_space& set_block_size(int b) {
        raw().block_size = b;
        return *this;
    }
    depth_to_space& set_mode(tsr_depth_to_space_mode m) {
        mode = m;
        return *this;
    }
    depth_to_space(int block, depth_to_space_kind m) : depth_to_space(block, to_c(m)) {}
    depth_to_space& set_mode(depth_to_space_kind m) { return set_mode(to_c(m)); }

    /// The block edge b.
    int block_size() const { return raw().block_size; }
    /// DCR or CRD element order (throws for a raw mode outside the enum).
    depth_to_space_kind kind() const { return tessera::from_c<depth_to_space_kind>(mode); }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.enum_in_range("mode", mode, TSR_DEPTH_TO_SPACE_DCR, TSR_DEPTH_TO_SPACE_CRD);
        check.positive("block_size", raw().block_size);
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check_valid_type(check, "src", src);
        check.rank("src", src, 4);
        check_non_negative_dims(check, "src", src);
        const std::int64_t bb = check.mul("", raw().block_size, raw().block_size);
        if (src.dim(1) % bb != 0) {
            check.fail("src", "dim 1 (C) is " + std::to_string(src.dim(1)) +
                                  ", not divisible by block_size^2 = " + std::to_string(bb));
        }
        shape out = src.dims();
        out[1] = src.dim(1) / bb;
        out[2] = check.mul("src", src.dim(2), raw().block_size);
        out[3] = check.mul("src", src.dim(3), raw().block_size);
        check.fits("dst", out, src.type());
        return {output_like(out, src)};
    }
};

}  // namespace tessera::op
