// tessera/reference/activation.hpp: reference kernel of op::activation.
#pragma once

#include <cmath>
#include <vector>

#include "tessera/ops/activation.hpp"
#include "tessera/reference/activation_function.hpp"
#include "tessera/reference/element_access.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

inline void run(const op::activation& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const tensor& src = in[0];
    const tensor& dst = out[0];
    const int rank = src.desc().rank();
    // PReLU: a rank-1 slope of extent C reads slope[c] (c = dim 1); otherwise it broadcasts.
    tensor slope_view;
    if (op.has_slope()) {
        slope_view = in[1];
        const bool per_channel = rank >= 2 && in[1].desc().rank() == 1 && in[1].desc().dim(0) != 1;
        if (per_channel) {
            shape s;
            for (int i = 0; i < rank; ++i) s.push_back(i == 1 ? in[1].desc().dim(0) : 1);
            slope_view = in[1].reshape(s);
        }
    }
    const double clip = op.clipping_value();
    const activation_spec spec = op.spec();
    const detail::broadcast_reader x(src, rank);
    const detail::broadcast_reader slope(op.has_slope() ? slope_view : src, rank);
    tessera::detail::for_each_index(src.dims(), [&](const detail::index_t& idx) {
        const double v = x.load(idx);
        double y = std::isnan(v) ? (op.propagate_nan() ? v : 0.0)
                                 : activate(spec, v, op.has_slope() ? slope.load(idx) : 0.0);
        if (clip > 0 && y > clip) y = clip;
        detail::store(dst, idx, y);
    });
}

}  // namespace tessera::reference
