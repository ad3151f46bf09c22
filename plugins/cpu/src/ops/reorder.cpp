// ops/reorder.cpp: layout, dtype and quantisation conversions. Blocked nchw16c <-> row-major 4-D
// f32 runs on the runtime's Reorder; blocked <-> row-major 4-D of another dtype converts each
// (n, c, h) row in the plugin (the blocked side is f32, its padding channels zero). Between
// strided layouts it is one strided walk: a byte copy when both sides store values alike, else
// each run converted exactly as the reference kernel converts (element_conversion.hpp). Blocked
// to blocked, or blocked <-> anything else, is declined. A reorder keeps the layouts it was asked
// for.
#include <cstring>

#include <tessera/cpu/functions/reorder.hpp>

#include "../element_conversion.hpp"
#include "../strided_copy.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice reorder_route(const tensor_desc& in, const tensor_desc& out) {
    const bool from_blocked = is_blocked(in), to_blocked = is_blocked(out);
    if (from_blocked || to_blocked) {
        const tensor_desc& other = from_blocked ? out : in;
        if (from_blocked && to_blocked)
            return {route::declined, TSR_REASON_LAYOUT, "blocked to blocked"};
        if (other.rank() != 4 || !other.is_row_major())
            return {route::declined, TSR_REASON_LAYOUT, "blocked <-> row-major 4-D only"};
        return native(route::native_plain);
    }
    if (!in.is_strided() || !out.is_strided())
        return {route::reference, TSR_REASON_LAYOUT,
                "a layout that is neither strided nor blocked"};
    return native(route::native_plain);
}

/// Blocked <-> row-major f32: the runtime's Reorder.
class runtime_reorder_step final : public function_step {
  public:
    explicit runtime_reorder_step(const build_context& b)
        : function_step(b.node, /*as_image=*/true) {
        auto f = std::make_unique<runtime::Reorder>(b.ctx);
        f->configure(in(0), out());
        set_function(std::move(f));
    }
};

/// The element walk of a reorder between strided layouts (same dims).
copy_plan strided_plan(const tensor_desc& in, const tensor_desc& out) {
    copy_plan plan;
    for (int i = 0; i < in.rank(); ++i) plan.add_dim(in.dim(i), in.stride(i), out.stride(i));
    plan.set_origin(in.offset(), out.offset());
    return plan;
}

/// Between strided layouts with a dtype or quantisation change: each run converted.
class converting_step final : public step {
  public:
    converting_step(const node_view& v, const op::reorder& r, const runtime::Context& ctx)
        : src_(v.n.inputs[0]),
          dst_(v.n.outputs[0]),
          plan_(strided_plan(v.in[0], v.out[0])),
          conversion_(v.in[0], v.out[0], r.rounding(), r.overflow()),
          from_size_(static_cast<std::int64_t>(size_of(v.in[0].type()))),
          to_size_(static_cast<std::int64_t>(size_of(v.out[0].type()))),
          ctx_(ctx) {}

    void run(const buffers& b) override {
        const auto* src = static_cast<const char*>(b[static_cast<std::size_t>(src_)]->host_data());
        auto* dst = static_cast<char*>(b[static_cast<std::size_t>(dst_)]->host_data());
        const std::int64_t n = plan_.run_length(), ss = plan_.run_src_step(),
                           ds = plan_.run_dst_step();
        parallel_rows(ctx_, plan_, [&](std::int64_t begin, std::int64_t end) {
            plan_.for_rows(begin, end, [&](std::int64_t s, std::int64_t d) {
                conversion_.run(src + s * from_size_, ss, dst + d * to_size_, ds, n);
            });
        });
    }

  private:
    int src_, dst_;
    copy_plan plan_;
    element_conversion conversion_;
    std::int64_t from_size_, to_size_;
    const runtime::Context& ctx_;
};

/// Blocked nchw16c <-> row-major 4-D of any dtype: each (n, c, h) row converted; a blocked
/// output is zeroed first so its padding channels hold zeros.
class blocked_converting_step final : public step {
  public:
    blocked_converting_step(const node_view& v, const op::reorder& r, const runtime::Context& ctx)
        : src_(v.n.inputs[0]),
          dst_(v.n.outputs[0]),
          to_blocked_(is_blocked(v.out[0])),
          plain_(to_blocked_ ? v.in[0] : v.out[0]),
          blocked_info_(runtime_info(to_blocked_ ? v.out[0] : v.in[0])),
          conversion_(v.in[0], v.out[0], r.rounding(), r.overflow()),
          ctx_(ctx) {}

    void run(const buffers& b) override {
        const auto* src = static_cast<const char*>(b[static_cast<std::size_t>(src_)]->host_data());
        auto* dst = static_cast<char*>(b[static_cast<std::size_t>(dst_)]->host_data());
        if (to_blocked_) std::memset(dst, 0, blocked_info_.total_size_in_bytes());
        const std::int64_t channels = plain_.dim(1), height = plain_.dim(2), width = plain_.dim(3);
        const std::int64_t rows = plain_.dim(0) * channels * height;
        const auto plain_size = static_cast<std::int64_t>(size_of(plain_.type()));
        const std::int64_t blocked_step = blocked_info_.stride_w(), plain_step = plain_.stride(3);
        const int parts = static_cast<int>(std::min<std::int64_t>(
            parts_for(ctx_, rows * width, copy_grain), std::max<std::int64_t>(rows, 1)));
        parallel_ranges(ctx_, rows, parts, [&](std::int64_t begin, std::int64_t end, int) {
            for (std::int64_t r = begin; r < end; ++r) {
                const std::int64_t h = r % height, c = (r / height) % channels,
                                   n = r / (height * channels);
                const std::int64_t blocked = blocked_info_.offset_of(n, c, h, 0);
                const std::int64_t plain =
                    (n * plain_.stride(0) + c * plain_.stride(1) + h * plain_.stride(2)) *
                    plain_size;
                if (to_blocked_) {
                    conversion_.run(src + plain, plain_step, dst + blocked, blocked_step, width);
                } else {
                    conversion_.run(src + blocked, blocked_step, dst + plain, plain_step, width);
                }
            }
        });
    }

  private:
    int src_, dst_;
    bool to_blocked_;
    tensor_desc plain_;  // the row-major side
    runtime::TensorInfo blocked_info_;
    element_conversion conversion_;
    const runtime::Context& ctx_;
};

std::unique_ptr<step> reorder_step(const op::reorder& r, const build_context& b) {
    const node_view& v = b.node;
    const tensor_desc& in = v.in[0];
    const tensor_desc& out = v.out[0];
    if (is_blocked(in) || is_blocked(out)) {
        const tensor_desc& plain = is_blocked(in) ? out : in;
        if (plain.type() == dtype::f32) return std::make_unique<runtime_reorder_step>(b);
        return std::make_unique<blocked_converting_step>(v, r, b.ctx);
    }
    if (stores_alike(in, out)) {
        std::vector<copy_piece> pieces{{v.n.inputs[0], v.n.outputs[0], strided_plan(in, out)}};
        return std::make_unique<copy_step>(std::move(pieces), size_of(in.type()), b.ctx);
    }
    return std::make_unique<converting_step>(v, r, b.ctx);
}

}  // namespace

void state_reorder(router& r) {
    r.state<op::reorder>(
        [](const op::reorder&, const query_view& v) {
            // An output asked in any layout gets the op's target (what the graph then allocates).
            const tensor_desc& out = v.q.outputs[0].is_any() ? v.out[0] : v.q.outputs[0];
            sdk::support s = answer(reorder_route(v.q.inputs[0], out), {}, {});
            if (s.level == TSR_SUPPORT_NONE) return s;
            s.inputs = v.q.inputs;  // the layouts it was asked for
            s.outputs = v.q.outputs;
            return s;
        },
        [](const op::reorder& o, const build_context& b) {
            return routed_step(reorder_route(b.node.in[0], b.node.out[0]), b,
                               [&] { return reorder_step(o, b); });
        });
}

}  // namespace tessera::plugins::cpu
