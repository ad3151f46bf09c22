// ops/quantized_matmul.cpp: quantized_matmul with its integer dot products on the runtime's
// QuantizedMatmul (exact s32 sums of u8 x s8 products, vpdpbusd where the CPU has it). A's
// quantised values (stored i8, or an f32 A quantised on the fly) move to u8 with 128 added to
// them and to A's zero point, which leaves every qa - Za unchanged; a transposed B is copied
// upright. The scales, zero points and C are then applied per element by the reference's own
// arithmetic (reference::compute_detail::quantized_matmul_terms), so the f32 results equal the
// reference's bit for bit. A of f16/bf16/dlfloat16, a C of those types, zero points outside
// [-128, 127] and inner sizes whose s32 sums could overflow run on the reference kernel.
#include <algorithm>
#include <cstdint>

#include <tessera/cpu/functions/quantized_matmul.hpp>
#include <tessera/reference/matmul.hpp>

#include "../parallel_ranges.hpp"
#include "bound_views.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

using quantized_terms = reference::compute_detail::quantized_matmul_terms;

/// Inner sizes up to which every s32 term of the runtime's product and corrections fits: each is
/// at most 255 * 128 per product (u8 values and offsets in [0, 255], s8 values and offsets in
/// [-128, 127]).
constexpr std::int64_t max_exact_inner = (std::int64_t{1} << 31) / (4 * 255 * 128) - 1;

bool is_s8_zero_point(double z) {
    return z >= -128.0 && z <= 127.0;
}

route_choice quantized_matmul_route(const op::quantized_matmul& q, const descs& in) {
    const dtype a = in[0].type();
    if (a != dtype::i8 && a != dtype::f32)
        return reference_because("quantized_matmul with " + std::string(to_string(a)) + " A");
    if (q.pre_computed() && in[2].type() != dtype::f32)
        return reference_because("quantized_matmul with a precomputed non-f32 C");
    const quantized_terms terms(q, in[0], in[1], in[2]);
    if (!is_s8_zero_point(terms.za) || !is_s8_zero_point(terms.zb))
        return reference_because("quantized_matmul zero point outside [-128, 127]");
    if (q.geometry(in).n > max_exact_inner)
        return reference_because("quantized_matmul inner size beyond exact s32 sums");
    return native(route::native_plain);
}

class quantized_matmul_step final : public step {
  public:
    quantized_matmul_step(const build_context& b, const op::quantized_matmul& q)
        : node_(b.node.n),
          ctx_(b.ctx),
          g_(q.geometry(b.node.in)),
          terms_(q, b.node.in[0], b.node.in[1], b.node.in[2]),
          ta_(q.transpose_a()),
          tb_(q.transpose_b()),
          float_a_(b.node.in[0].type() == dtype::f32),
          float_c_(b.node.in[2].type() == dtype::f32),
          raw_sums_(q.pre_computed() && q.kind() != matmul_kind::addition) {
        // A stacked A over a shared B is one tall product; otherwise one product per stack.
        const std::int64_t stacks = g_.stacks ? g_.stacks : 1;
        products_ = g_.b_stacked ? stacks : 1;
        rows_ = g_.b_stacked ? g_.m : stacks * g_.m;
        a_u8_.resize(static_cast<std::size_t>(rows_ * g_.n));
        sums_.resize(static_cast<std::size_t>(rows_ * g_.p));
        if (tb_) b_upright_.resize(static_cast<std::size_t>(g_.n * g_.p));
        if (raw_sums_) b_column_sums_.resize(static_cast<std::size_t>(g_.p));
        a_ = bound_view({rows_, g_.n}, runtime::DataType::u8,
                        static_cast<std::int32_t>(terms_.za) + 128);
        b_ = bound_view({g_.n, g_.p}, runtime::DataType::s8, static_cast<std::int32_t>(terms_.zb));
        d_ = bound_view({rows_, g_.p}, runtime::DataType::s32);
        bind_view(*a_, a_u8_.data());
        bind_view(*d_, sums_.data());
        // A constant, upright, unstacked B (weights) is packed once.
        const bool b_constant = !g_.b_stacked && !tb_ && b.node.p.is_constant(node_.inputs[1]);
        product_ = std::make_unique<runtime::QuantizedMatmul>(b.ctx, b.memory);
        product_->configure(*a_, *b_, *d_, b_constant);
        parts_ = parts_for(ctx_, rows_, std::max<std::int64_t>(1, grain / (g_.n + g_.p)));
    }

    void run(const buffers& b) override {
        const auto data = [&](int i) {
            return b[static_cast<std::size_t>(node_.inputs[static_cast<std::size_t>(i)])]
                ->host_data();
        };
        const void* a = data(0);
        const auto* bm = static_cast<const std::int8_t*>(data(1));
        const void* c = data(2);
        auto* y = static_cast<float*>(b[static_cast<std::size_t>(node_.outputs[0])]->host_data());
        for (std::int64_t product = 0; product < products_; ++product) {
            const std::int8_t* b_stack = bm + (g_.b_stacked ? product * g_.n * g_.p : 0);
            load_a(a, product);
            bind_view(*b_, upright_b(b_stack));
            if (raw_sums_) sum_b_columns(b_stack);
            product_->run();
            finish(c, y, product);
        }
    }

  private:
    static constexpr std::int64_t grain = 4096;  // elements per thread at least

    /// The stack of A row `r` of product `product` belongs to, and its row there.
    std::pair<std::int64_t, std::int64_t> stack_and_row(std::int64_t product,
                                                        std::int64_t r) const {
        return g_.b_stacked ? std::make_pair(product, r) : std::make_pair(r / g_.m, r % g_.m);
    }

    /// A's quantised values of the product's rows, plus 128, into a_u8_.
    void load_a(const void* a, std::int64_t product) {
        parallel_ranges(ctx_, rows_, parts_, [&](std::int64_t begin, std::int64_t end, int) {
            for (std::int64_t r = begin; r < end; ++r) {
                const auto [s, i] = stack_and_row(product, r);
                const std::int64_t base = g_.a_stacked ? s * g_.m * g_.n : 0;
                std::uint8_t* out = a_u8_.data() + r * g_.n;
                for (std::int64_t k = 0; k < g_.n; ++k) {
                    const std::int64_t at = base + (ta_ ? k * g_.m + i : i * g_.n + k);
                    const double q =
                        float_a_ ? terms_.quantize_a(static_cast<const float*>(a)[at])
                                 : static_cast<double>(static_cast<const std::int8_t*>(a)[at]);
                    out[k] = static_cast<std::uint8_t>(static_cast<int>(q) + 128);
                }
            }
        });
    }

    /// B of one stack as [n, p]: in place, or copied upright when given transposed.
    const std::int8_t* upright_b(const std::int8_t* b_stack) {
        if (!tb_) return b_stack;
        for (std::int64_t k = 0; k < g_.n; ++k)
            for (std::int64_t j = 0; j < g_.p; ++j)
                b_upright_[static_cast<std::size_t>(k * g_.p + j)] = b_stack[j * g_.n + k];
        return b_upright_.data();
    }

    /// sum_k (qb - Zb) per column, for d_raw_a = d + Za sum_k (qb - Zb).
    void sum_b_columns(const std::int8_t* b_stack) {
        const auto zb = static_cast<std::int64_t>(terms_.zb);
        std::fill(b_column_sums_.begin(), b_column_sums_.end(), 0);
        for (std::int64_t k = 0; k < g_.n; ++k)
            for (std::int64_t j = 0; j < g_.p; ++j) {
                const std::int8_t v = tb_ ? b_stack[j * g_.n + k] : b_stack[k * g_.p + j];
                b_column_sums_[static_cast<std::size_t>(j)] += v - zb;
            }
    }

    /// The product's outputs from its integer sums and C, as the reference computes them.
    void finish(const void* c, float* y, std::int64_t product) {
        const auto za = static_cast<std::int64_t>(terms_.za);
        parallel_ranges(ctx_, rows_, parts_, [&](std::int64_t begin, std::int64_t end, int) {
            for (std::int64_t r = begin; r < end; ++r) {
                const auto [s, i] = stack_and_row(product, r);
                const std::int64_t c_base = g_.c_stacked ? s * g_.p : 0;
                const std::int32_t* d_row = sums_.data() + r * g_.p;
                float* y_row = y + (s * g_.m + i) * g_.p;
                for (std::int64_t j = 0; j < g_.p; ++j) {
                    const std::int64_t d = d_row[j];
                    const std::int64_t d_raw_a =
                        raw_sums_ ? d + za * b_column_sums_[static_cast<std::size_t>(j)] : 0;
                    const double cv =
                        float_c_
                            ? static_cast<const float*>(c)[c_base + j]
                            : static_cast<double>(static_cast<const std::int8_t*>(c)[c_base + j]);
                    y_row[j] = static_cast<float>(terms_.result(d, d_raw_a, cv, g_.n));
                }
            }
        });
    }

    sdk::node node_;
    const runtime::Context& ctx_;
    op::matmul_geometry g_;
    quantized_terms terms_;
    bool ta_, tb_, float_a_, float_c_;
    bool raw_sums_;  // pre_computed comparisons use sum_k qa (qb - Zb)
    std::int64_t products_ = 1, rows_ = 0;
    int parts_ = 1;
    std::vector<std::uint8_t> a_u8_;
    std::vector<std::int32_t> sums_;
    std::vector<std::int8_t> b_upright_;
    std::vector<std::int64_t> b_column_sums_;
    std::unique_ptr<runtime::Tensor> a_, b_, d_;
    std::unique_ptr<runtime::QuantizedMatmul> product_;
};

}  // namespace

void state_quantized_matmul(router& r) {
    r.state<op::quantized_matmul>(
        [](const op::quantized_matmul& q, const query_view& v) {
            return answer(quantized_matmul_route(q, v.q.inputs), v.in, v.out);
        },
        [](const op::quantized_matmul& q, const build_context& b) {
            return routed_step(quantized_matmul_route(q, b.node.in), b,
                               [&] { return std::make_unique<quantized_matmul_step>(b, q); });
        });
}

}  // namespace tessera::plugins::cpu
