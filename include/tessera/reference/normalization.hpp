// tessera/reference/normalization.hpp: reference kernels of op::batchnorm, op::lrn,
// op::layer_norm and op::norm, computed in double.
#pragma once

#include <cmath>
#include <vector>

#include "tessera/ops/normalization.hpp"
#include "tessera/reference/compute_common.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

inline void run(const op::batchnorm& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const tensor& src = in[0];
    const std::vector<double> x = cd::real_values(src);
    const std::int64_t c_n = src.dims()[1];
    const std::int64_t inner = src.num_elements() / (src.dims()[0] * c_n);
    const activation_spec act = op.fused_activation();
    const bool prelu = act.kind == activation_kind::prelu;
    const std::size_t params = in.size() - (prelu ? 1 : 0);
    cd::slope_table slope;
    if (prelu) slope.values = cd::real_values(in.back());
    std::vector<std::vector<double>> p;
    for (std::size_t i = 1; i < params; ++i) p.push_back(cd::real_values(in[i]));
    for (std::int64_t i = 0; i < src.num_elements(); ++i) {
        const std::int64_t c = i / inner % c_n;
        const auto cc = static_cast<std::size_t>(c);
        double y = 0.0;
        const double v = x[static_cast<std::size_t>(i)];
        if (op.kind() == batchnorm_kind::affine) {
            y = p[0][cc] * v + p[1][cc];
        } else {
            y = (v - p[0][cc]) / std::sqrt(p[1][cc] + static_cast<double>(op.epsilon()));
            if (p.size() == 4) y = y * p[2][cc] + p[3][cc];
        }
        cd::store_real(out[0], i, cd::activate(act, y, slope[c]));
    }
}

inline void run(const op::lrn& op, const std::vector<tensor>& in, const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const tensor& src = in[0];
    const shape d = src.dims();
    const std::vector<double> x = cd::real_values(src);
    const std::int64_t n_n = d[0], c_n = d[1];
    const std::int64_t inner = src.num_elements() / (n_n * c_n);
    const std::int64_t half = op.size() / 2;
    const bool across = op.kind() == lrn_kind::across_channels;
    const double count = across ? op.size() : static_cast<double>(op.size()) * op.size();
    const double alpha = op.alpha_scaled_by_size() ? op.alpha() / count : op.alpha();
    const std::int64_t h_n = across ? 1 : d[2], w_n = across ? inner : d[3];
    for (std::int64_t i = 0; i < src.num_elements(); ++i) {
        const std::int64_t n = i / (c_n * inner), c = i / inner % c_n, pos = i % inner;
        double sum = 0.0;
        if (across) {
            for (std::int64_t k = std::max<std::int64_t>(c - half, 0);
                 k <= std::min(c + half, c_n - 1); ++k) {
                const double v = x[static_cast<std::size_t>((n * c_n + k) * inner + pos)];
                sum += v * v;
            }
        } else {
            const std::int64_t y = pos / w_n, xx = pos % w_n;
            for (std::int64_t yy = std::max<std::int64_t>(y - half, 0);
                 yy <= std::min(y + half, h_n - 1); ++yy)
                for (std::int64_t xk = std::max<std::int64_t>(xx - half, 0);
                     xk <= std::min(xx + half, w_n - 1); ++xk) {
                    const double v =
                        x[static_cast<std::size_t>((n * c_n + c) * inner + yy * w_n + xk)];
                    sum += v * v;
                }
        }
        const double denom =
            std::pow(static_cast<double>(op.bias()) + alpha * sum, static_cast<double>(op.beta()));
        cd::store_real(out[0], i, x[static_cast<std::size_t>(i)] / denom);
    }
}

inline void run(const op::layer_norm& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const tensor& src = in[0];
    const shape d = src.dims();
    const std::vector<double> x = cd::real_values(src);
    const double eps = op.epsilon();
    if (op.kind() == layer_norm_kind::statistics) {
        const std::vector<double> mean = cd::real_values(in[1]), var = cd::real_values(in[2]);
        const shape md = in[1].dims(), vd = in[2].dims();
        // Row-major index into a broadcast (dims 1 or equal) tensor of the element at idx.
        const auto broadcast_index = [](const shape& bd, const ::tessera::detail::index_t& idx) {
            std::int64_t k = 0;
            for (int a = 0; a < bd.rank(); ++a) k = k * bd[a] + (bd[a] == 1 ? 0 : idx[a]);
            return static_cast<std::size_t>(k);
        };
        std::int64_t i = 0;
        ::tessera::detail::for_each_index(d, [&](const ::tessera::detail::index_t& idx) {
            const double m = mean[broadcast_index(md, idx)], v = var[broadcast_index(vd, idx)];
            const double y =
                (x[static_cast<std::size_t>(i)] - m) / std::sqrt(v + eps) * op.gamma() + op.beta();
            cd::store_real(out[0], i++, y);
        });
        return;
    }
    const int axis = op.axis() < 0 ? op.axis() + d.rank() : op.axis();
    std::int64_t inner = 1;
    for (int a = axis; a < d.rank(); ++a) inner *= d[a];
    const std::int64_t outer = src.num_elements() / inner;
    std::vector<double> gamma, beta;
    std::size_t next = 1;
    if (op.has_gamma()) gamma = cd::real_values(in[next++]);
    if (op.has_beta()) beta = cd::real_values(in[next++]);
    for (std::int64_t o = 0; o < outer; ++o) {
        const double* row = x.data() + o * inner;
        double mean = 0.0;
        for (std::int64_t k = 0; k < inner; ++k) mean += row[k];
        mean /= static_cast<double>(inner);
        double var = 0.0;
        for (std::int64_t k = 0; k < inner; ++k) var += (row[k] - mean) * (row[k] - mean);
        var /= static_cast<double>(inner);
        const double inv = 1.0 / std::sqrt(var + eps);
        for (std::int64_t k = 0; k < inner; ++k) {
            const auto kk = static_cast<std::size_t>(k);
            const double g = gamma.empty() ? op.gamma() : gamma[kk];
            const double b = beta.empty() ? op.beta() : beta[kk];
            cd::store_real(out[0], o * inner + k, (row[k] - mean) * inv * g + b);
        }
    }
}

inline void run(const op::norm& op, const std::vector<tensor>& in, const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const shape d = in[0].dims();
    const int axis = op.axis() < 0 ? op.axis() + d.rank() : op.axis();
    const std::vector<double> a = cd::real_values(in[0]), b = cd::real_values(in[1]);
    std::int64_t inner = 1;
    for (int k = axis + 1; k < d.rank(); ++k) inner *= d[k];
    const std::int64_t len = d[axis], outer = in[0].num_elements() / (len * inner);
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t i = 0; i < inner; ++i) {
            double sum = 0.0;
            for (std::int64_t k = 0; k < len; ++k) {
                const auto e = static_cast<std::size_t>((o * len + k) * inner + i);
                sum += (b[e] - a[e]) * (b[e] - a[e]);
            }
            cd::store_real(out[0], o * inner + i, std::sqrt(sum));
        }
}

}  // namespace tessera::reference
