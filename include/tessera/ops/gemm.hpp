// tessera/ops/gemm.hpp: gemm (CLML gemm): D = alpha * op(A) * op(B) + beta * C.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tessera/ops/compute_common.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// General matrix multiply. Inputs, in order:
///   0 A  [M, K] ([K, M] when trans_a)
///   1 B  [K, N] ([N, K] when trans_b)
///   2 C  [M, N] or [N] (optional; broadcast over rows when [N]; CLML passes C in/out)
/// Output D [M, N] = alpha * op(A) * op(B) + beta * C (beta ignored without C). Floating only.
struct gemm : pod_op<gemm, tsr_gemm_params, TSR_OP_GEMM> {
    static constexpr std::string_view name = "gemm";

    gemm() {
        raw().alpha = 1.0f;
        raw().beta = 1.0f;
    }

    gemm& scales(float a, float b) {
        raw().alpha = a;
        raw().beta = b;
        return *this;
    }
    gemm& transpose(bool a, bool b) {
        raw().trans_a = a ? 1 : 0;
        raw().trans_b = b ? 1 : 0;
        return *this;
    }

    /// Scale of the product op(A) * op(B).
    float alpha() const { return raw().alpha; }
    /// Scale of C.
    float beta() const { return raw().beta; }
    /// Whether A is given as [K, M].
    bool trans_a() const { return raw().trans_a != 0; }
    /// Whether B is given as [N, K].
    bool trans_b() const { return raw().trans_b != 0; }

    struct geometry_t {
        std::int64_t m = 0, n = 0, k = 0;
    };
    geometry_t geometry(const tensor_desc& a, const tensor_desc& b) const {
        const checker check{name};
        check_bool(check, "trans_a", raw().trans_a);
        check_bool(check, "trans_b", raw().trans_b);
        check.rank("A", a, 2);
        check.rank("B", b, 2);
        check.positive_dims("A", a);
        check.positive_dims("B", b);
        geometry_t g;
        g.m = a.dim(raw().trans_a ? 1 : 0);
        g.k = a.dim(raw().trans_a ? 0 : 1);
        check.dim("B", b, raw().trans_b ? 1 : 0, g.k, "K");
        g.n = b.dim(raw().trans_b ? 0 : 1);
        return g;
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.count(inputs, 2, 3);
        const tensor_desc& a = inputs[0];
        check.type_in("A", a, {dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16});
        check_float_like(check, "B", inputs[1], a);
        const geometry_t g = geometry(a, inputs[1]);
        if (inputs.size() == 3) {
            const tensor_desc& c = inputs[2];
            check_float_like(check, "C", c, a);
            if (c.rank() == 2) {
                check.dim("C", c, 0, g.m, "M");
                check.dim("C", c, 1, g.n, "N");
            } else if (c.rank() == 1) {
                check.dim("C", c, 0, g.n, "N");
            } else {
                check.fail("C", "rank is " + std::to_string(c.rank()) +
                                    ", expected 2 ([M, N]) or 1 ([N])");
            }
        }
        check.fits("dst", shape{g.m, g.n}, a.type());
        return {output_like(shape{g.m, g.n}, a)};
    }
};

}  // namespace tessera::op
