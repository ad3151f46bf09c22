// Activation function: one ActivationKernel on the Context's scheduler.
#include "tessera/cpu/functions/activation.hpp"

#include "kernels/activation_kernel.hpp"

namespace tessera::cpu {

struct Activation::Impl {
    explicit Impl(const Context& c) : ctx(c) {}
    const Context& ctx;
    ActivationKernel kernel;
};

Activation::Activation(const Context& ctx) : impl_(std::make_unique<Impl>(ctx)) {}
Activation::~Activation() = default;

void Activation::configure(const ITensor& src, ITensor& dst, const ActivationInfo& act) {
    impl_->kernel.configure(impl_->ctx.kernels(), src, dst, act);
}

void Activation::run() {
    impl_->ctx.scheduler().schedule(impl_->kernel);
}

}  // namespace tessera::cpu
