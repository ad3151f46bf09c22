// Reorder function: one ReorderKernel on the Context's scheduler.
#include "tessera/cpu/functions/reorder.hpp"

#include "kernels/reorder_kernel.hpp"

namespace tessera::cpu {

struct Reorder::Impl {
    explicit Impl(const Context& c) : ctx(c) {}
    const Context& ctx;
    ReorderKernel kernel;
};

Reorder::Reorder(const Context& ctx) : impl_(std::make_unique<Impl>(ctx)) {}
Reorder::~Reorder() = default;

void Reorder::configure(const ITensor& src, ITensor& dst) {
    impl_->kernel.configure(src, dst);
}

void Reorder::run() {
    impl_->ctx.scheduler().schedule(impl_->kernel);
}

}  // namespace tessera::cpu
