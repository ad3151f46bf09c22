// fused_step.cpp: configuring one runtime convolution for a fused chain, and running it safely
// when the memory plan gave the chain's output the buffer of one of its (then dead) inputs.
#include "fused_step.hpp"

#include <cmath>
#include <cstring>

#include <tessera/cpu/functions/conv2d.hpp>
#include <tessera/cpu/functions/depthwise_conv2d.hpp>

#include "blocked_layout.hpp"
#include "op_mapping.hpp"

namespace tessera::cpu_plugin {

namespace {

bool overlaps(sdk::buffer& a, sdk::buffer& b) {
    const auto* pa = static_cast<const unsigned char*>(a.host_data());
    const auto* pb = static_cast<const unsigned char*>(b.host_data());
    return pa < pb + b.size() && pb < pa + a.size();
}

class fused_conv_step final : public step {
  public:
    fused_conv_step(const sdk::partition& p, const conv_chain& chain, const cpu::Context& ctx,
                    const std::shared_ptr<cpu::MemoryManager>& memory)
        : conv_(p.nodes[static_cast<std::size_t>(chain.conv)]) {
        const auto& c = *conv_.op.get_if<op::conv2d>();
        const tensor_desc& src_desc = p.tensors[static_cast<std::size_t>(conv_.inputs[0])];
        const tensor_desc& w_desc = p.tensors[static_cast<std::size_t>(conv_.inputs[1])];
        cpu::Tensor& src = bound(p, conv_.inputs[0]);
        cpu::Tensor& weights = bound(p, conv_.inputs[1]);
        cpu::Tensor* bias = c.has_bias ? &bound(p, conv_.inputs[2]) : nullptr;
        output_ = p.nodes[static_cast<std::size_t>(chain.last())].outputs[0];
        scratch_ = conv_.outputs[0];
        dst_ = std::make_unique<cpu::Tensor>(
            runtime_info(p.tensors[static_cast<std::size_t>(output_)]));
        dst_->info().set_resizable(false);

        cpu::ActivationInfo act;
        if (chain.batchnorm >= 0) {
            const sdk::node& n = p.nodes[static_cast<std::size_t>(chain.batchnorm)];
            const auto& bn = *n.op.get_if<op::batchnorm>();
            to_runtime(bn.activation, act);
            const bool affine = n.inputs.size() >= 5;
            bn_ = cpu::BatchNormFold{&bound(p, n.inputs[1]), &bound(p, n.inputs[2]),
                                     affine ? &bound(p, n.inputs[3]) : nullptr,
                                     affine ? &bound(p, n.inputs[4]) : nullptr, bn.epsilon};
        }
        if (chain.activation >= 0)
            to_runtime(p.nodes[static_cast<std::size_t>(chain.activation)]
                           .op.get_if<op::activation>()
                           ->act,
                       act);

        const cpu::Conv2dGeometry geo = runtime_geometry(c, src_desc, w_desc);
        const auto g = c.geometry(src_desc, w_desc);
        if (geo.groups == g.c &&
            g.o == g.c) {  // depthwise: batch-norm folded here, not by the runtime
            cpu::DepthwiseConv2dInfo info;
            info.geometry = geo;
            info.activation = act;
            const cpu::Tensor* used_bias = bias;
            const cpu::Tensor* used_weights = &weights;
            if (chain.batchnorm >= 0) {
                folded_weights_ = std::make_unique<cpu::Tensor>(weights.info());
                folded_weights_->allocator().allocate();
                folded_bias_ = std::make_unique<cpu::Tensor>(
                    cpu::TensorInfo({g.o}, cpu::DataType::f32, cpu::DataLayout::plain));
                folded_bias_->allocator().allocate();
                used_weights = folded_weights_.get();
                used_bias = folded_bias_.get();
            }
            auto f = std::make_unique<cpu::DepthwiseConv2d>(ctx, memory);
            f->configure(src, *used_weights, used_bias, *dst_, info);
            function_ = std::move(f);
        } else {
            cpu::Conv2dInfo info;
            info.geometry = geo;
            info.activation = act;
            if (chain.batchnorm >= 0) info.batch_norm = &bn_;
            auto f = std::make_unique<cpu::Conv2d>(ctx, memory);
            f->configure(src, weights, bias, *dst_, info);
            function_ = std::move(f);
        }
        bias_ = bias;
        weights_ = &weights;
        for (const auto& in : inputs_) input_ids_.push_back(in.second);
    }

    void run(const std::vector<sdk::buffer*>& b) override {
        for (auto& [t, id] : inputs_)
            t->allocator().import_memory(b[static_cast<std::size_t>(id)]->host_data(),
                                         size_of(*b[static_cast<std::size_t>(id)]));
        // The output may share a buffer with an input that is dead after the chain; then the
        // convolution writes into its own (otherwise unused) output buffer and is copied over.
        sdk::buffer& out = *b[static_cast<std::size_t>(output_)];
        bool aliased = false;
        for (int id : input_ids_)
            aliased = aliased || overlaps(out, *b[static_cast<std::size_t>(id)]);
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

    /// A runtime tensor over partition tensor `id`, bound to its buffer on every run.
    cpu::Tensor& bound(const sdk::partition& p, int id) {
        auto t =
            std::make_unique<cpu::Tensor>(runtime_info(p.tensors[static_cast<std::size_t>(id)]));
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
    std::vector<std::pair<std::unique_ptr<cpu::Tensor>, int>>
        inputs_;  // runtime tensor, partition id
    std::vector<int> input_ids_;
    std::unique_ptr<cpu::Tensor> dst_;
    int output_ = -1, scratch_ = -1;
    cpu::BatchNormFold bn_;
    const cpu::Tensor* weights_ = nullptr;
    const cpu::Tensor* bias_ = nullptr;
    std::unique_ptr<cpu::Tensor> folded_weights_, folded_bias_;
    std::unique_ptr<cpu::IFunction> function_;
    bool prepared_ = false;
};

}  // namespace

std::unique_ptr<step> make_fused_step(const sdk::partition& p, const conv_chain& chain,
                                      const cpu::Context& ctx,
                                      const std::shared_ptr<cpu::MemoryManager>& memory) {
    return std::make_unique<fused_conv_step>(p, chain, ctx, memory);
}

}  // namespace tessera::cpu_plugin
