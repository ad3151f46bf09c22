// ElementwiseBinary, Softmax, BatchNormalization and Permute: thin functions over one kernel each.
#include "tessera/cpu/functions/elementwise.hpp"

#include <cmath>

#include "kernels/tensor_kernels.hpp"
#include "tessera/cpu/error.hpp"
#include "tessera/cpu/functions/batch_norm.hpp"
#include "tessera/cpu/functions/permute.hpp"
#include "tessera/cpu/functions/softmax.hpp"

namespace tessera::cpu {

struct ElementwiseBinary::Impl {
    explicit Impl(const Context& c) : ctx(c) {}
    const Context& ctx;
    BinaryKernel kernel;
};

ElementwiseBinary::ElementwiseBinary(const Context& ctx) : impl_(std::make_unique<Impl>(ctx)) {}
ElementwiseBinary::~ElementwiseBinary() = default;

std::vector<int64_t> ElementwiseBinary::output_shape(const TensorInfo& a, const TensorInfo& b) {
    return BinaryKernel::broadcast_shape(a, b);
}

void ElementwiseBinary::configure(const ITensor& a, const ITensor& b, ITensor& dst,
                                  ElementwiseOp op) {
    impl_->kernel.configure(impl_->ctx.kernels(), a, b, dst, static_cast<BinaryOp>(op));
}

void ElementwiseBinary::run() {
    impl_->ctx.scheduler().schedule(impl_->kernel);
}

struct Softmax::Impl {
    explicit Impl(const Context& c) : ctx(c) {}
    const Context& ctx;
    SoftmaxKernel kernel;
};

Softmax::Softmax(const Context& ctx) : impl_(std::make_unique<Impl>(ctx)) {}
Softmax::~Softmax() = default;

void Softmax::configure(const ITensor& src, ITensor& dst, float beta, bool log) {
    impl_->kernel.configure(impl_->ctx.kernels(), src, dst, beta, log);
}

void Softmax::run() {
    impl_->ctx.scheduler().schedule(impl_->kernel);
}

struct BatchNormalization::Impl {
    explicit Impl(const Context& c) : ctx(c) {}
    const Context& ctx;
    BatchNormKernel kernel;
    const ITensor *mean = nullptr, *var = nullptr, *gamma = nullptr, *beta = nullptr;
    float epsilon = 0.0f;
    int64_t channels = 0;
    std::vector<float> scale, shift;
    bool prepared = false;
};

BatchNormalization::BatchNormalization(const Context& ctx) : impl_(std::make_unique<Impl>(ctx)) {}
BatchNormalization::~BatchNormalization() = default;

void BatchNormalization::configure(const ITensor& src, ITensor& dst, const ITensor& mean,
                                   const ITensor& var, const ITensor* gamma, const ITensor* beta,
                                   float epsilon, const ActivationInfo& act) {
    Impl& m = *impl_;
    const char* fn = "BatchNormalization::configure";
    require(src.info().is_4d_layout(), fn, src.info().name(), "needs a 4-D layout");
    const int64_t c = src.info().c();
    for (const ITensor* t : {&mean, &var, gamma, beta})
        if (t)
            require(t->info().data_type() == DataType::f32 && t->info().element_count() == c, fn,
                    t->info().name(), "parameters must be f32 with C elements");
    require(epsilon >= 0.0f, fn, "", "epsilon must be non-negative");
    m.mean = &mean;
    m.var = &var;
    m.gamma = gamma;
    m.beta = beta;
    m.epsilon = epsilon;
    m.channels = c;
    const std::size_t padded =
        static_cast<std::size_t>((c + kChannelBlock - 1) / kChannelBlock * kChannelBlock);
    m.scale.assign(padded, 0.0f);
    m.shift.assign(padded, 0.0f);
    m.kernel.configure(m.ctx.kernels(), src, dst, m.scale.data(), m.shift.data(), act);
    m.prepared = false;
}

void BatchNormalization::prepare() {
    Impl& m = *impl_;
    if (m.prepared) return;
    for (int64_t i = 0; i < m.channels; ++i) {
        const float g = m.gamma ? m.gamma->data<float>()[i] : 1.0f;
        const float b = m.beta ? m.beta->data<float>()[i] : 0.0f;
        const float s = g / std::sqrt(m.var->data<float>()[i] + m.epsilon);
        m.scale[static_cast<std::size_t>(i)] = s;
        m.shift[static_cast<std::size_t>(i)] = b - m.mean->data<float>()[i] * s;
    }
    m.prepared = true;
}

void BatchNormalization::run() {
    prepare();
    impl_->ctx.scheduler().schedule(impl_->kernel);
}

struct Permute::Impl {
    explicit Impl(const Context& c) : ctx(c) {}
    const Context& ctx;
    PermuteKernel kernel;
};

Permute::Permute(const Context& ctx) : impl_(std::make_unique<Impl>(ctx)) {}
Permute::~Permute() = default;

std::vector<int64_t> Permute::output_shape(const TensorInfo& src, const std::vector<int>& perm) {
    require(static_cast<int>(perm.size()) == src.rank(), "Permute::output_shape", src.name(),
            "permutation rank mismatch");
    std::vector<int64_t> out;
    for (int p : perm) {
        require(p >= 0 && p < src.rank(), "Permute::output_shape", src.name(),
                "permutation index out of range");
        out.push_back(src.dim(p));
    }
    return out;
}

void Permute::configure(const ITensor& src, ITensor& dst, const std::vector<int>& perm) {
    impl_->kernel.configure(src, dst, perm);
}

void Permute::run() {
    impl_->ctx.scheduler().schedule(impl_->kernel);
}

}  // namespace tessera::cpu
