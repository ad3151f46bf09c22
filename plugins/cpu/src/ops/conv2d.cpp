// ops/conv2d.cpp: 2-D convolution on the runtime's Conv2d / DepthwiseConv2d in nchw16c, and the
// chains it heads: conv -> inference batch-norm -> residual add -> activation run as one runtime
// convolution (batch-norm folded into the weights and bias, the residual loaded into each output
// tile before the reduction, the activation in the epilogue; depthwise heads take no residual).
// A per-location bias [O, OH, OW] is Conv2d's residual, activations the runtime lacks are applied
// after it (conv_epilogue.hpp), ceil-rounded outputs read padding the runtime adds past the
// declared padding. Transposed convolutions are ops/conv_transposed.cpp's, i16 fixed-point ones
// ops/conv_fixed_point.cpp's; other non-f32 forms run on the reference kernel.
#include <algorithm>
#include <cmath>
#include <cstring>

#include <tessera/cpu/functions/conv2d.hpp>
#include <tessera/cpu/functions/depthwise_conv2d.hpp>

#include "conv_epilogue.hpp"
#include "conv_fixed_point.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

/// Trailing padding up to the end of the last window: the runtime copies the padded input, so
/// padding past the last window is left out (it is never read; the output extent stays the
/// same), and a ceil-rounded last window reaching past the declared padding reads zeros there,
/// as the reference's skipped positions add nothing.
std::int64_t reached_pad_after(const op::spatial_extent& e, std::int64_t in, std::int64_t kernel,
                               std::int64_t stride, std::int64_t dilation) {
    const std::int64_t last_window_end = (e.out - 1) * stride + (kernel - 1) * dilation + 1;
    return std::max<std::int64_t>(0, last_window_end - in - e.pad_before);
}

/// The convolution's geometry (padding resolved, groups counted) for the runtime.
runtime::Conv2dGeometry runtime_geometry(const op::conv2d& c, const tensor_desc& src,
                                         const tensor_desc& weights) {
    const auto g = c.geometry(src, weights);
    runtime::Conv2dGeometry geo;
    geo.stride_h = c.stride().h;
    geo.stride_w = c.stride().w;
    geo.pad_top = g.y.pad_before;
    geo.pad_bottom = reached_pad_after(g.y, g.h, g.kh, c.stride().h, c.dilation().h);
    geo.pad_left = g.x.pad_before;
    geo.pad_right = reached_pad_after(g.x, g.w, g.kw, c.stride().w, c.dilation().w);
    geo.dilation_h = c.dilation().h;
    geo.dilation_w = c.dilation().w;
    geo.groups = g.c / g.group_in;
    return geo;
}

route_choice conv_route(const op::conv2d& c, const descs& in, const tensor_desc& out) {
    if (c.kind() == conv_kind::transposed) return transposed_conv_route(c, in);
    if (in[0].type() == dtype::i16) return native(route::native_plain);  // conv_fixed_point.hpp
    if (!all_f32(in)) return reference_because("quantised or 16-bit floating convolution");
    const runtime::Conv2dGeometry geo = runtime_geometry(c, in[0], in[1]);
    // The runtime works on a padded copy of the input: leading padding far beyond the input
    // (windows that read padding only) would make that copy huge; the reference kernel reads
    // the input in place.
    const auto g = c.geometry(in[0], in[1]);
    const double padded = static_cast<double>(g.n) * static_cast<double>(g.c) *
                          static_cast<double>(g.h + geo.pad_top + geo.pad_bottom) *
                          static_cast<double>(g.w + geo.pad_left + geo.pad_right);
    const double plain = static_cast<double>(g.n) * static_cast<double>(g.c) *
                         static_cast<double>(g.h) * static_cast<double>(g.w);
    if (padded > 16.0 * plain + static_cast<double>(1 << 20))
        return reference_because(
            "padding makes the runtime's padded input copy over 16x the input");
    const auto shape = runtime::Conv2d::output_shape(
        runtime_info(blocked(in[0])), runtime_info(in[1].with_layout(layout::row_major())), geo);
    if (shape != dims_of(out)) return reference_because("output rounding");
    return native(route::native_blocked);
}

/// A plain convolution of few input channels over an image (the RGB or grey stem of a network)
/// reads its input row-major as nchw: in nchw16c its 1 to 15 channels would be padded to 16,
/// multiplying the work by up to 16. Squeeze-excite convolutions (1x1 images) stay blocked, and
/// so does one channel in and out, which runs as a depthwise convolution (nchw16c only).
bool reads_nchw(const op::conv2d& c, const descs& in) {
    const auto g = c.geometry(in[0], in[1]);
    const bool depthwise = g.c == 1 && g.o == 1;
    return g.c < 16 && g.group_in == g.c && g.h * g.w > 1 && !depthwise;
}

/// A convolution may head a chain when it has no batch-norm or activation of its own and runs
/// natively with a per-channel bias.
fusion_role conv_fusion(const op::conv2d& c, const node_view& v) {
    fusion_role role;
    if (c.fuse_batchnorm() || c.fused_activation().kind != activation_kind::none ||
        conv_route(c, v.in, v.out[0]).how != route::native_blocked)
        return role;
    if (c.has_bias() && v.in[2].rank() != 1) return role;
    role.stage = fusion_stage::head;
    const auto g = c.geometry(v.in[0], v.in[1]);
    role.takes_residual = !(g.c / g.group_in == g.c && g.o == g.c);  // not depthwise
    return role;
}

/// Whether the convolution's bias is per location [O, OH, OW].
bool location_bias(const op::conv2d& c, const descs& in) {
    return c.has_bias() && in[static_cast<std::size_t>(c.slots().bias)].rank() == 3;
}

/// One convolution node: depthwise on DepthwiseConv2d, otherwise Conv2d (with the op's own
/// batch-norm folded in by the runtime, a per-location bias as its residual). An activation the
/// runtime lacks is applied afterwards (with_activation_after).
class conv_step final : public function_step {
  public:
    conv_step(const build_context& b, const op::conv2d& c) : function_step(b.node) {
        const descs& t = b.node.in;
        if (!is_blocked(t[0])) {  // reads_nchw: the input is an nchw image
            in(0).info() = runtime_info(t[0], true);
            in(0).info().set_resizable(false);
        }
        const runtime::ActivationInfo act = runtime_has(c.fused_activation())
                                                ? runtime_activation(c.fused_activation())
                                                : runtime::ActivationInfo{};
        const auto g = c.geometry(t[0], t[1]);
        const runtime::Conv2dGeometry geo = runtime_geometry(c, t[0], t[1]);
        const auto s = c.slots();
        if (location_bias(c, t)) {
            location_bias_ = std::make_unique<location_bias_residual>(b.node.out[0]);
            bias_ = &in(s.bias);
        }
        const bool depthwise =
            geo.groups == g.c && g.o == g.c && !c.fuse_batchnorm() && !location_bias_;
        if (depthwise) {
            auto f = std::make_unique<runtime::DepthwiseConv2d>(b.ctx, b.memory);
            runtime::DepthwiseConv2dInfo info;
            info.geometry = geo;
            info.activation = act;
            f->configure(in(0), in(1), optional_in(s.bias), out(), info);
            set_function(std::move(f));
        } else {
            auto f = std::make_unique<runtime::Conv2d>(b.ctx, b.memory);
            runtime::Conv2dInfo info;
            info.geometry = geo;
            info.activation = act;
            if (c.fuse_batchnorm()) {
                bn_ = runtime::BatchNormFold{&in(s.mean), &in(s.variance), &in(s.scale),
                                             &in(s.shift), c.bn_epsilon()};
                info.batch_norm = &bn_;
            }
            if (location_bias_) info.residual = &location_bias_->tensor();
            f->configure(in(0), in(1), location_bias_ ? nullptr : optional_in(s.bias), out(), info);
            set_function(std::move(f));
        }
        batch_norm_ = c.fuse_batchnorm();
    }

  private:
    void before_run() override {
        if (location_bias_) location_bias_->fill(*bias_, batch_norm_ ? &bn_ : nullptr);
    }

    runtime::BatchNormFold bn_;
    bool batch_norm_ = false;
    std::unique_ptr<location_bias_residual> location_bias_;
    const runtime::Tensor* bias_ = nullptr;
};

/// The step of a convolution on the runtime, with an activation the runtime lacks after it.
std::unique_ptr<step> runtime_conv_step(const build_context& b, const op::conv2d& c) {
    std::unique_ptr<step> conv = std::make_unique<conv_step>(b, c);
    if (runtime_has(c.fused_activation())) return conv;
    return with_activation_after(std::move(conv), b.node, c.fused_activation(), c.slots().slope,
                                 b.ctx);
}

bool overlaps(sdk::buffer& a, sdk::buffer& b) {
    const auto* pa = static_cast<const unsigned char*>(a.host_data());
    const auto* pb = static_cast<const unsigned char*>(b.host_data());
    return pa < pb + b.size() && pb < pa + a.size();
}

/// A chain headed by a convolution, run as one runtime convolution; its result lands in the
/// chain's last output. When the memory plan gave that output the buffer of one of the chain's
/// (then dead) inputs, the convolution writes into its own output buffer and is copied over.
class fused_conv_step final : public step {
  public:
    fused_conv_step(const build_context& b, const op::conv2d& c) : conv_(b.node.n) {
        const sdk::partition& p = b.node.p;
        const fusion_chain& chain = *b.chain;
        const tensor_desc& src_desc = b.node.in[0];
        const tensor_desc& w_desc = b.node.in[1];
        runtime::Tensor& src = bound(p, conv_.inputs[0], true);  // nchw16c, or nchw (reads_nchw)
        runtime::Tensor& weights = bound(p, conv_.inputs[1]);
        runtime::Tensor* bias = c.has_bias() ? &bound(p, conv_.inputs[2]) : nullptr;
        output_ = p.nodes[static_cast<std::size_t>(chain.last())].outputs[0];
        scratch_ = conv_.outputs[0];
        dst_ = std::make_unique<runtime::Tensor>(
            runtime_info(p.tensors[static_cast<std::size_t>(output_)]));
        dst_->info().set_resizable(false);

        runtime::ActivationInfo act;
        if (chain.normalization >= 0) {
            const sdk::node& n = p.nodes[static_cast<std::size_t>(chain.normalization)];
            act = chain.normalization_role.activation;
            const bool affine = n.inputs.size() >= 5;
            bn_ = runtime::BatchNormFold{&bound(p, n.inputs[1]), &bound(p, n.inputs[2]),
                                         affine ? &bound(p, n.inputs[3]) : nullptr,
                                         affine ? &bound(p, n.inputs[4]) : nullptr,
                                         chain.normalization_role.epsilon};
        }
        if (chain.epilogue >= 0) act = chain.epilogue_role.activation;
        if (chain.residual >= 0) {
            residual_ = chain.residual_input;
            residual_tensor_ = &bound(p, residual_);
        }

        const runtime::Conv2dGeometry geo = runtime_geometry(c, src_desc, w_desc);
        const auto g = c.geometry(src_desc, w_desc);
        if (geo.groups == g.c && g.o == g.c) {  // depthwise: batch-norm folded here, not by the
                                                // runtime
            runtime::DepthwiseConv2dInfo info;
            info.geometry = geo;
            info.activation = act;
            const runtime::Tensor* used_bias = bias;
            const runtime::Tensor* used_weights = &weights;
            if (chain.normalization >= 0) {
                folded_weights_ = std::make_unique<runtime::Tensor>(weights.info());
                folded_weights_->allocator().allocate();
                folded_bias_ = std::make_unique<runtime::Tensor>(
                    runtime::TensorInfo({g.o}, runtime::DataType::f32, runtime::DataLayout::plain));
                folded_bias_->allocator().allocate();
                used_weights = folded_weights_.get();
                used_bias = folded_bias_.get();
            }
            auto f = std::make_unique<runtime::DepthwiseConv2d>(b.ctx, b.memory);
            f->configure(src, *used_weights, used_bias, *dst_, info);
            function_ = std::move(f);
        } else {
            runtime::Conv2dInfo info;
            info.geometry = geo;
            info.activation = act;
            if (chain.normalization >= 0) info.batch_norm = &bn_;
            info.residual = residual_tensor_;
            auto f = std::make_unique<runtime::Conv2d>(b.ctx, b.memory);
            f->configure(src, weights, bias, *dst_, info);
            function_ = std::move(f);
        }
        bias_ = bias;
        weights_ = &weights;
        for (const auto& input : inputs_) input_ids_.push_back(input.second);
    }

    void run(const buffers& b) override {
        for (auto& [t, id] : inputs_)
            t->allocator().import_memory(b[static_cast<std::size_t>(id)]->host_data(),
                                         size_of(*b[static_cast<std::size_t>(id)]));
        sdk::buffer& out = *b[static_cast<std::size_t>(output_)];
        // The output may be the residual's own buffer: each tile reads its residual values
        // before it writes them.
        bool aliased = false;
        for (int id : input_ids_) {
            sdk::buffer& input = *b[static_cast<std::size_t>(id)];
            const bool in_place = id == residual_ && input.host_data() == out.host_data();
            aliased = aliased || (!in_place && overlaps(out, input));
        }
        sdk::buffer& target = aliased ? *b[static_cast<std::size_t>(scratch_)] : out;
        if (aliased)
            for (int id : input_ids_)
                if (overlaps(target, *b[static_cast<std::size_t>(id)]))
                    throw error(status::backend_failure,
                                "fused convolution: no free buffer for its output",
                                {backend_name, conv_.name, ""});
        dst_->allocator().import_memory(target.host_data(), size_of(target));
        if (!prepared_) {
            if (folded_weights_) fold_depthwise();
            function_->prepare();
            prepared_ = true;
        }
        function_->run();
        if (aliased)
            std::memcpy(out.host_data(), target.host_data(), dst_->info().total_size_in_bytes());
    }

  private:
    static std::size_t size_of(sdk::buffer& b) { return static_cast<std::size_t>(b.size()); }

    /// A runtime tensor over partition tensor `id`, bound to its buffer on every run
    /// (`as_image`: a 4-D row-major tensor as an nchw image).
    runtime::Tensor& bound(const sdk::partition& p, int id, bool as_image = false) {
        auto t = std::make_unique<runtime::Tensor>(
            runtime_info(p.tensors[static_cast<std::size_t>(id)], as_image));
        t->info().set_resizable(false);
        inputs_.emplace_back(std::move(t), id);
        return *inputs_.back().first;
    }

    /// w' = w * s, b' = (b - mean) * s + shift with s = scale / sqrt(var + eps), per channel.
    void fold_depthwise() {
        const std::int64_t channels = folded_bias_->info().element_count();
        const std::int64_t taps = weights_->info().element_count() / channels;
        const float* w = weights_->data<float>();
        float* fw = folded_weights_->data<float>();
        float* fb = folded_bias_->data<float>();
        for (std::int64_t o = 0; o < channels; ++o) {
            const float gamma = bn_.gamma ? bn_.gamma->data<float>()[o] : 1.0f;
            const float beta = bn_.beta ? bn_.beta->data<float>()[o] : 0.0f;
            const float s = gamma / std::sqrt(bn_.var->data<float>()[o] + bn_.epsilon);
            for (std::int64_t k = 0; k < taps; ++k) fw[o * taps + k] = w[o * taps + k] * s;
            const float b0 = bias_ ? bias_->data<float>()[o] : 0.0f;
            fb[o] = (b0 - bn_.mean->data<float>()[o]) * s + beta;
        }
    }

    sdk::node conv_;
    std::vector<std::pair<std::unique_ptr<runtime::Tensor>, int>>
        inputs_;  // runtime tensor, partition id
    std::vector<int> input_ids_;
    std::unique_ptr<runtime::Tensor> dst_;
    int output_ = -1, scratch_ = -1;
    int residual_ = -1;  ///< partition tensor id of the residual, -1 without one
    const runtime::Tensor* residual_tensor_ = nullptr;
    runtime::BatchNormFold bn_;
    const runtime::Tensor* weights_ = nullptr;
    const runtime::Tensor* bias_ = nullptr;
    std::unique_ptr<runtime::Tensor> folded_weights_, folded_bias_;
    std::unique_ptr<runtime::IFunction> function_;
    bool prepared_ = false;
};

}  // namespace

void state_conv2d(router& r) {
    r.state<op::conv2d>(
        [](const op::conv2d& c, const query_view& v) {
            return answer(conv_route(c, v.q.inputs, v.out[0]), v.in, v.out,
                          reads_nchw(c, v.in) ? 0 : 1);
        },
        [](const op::conv2d& c, const build_context& b) -> std::unique_ptr<step> {
            if (b.chain) return std::make_unique<fused_conv_step>(b, c);
            return routed_step(conv_route(c, b.node.in, b.node.out[0]), b,
                               [&]() -> std::unique_ptr<step> {
                                   if (c.kind() == conv_kind::transposed)
                                       return make_transposed_conv_step(b, c);
                                   if (b.node.in[0].type() == dtype::i16)
                                       return make_fixed_point_conv_step(b, c);
                                   return runtime_conv_step(b, c);
                               });
        },
        &conv_fusion);
}

}  // namespace tessera::plugins::cpu
