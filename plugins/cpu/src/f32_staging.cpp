// f32_staging.cpp: which nodes run their f32 step between conversions, their query answer, and
// the step that converts at its edges.
#include "f32_staging.hpp"

#include <type_traits>
#include <utility>
#include <variant>

#include "element_conversion.hpp"

namespace tessera::plugins::cpu {

namespace {

/// Whether an f32 holds every value of `d`'s dtype (see the file comment).
bool f32_holds(const tensor_desc& d) {
    switch (d.type()) {
        case dtype::f32:
        case dtype::f16:
        case dtype::bf16:
        case dtype::dlfloat16:
        case dtype::i8:
        case dtype::u8:
        case dtype::i16:
            return true;
        default:
            return false;
    }
}

/// Ops whose reference computes on real values in double and rounds once into each output.
bool computes_real_values(const op_desc& o, const descs& in) {
    const auto& v = o.variant();
    const bool fixed_point_products = in[0].type() == dtype::i16;
    if (std::holds_alternative<op::conv2d>(v) || std::holds_alternative<op::fully_connected>(v))
        return !fixed_point_products;
    if (const auto* m = std::get_if<op::matmul>(&v)) return m->kind() == matmul_kind::addition;
    return std::holds_alternative<op::gemm>(v) || std::holds_alternative<op::pooling>(v) ||
           std::holds_alternative<op::batchnorm>(v) || std::holds_alternative<op::layer_norm>(v) ||
           std::holds_alternative<op::softmax>(v) || std::holds_alternative<op::lrn>(v) ||
           std::holds_alternative<op::resize_bilinear>(v) || std::holds_alternative<op::norm>(v) ||
           std::holds_alternative<op::moments>(v) || std::holds_alternative<op::mean_reduce2d>(v) ||
           std::holds_alternative<op::activation>(v);
}

/// `d` as the f32 step sees it: non-f32 tensors as dense row-major f32.
tensor_desc as_f32(const tensor_desc& d) {
    return d.type() == dtype::f32 ? d : tensor_desc(d.dims(), dtype::f32);
}

descs as_f32(const descs& ds) {
    descs r;
    for (const auto& d : ds) r.push_back(as_f32(d));
    return r;
}

descs logical(const descs& ds) {
    descs r;
    for (const auto& d : ds) r.push_back(d.is_opaque() ? d.with_layout(layout::row_major()) : d);
    return r;
}

/// The f32 rule's answer for `o` on the f32 views of `in` (as asked) -> `out`.
sdk::support f32_answer(const router& routes, const op_desc& o, const descs& asked_in,
                        const descs& out) {
    const sdk::op_query q32{o, "", as_f32(asked_in), as_f32(out)};
    const descs in32 = logical(q32.inputs);
    sdk::support s = routes.query(o, query_view{q32, in32, q32.outputs});
    if (s.inputs.empty()) s.inputs = in32;
    if (s.outputs.empty()) s.outputs = q32.outputs;
    return s;
}

/// Whether the op's own rule runs it natively on its tensors as they are.
bool native_as_is(const router& routes, const op_desc& o, const descs& asked_in, const descs& in,
                  const descs& out) {
    const sdk::op_query q{o, "", asked_in, out};
    return routes.query(o, query_view{q, in, out}).level == TSR_SUPPORT_NATIVE;
}

/// The rounding and overflow policies of the op's own output store (conv2d, fully connected
/// and pooling carry them; the others round to nearest even and saturate).
template <typename Op, typename = void>
struct has_rounding : std::false_type {};
template <typename Op>
struct has_rounding<Op, std::void_t<decltype(std::declval<const Op&>().rounding())>>
    : std::true_type {};
template <typename Op, typename = void>
struct has_overflow : std::false_type {};
template <typename Op>
struct has_overflow<Op, std::void_t<decltype(std::declval<const Op&>().overflow())>>
    : std::true_type {};

std::pair<rounding_policy, overflow_policy> store_policies(const op_desc& o) {
    return std::visit(
        [](const auto& op) {
            using Op = std::decay_t<decltype(op)>;
            std::pair<rounding_policy, overflow_policy> p{rounding_policy::to_nearest_even,
                                                          overflow_policy::saturate};
            if constexpr (has_rounding<Op>::value) p.first = op.rounding();
            if constexpr (has_overflow<Op>::value) p.second = op.overflow();
            return p;
        },
        o.variant());
}

/// The conversion of one tensor at a staged step's edge, from `from` to `to` (either may be
/// nchw16c), chosen once when the step is built.
class edge_conversion {
  public:
    edge_conversion(const tensor_desc& from, const tensor_desc& to,
                    std::pair<rounding_policy, overflow_policy> policies)
        : from_(from), to_(to), policies_(policies) {
        if (!is_blocked(from) && !is_blocked(to))
            elements_.emplace(from, to, policies.first, policies.second);
    }

    void run(const void* src, void* dst, std::int64_t dst_bytes) const {
        if (elements_) return elements_->run(src, 1, dst, 1, from_.num_elements());
        if (is_blocked(to_))
            return host_to_blocked(tensor::borrow(from_, const_cast<void*>(src)), dst, dst_bytes,
                                   to_);
        blocked_to_host(src, from_, tensor::borrow(to_, dst), policies_.first, policies_.second);
    }

  private:
    tensor_desc from_, to_;
    std::pair<rounding_policy, overflow_policy> policies_;
    std::optional<element_conversion> elements_;  // both row-major
};

/// One non-f32 tensor of a staged node: its id, its f32 copy, and the conversion between the
/// partition's buffer and the copy (into the copy for an input, out of it for an output).
struct staged_tensor {
    int id;
    std::unique_ptr<sdk::host_buffer> copy;
    edge_conversion conversion;
};

class f32_staged_step final : public step {
  public:
    f32_staged_step(const router& routes, const build_context& b, const sdk::support& f32) {
        const sdk::node& n = b.node.n;
        // The node's partition without its nodes (the f32 rule sees only its own node), with the
        // staged tensors as the f32 rule chose them.
        partition_.tensors = b.node.p.tensors;
        partition_.read_later = b.node.p.read_later;
        partition_.constant = b.node.p.constant;
        const auto policies = store_policies(n.op);
        auto stage = [&](int id, const tensor_desc& inner, bool input) {
            tensor_desc& slot = partition_.tensors[static_cast<std::size_t>(id)];
            if (slot.type() == dtype::f32) return;
            (input ? inputs_ : outputs_)
                .push_back({id, std::make_unique<sdk::host_buffer>(inner.size_bytes()),
                            input ? edge_conversion(slot, inner, policies)
                                  : edge_conversion(inner, slot, policies)});
            slot = inner;
        };
        for (std::size_t i = 0; i < n.inputs.size(); ++i) stage(n.inputs[i], f32.inputs[i], true);
        for (std::size_t i = 0; i < n.outputs.size(); ++i)
            stage(n.outputs[i], f32.outputs[i], false);
        const node_view inner_view(partition_, n);
        inner_ = routes.build(n.op, build_context{inner_view, b.ctx, b.memory, nullptr});
    }

    void run(const buffers& b) override {
        inner_buffers_.assign(b.begin(), b.end());
        for (auto* group : {&inputs_, &outputs_})
            for (auto& t : *group) inner_buffers_[static_cast<std::size_t>(t.id)] = t.copy.get();
        for (auto& t : inputs_)
            t.conversion.run(b[static_cast<std::size_t>(t.id)]->host_data(), t.copy->host_data(),
                             t.copy->size());
        inner_->run(inner_buffers_);
        for (auto& t : outputs_) {
            sdk::buffer& out = *b[static_cast<std::size_t>(t.id)];
            t.conversion.run(t.copy->host_data(), out.host_data(), out.size());
        }
    }
    bool emulated() const override { return inner_->emulated(); }

  private:
    sdk::partition partition_;
    std::vector<staged_tensor> inputs_, outputs_;
    std::unique_ptr<step> inner_;
    buffers inner_buffers_;  // the partition's buffers with the staged ones replaced, per run
};

}  // namespace

bool stages(const op_desc& o, const descs& in, const descs& out) {
    bool some_narrow = false;
    for (const descs* ds : {&in, &out})
        for (const auto& d : *ds) {
            if (!f32_holds(d)) return false;
            some_narrow = some_narrow || d.type() != dtype::f32;
        }
    return some_narrow && !in.empty() && computes_real_values(o, in);
}

std::optional<sdk::support> staged_answer(const router& routes, const sdk::op_query& q,
                                          const descs& in, const descs& out) {
    if (!stages(q.op, in, out) || native_as_is(routes, q.op, q.inputs, in, out))
        return std::nullopt;
    sdk::support s = f32_answer(routes, q.op, q.inputs, out);
    if (s.level != TSR_SUPPORT_NATIVE) return std::nullopt;
    for (std::size_t i = 0; i < in.size(); ++i)
        if (in[i].type() != dtype::f32) s.inputs[i] = in[i].with_layout(layout::row_major());
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i].type() != dtype::f32) s.outputs[i] = out[i].with_layout(layout::row_major());
    return s;
}

std::unique_ptr<step> staged_step(const router& routes, const build_context& b) {
    const node_view& v = b.node;
    const descs in = logical(v.in), out = logical(v.out);
    if (!stages(v.n.op, in, out) || native_as_is(routes, v.n.op, v.in, in, out)) return nullptr;
    const sdk::support f32 = f32_answer(routes, v.n.op, v.in, out);
    if (f32.level != TSR_SUPPORT_NATIVE) return nullptr;
    return std::make_unique<f32_staged_step>(routes, b, f32);
}

}  // namespace tessera::plugins::cpu
