// tessera/reference/softmax.hpp: reference kernel of op::softmax: numerically stable (max
// subtracted) softmax or log-softmax over [outer, length, inner] vectors, with zDNN's mask.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "tessera/ops/softmax.hpp"
#include "tessera/reference/compute_common.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

inline void run(const op::softmax& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const auto g = op.geometry(in[0].desc());
    std::vector<double> x = cd::real_values(in[0]);
    for (double& v : x) v *= static_cast<double>(op.beta());
    const std::int64_t used = op.mask() ? static_cast<std::int64_t>(op.mask()) : g.length;
    for (std::int64_t o = 0; o < g.outer; ++o)
        for (std::int64_t i = 0; i < g.inner; ++i) {
            const auto at = [&](std::int64_t k) { return (o * g.length + k) * g.inner + i; };
            double max = -std::numeric_limits<double>::infinity();
            for (std::int64_t k = 0; k < used; ++k)
                max = std::max(max, x[static_cast<std::size_t>(at(k))]);
            double sum = 0.0;
            for (std::int64_t k = 0; k < used; ++k)
                sum += std::exp(x[static_cast<std::size_t>(at(k))] - max);
            const double log_sum = std::log(sum);
            for (std::int64_t k = 0; k < g.length; ++k) {
                double y = 0.0;
                if (k >= used) {
                    y = op.log() ? -std::numeric_limits<double>::infinity() : 0.0;
                } else {
                    const double shifted = x[static_cast<std::size_t>(at(k))] - max;
                    y = op.log() ? shifted - log_sum : std::exp(shifted) / sum;
                }
                cd::store_real(out[0], at(k), y);
            }
        }
}

}  // namespace tessera::reference
