// ops/bound_views.hpp: plain runtime tensors over memory a step points them at on every run (a
// node's buffer seen with other dims, one stack of it, or a buffer the step owns), for steps
// that configure runtime functions on views rather than on the node's tensors as they are.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <tessera/cpu/tensor.hpp>

namespace tessera::plugins::cpu {

/// A plain tensor of `dims` and `type` (zero point `offset`) whose memory is bound later.
inline std::unique_ptr<runtime::Tensor> bound_view(std::vector<std::int64_t> dims,
                                                   runtime::DataType type = runtime::DataType::f32,
                                                   std::int32_t offset = 0) {
    auto t = std::make_unique<runtime::Tensor>(
        runtime::TensorInfo(std::move(dims), type, runtime::DataLayout::plain,
                            runtime::QuantizationInfo{1.0f, offset}));
    t->info().set_resizable(false);
    return t;
}

/// Points the view `t` at `memory`.
inline void bind_view(runtime::Tensor& t, const void* memory) {
    t.allocator().import_memory(const_cast<void*>(memory), t.info().total_size_in_bytes());
}

}  // namespace tessera::plugins::cpu
