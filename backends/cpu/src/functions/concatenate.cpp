// Concatenate: sub-tensor views for zero-copy producers, or copies of separate inputs into them.
#include "tessera/cpu/functions/concatenate.hpp"

#include "kernels/reorder_kernel.hpp"
#include "tessera/cpu/error.hpp"

namespace tessera::cpu {

struct Concatenate::Impl {
    explicit Impl(const Context& c) : ctx(c) {}
    const Context& ctx;
    std::vector<std::unique_ptr<SubTensor>> slices;
    std::vector<std::unique_ptr<ReorderKernel>> copies;
};

Concatenate::Concatenate(const Context& ctx) : impl_(std::make_unique<Impl>(ctx)) {}
Concatenate::~Concatenate() = default;

std::vector<std::unique_ptr<SubTensor>> Concatenate::views(ITensor& dst,
                                                           const std::vector<int64_t>& sizes) {
    const TensorInfo& d = dst.info();
    const int axis = d.is_4d_layout() ? 1 : 0;
    int64_t total = 0;
    for (int64_t s : sizes) total += s;
    require(d.rank() > axis && total == d.dim(axis), "Concatenate::views", d.name(),
            "slice sizes add up to " + std::to_string(total) + ", not " +
                std::to_string(d.rank() > axis ? d.dim(axis) : 0));
    std::vector<std::unique_ptr<SubTensor>> out;
    int64_t start = 0;
    for (int64_t s : sizes) {
        std::vector<int64_t> shape = d.shape(), coords(shape.size(), 0);
        shape[static_cast<std::size_t>(axis)] = s;
        coords[static_cast<std::size_t>(axis)] = start;
        out.push_back(std::make_unique<SubTensor>(dst, shape, coords));
        start += s;
    }
    return out;
}

void Concatenate::configure(const std::vector<const ITensor*>& inputs, ITensor& dst) {
    Impl& m = *impl_;
    const int axis = dst.info().is_4d_layout() ? 1 : 0;
    std::vector<int64_t> sizes;
    for (const ITensor* in : inputs) {
        require(in != nullptr && in->info().rank() == dst.info().rank(), "Concatenate::configure",
                in ? in->info().name() : "", "input rank differs from the output's");
        sizes.push_back(in->info().dim(axis));
    }
    m.slices = views(dst, sizes);
    m.copies.clear();
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        m.copies.push_back(std::make_unique<ReorderKernel>());
        m.copies.back()->configure(*inputs[i], *m.slices[i]);
    }
}

void Concatenate::run() {
    for (auto& k : impl_->copies) impl_->ctx.scheduler().schedule(*k);
}

}  // namespace tessera::cpu
