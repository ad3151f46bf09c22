// tessera/reference/fully_connected.hpp: reference kernel of op::fully_connected; floating and
// i8/u8 in double on real values, i16 with the OpenVX provisional fixed-point arithmetic.
#pragma once

#include <vector>

#include "tessera/ops/fully_connected.hpp"
#include "tessera/reference/compute_common.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

inline void run(const op::fully_connected& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const tensor& src = in[0];
    const tensor& weights = in[1];
    const tensor& dst = out[0];
    const auto g = op.geometry(src.desc(), weights.desc());
    const tensor* bias = op.has_bias() ? &in[2] : nullptr;
    const activation_spec act = op.fused_activation();
    cd::slope_table slope;
    if (act.kind == activation_kind::prelu) slope.values = cd::real_values(in.back());
    // Index of weight (o, i) in either orientation.
    const auto wi = [&](std::int64_t o, std::int64_t i) {
        return static_cast<std::size_t>(op.weights_transposed() ? i * g.outputs + o
                                                                : o * g.inner + i);
    };

    if (src.type() == dtype::i16) {
        const int fx = src.desc().quant().fixed_point_pos;
        const int fw = weights.desc().quant().fixed_point_pos;
        const int fo = dst.type() == dtype::i16 ? dst.desc().quant().fixed_point_pos : fx;
        const std::vector<double> x = cd::raw_values(src), w = cd::raw_values(weights);
        std::vector<double> b;
        if (bias) {
            b = cd::raw_values(*bias);
            const int fb = bias->type() == dtype::i16 ? bias->desc().quant().fixed_point_pos : fo;
            for (double& v : b)
                v = static_cast<double>(cd::rescale_fixed(v, fb, fo, op.rounding()));
        }
        for (std::int64_t r = 0; r < g.rows; ++r)
            for (std::int64_t o = 0; o < g.outputs; ++o) {
                std::int64_t acc = 0;
                for (std::int64_t i = 0; i < g.inner; ++i) {
                    acc += cd::fixed_product(
                        static_cast<std::int64_t>(x[static_cast<std::size_t>(r * g.inner + i)]),
                        static_cast<std::int64_t>(w[wi(o, i)]), fx + fw - fo, op.rounding(),
                        op.overflow());
                }
                if (bias) acc += static_cast<std::int64_t>(b[static_cast<std::size_t>(o)]);
                cd::store_fixed(dst, r * g.outputs + o, acc, fo, act, slope[o], op.rounding(),
                                op.overflow());
            }
        return;
    }

    const std::vector<double> x = cd::real_values(src), w = cd::real_values(weights);
    std::vector<double> b;
    if (bias) {
        b = cd::real_values(*bias);
        if (bias->type() == dtype::i32 && (src.type() == dtype::i8 || src.type() == dtype::u8)) {
            const double unit =
                static_cast<double>(src.desc().quant().scale) * weights.desc().quant().scale;
            for (double& v : b) v *= unit;
        }
    }
    for (std::int64_t r = 0; r < g.rows; ++r)
        for (std::int64_t o = 0; o < g.outputs; ++o) {
            double acc = 0.0;
            for (std::int64_t i = 0; i < g.inner; ++i)
                acc += x[static_cast<std::size_t>(r * g.inner + i)] * w[wi(o, i)];
            if (bias) acc += b[static_cast<std::size_t>(o)];
            cd::store_real(dst, r * g.outputs + o, cd::activate(act, acc, slope[o]), op.rounding(),
                           op.overflow());
        }
}

}  // namespace tessera::reference
