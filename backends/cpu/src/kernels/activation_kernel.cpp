// ActivationKernel: one tensor row per window step.
#include "kernels/activation_kernel.hpp"

#include "kernels/tensor_rows.hpp"
#include "tessera/cpu/error.hpp"

namespace tessera::cpu {

void ActivationKernel::configure(const KernelTable& table, const ITensor& src, ITensor& dst,
                                 const ActivationInfo& act) {
    const char* fn = "ActivationKernel::configure";
    require(src.info().data_type() == DataType::f32, fn, src.info().name(), "needs f32");
    require(dst.info().data_type() == DataType::f32, fn, dst.info().name(), "needs f32");
    require(same_rows(src.info(), dst.info()), fn, dst.info().name(),
            "shape/layout differs from the source");
    table_ = &table;
    src_ = &src;
    dst_ = &dst;
    act_ = act;
    Window win;
    win.set(0, Window::Dimension(0, TensorRows(src.info()).count(), 1));
    configure_window(win, 0, 1);
}

void ActivationKernel::run(const Window& window, const ThreadInfo&) {
    const TensorRows rows(src_->info()), drows(dst_->info());
    const float* s = src_->data<float>();
    float* d = dst_->data<float>();
    for (int64_t r = window[0].start(); r < window[0].end(); ++r)
        table_->activation(s + rows.offset(r), d + drows.offset(r), rows.length(r), act_);
}

}  // namespace tessera::cpu
