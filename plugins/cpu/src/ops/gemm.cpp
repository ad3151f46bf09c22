// ops/gemm.cpp: D = alpha op(A) op(B) + beta C on the runtime's Gemm, row-major. A [N] C with
// beta 1 is a per-column bias added in the kernel's epilogue; any other C is loaded into D
// before the run and scaled by beta there. Non-f32 and batched forms run on the reference kernel.
#include <cstring>

#include <tessera/cpu/functions/gemm.hpp>

#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice gemm_route(const descs& in) {
    if (!all_f32(in) || in[0].rank() != 2) return reference_because("gemm form");
    return native(route::native_plain);
}

class gemm_step final : public function_step {
  public:
    gemm_step(const build_context& b, const op::gemm& gm) : function_step(b.node) {
        runtime::GemmInfo info;
        info.trans_a = gm.trans_a != 0;
        info.trans_b = gm.trans_b != 0;
        info.alpha = gm.alpha;
        const bool has_c = b.node.in.size() > 2 && gm.beta != 0.0f;
        const bool row_c = has_c && b.node.in[2].rank() == 1;
        const bool c_as_bias = row_c && gm.beta == 1.0f;
        info.beta = has_c && !c_as_bias ? gm.beta : 0.0f;
        load_c_ = !has_c || c_as_bias ? load_c::none : (row_c ? load_c::repeat_rows : load_c::copy);
        auto f = std::make_unique<runtime::Gemm>(b.ctx, b.memory);
        f->configure(in(0), in(1), c_as_bias ? &in(2) : nullptr, out(), info);
        set_function(std::move(f));
    }

  private:
    /// gemm's D = alpha*A*B + beta*C accumulates into D, so C is loaded into D first: copied
    /// when it is [M, N], repeated on every row when it is [N].
    void before_run() override {
        if (load_c_ == load_c::none) return;
        const runtime::Tensor& c = in(2);
        auto* d = out().buffer();
        const std::size_t row_bytes = c.info().total_size_in_bytes();
        std::memmove(d, c.buffer(), row_bytes);  // D may have been given C's buffer
        if (load_c_ == load_c::copy) return;
        const std::int64_t rows = out().info().dim(0);
        for (std::int64_t r = 1; r < rows; ++r)
            std::memcpy(d + static_cast<std::size_t>(r) * row_bytes, d, row_bytes);
    }

    enum class load_c { none, copy, repeat_rows };
    load_c load_c_ = load_c::none;
};

}  // namespace

void state_gemm(router& r) {
    r.state<op::gemm>(
        [](const op::gemm&, const query_view& v) {
            return answer(gemm_route(v.q.inputs), v.in, v.out);
        },
        [](const op::gemm& gm, const build_context& b) {
            return routed_step(gemm_route(b.node.in), b,
                               [&] { return std::make_unique<gemm_step>(b, gm); });
        });
}

}  // namespace tessera::plugins::cpu
