// tessera/reference/gemm.hpp: reference kernel of op::gemm, D = alpha * op(A) * op(B) + beta * C.
#pragma once

#include <vector>

#include "tessera/ops/gemm.hpp"
#include "tessera/reference/compute_common.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

inline void run(const op::gemm& op, const std::vector<tensor>& in, const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const auto g = op.geometry(in[0].desc(), in[1].desc());
    const std::vector<double> a = cd::real_values(in[0]), b = cd::real_values(in[1]);
    std::vector<double> c;
    const bool row_c = in.size() > 2 && in[2].desc().rank() == 1;
    if (in.size() > 2) c = cd::real_values(in[2]);
    for (std::int64_t i = 0; i < g.m; ++i)
        for (std::int64_t j = 0; j < g.n; ++j) {
            double sum = 0.0;
            for (std::int64_t k = 0; k < g.k; ++k) {
                const double av =
                    a[static_cast<std::size_t>(op.trans_a() ? k * g.m + i : i * g.k + k)];
                const double bv =
                    b[static_cast<std::size_t>(op.trans_b() ? j * g.k + k : k * g.n + j)];
                sum += av * bv;
            }
            double d = static_cast<double>(op.alpha()) * sum;
            if (!c.empty())
                d += static_cast<double>(op.beta()) *
                     c[static_cast<std::size_t>(row_c ? j : i * g.n + j)];
            cd::store_real(out[0], i * g.n + j, d);
        }
}

}  // namespace tessera::reference
