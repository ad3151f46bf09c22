// conv_fc_support.hpp: shapes of the convolution and pooling grids: an input size reaching a
// drawn output size with a drawn stride, and the smallest stride the spec's size relation gives.
#pragma once

#include <VX/vx_khr_cnn.h>

#include "vx_test_support.hpp"

namespace vx_test {

/// Output extent of the spec's relation round((in + 2 pad - k) / skip + 1).
inline vx_size spec_output(vx_size in, vx_size pad, vx_size k, vx_size skip, bool ceil) {
    const vx_size span = in + 2 * pad - k;
    return (ceil ? (span + skip - 1) / skip : span / skip) + 1;
}

/// The smallest skip that gives `out` (the spec leaves the stride implicit).
inline vx_size smallest_skip(vx_size in, vx_size pad, vx_size k, vx_size out, bool ceil) {
    for (vx_size s = 1; s <= in + 2 * pad; ++s)
        if (spec_output(in, pad, k, s, ceil) == out) return s;
    return 0;
}

/// One spatial dimension of a window layer case.
struct window_dim {
    vx_size in = 0, out = 0, skip = 0;
};

/// Draws an output extent 1..6 and a stride 1..3, then an input extent giving that output;
/// `ok` rejects shapes (returns false to redraw).
template <typename Accept>
window_dim draw_window(rng& r, vx_size k, vx_size pad, bool ceil, Accept&& ok) {
    for (;;) {
        window_dim d;
        const auto stride = static_cast<vx_size>(r.uniform(1, 3));
        d.out = static_cast<vx_size>(r.uniform(1, 6));
        const vx_size span = (d.out - 1) * stride;
        // Any span in (span - stride, span] (ceil) or [span, span + stride) (floor).
        const auto extra =
            static_cast<vx_size>(r.uniform(0, static_cast<std::int64_t>(stride) - 1));
        const vx_size total = ceil ? (span >= extra ? span - extra : 0) : span + extra;
        if (total + k < 2 * pad + 1) continue;
        d.in = total + k - 2 * pad;
        d.skip = smallest_skip(d.in, pad, k, d.out, ceil);
        if (d.skip == 0 || !ok(d)) continue;
        return d;
    }
}

}  // namespace vx_test
