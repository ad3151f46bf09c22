// PaddedInput: gives a neighbourhood function an f32 input with the border it needs. Grows the
// caller's tensor padding when still possible (no copy); otherwise copies (and converts f16/bf16)
// into a padded temporary managed by the function's memory group. Fills the border every run.
#pragma once

#include <memory>

#include "kernels/fill_border_kernel.hpp"
#include "kernels/reorder_kernel.hpp"
#include "tessera/cpu/memory.hpp"
#include "tessera/cpu/scheduler.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

class PaddedInput {
  public:
    /// Returns the tensor the kernels read. `mode` undefined leaves the border as it is.
    ITensor& configure(ITensor& src, const PaddingSize& border, MemoryGroup& group, BorderMode mode,
                       float value = 0.0f);
    /// Ends the temporary's lifetime; call once every kernel reading it is configured.
    void end_lifetime();
    void run(IScheduler& scheduler);

  private:
    std::unique_ptr<Tensor> copy_;
    ReorderKernel copy_kernel_;
    FillBorderKernel fill_;
    bool fill_needed_ = false;
};

}  // namespace tessera::cpu
