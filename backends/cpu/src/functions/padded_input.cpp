// PaddedInput implementation.
#include "functions/padded_input.hpp"

namespace tessera::cpu {

ITensor& PaddedInput::configure(ITensor& src, const PaddingSize& border, MemoryGroup& group,
                                BorderMode mode, float value) {
    ITensor* input = &src;
    copy_.reset();
    const TensorInfo& s = src.info();
    if (s.data_type() != DataType::f32 || !src.info().extend_padding(border)) {
        TensorInfo padded(s.shape(), DataType::f32, s.layout(), {}, s.name() + ".padded");
        padded.extend_padding(border);
        copy_ = std::make_unique<Tensor>(padded);
        group.manage(copy_->allocator());
        copy_kernel_.configure(src, *copy_);
        input = copy_.get();
    }
    fill_needed_ = mode != BorderMode::undefined && !border.empty();
    if (fill_needed_) fill_.configure(*input, border, mode, value);
    return *input;
}

void PaddedInput::end_lifetime() {
    if (copy_) copy_->allocator().allocate();
}

void PaddedInput::run(IScheduler& scheduler) {
    if (copy_) scheduler.schedule(copy_kernel_);
    if (fill_needed_) scheduler.schedule(fill_);
}

}  // namespace tessera::cpu
