// layouts.hpp: how Tessera tensors meet Myriad custom layers. A tensor of rank 1 to 4 is a layer
// port of the same dims (right-aligned: N C H W), stored row-major, i.e. the layer's BFYX order;
// rank 0 is a one-element tensor. Element types map to the kernel types the runtime converts
// between (f32, f16, i8, u8, i16, i32).
#pragma once

#include <optional>
#include <string>

#include "myriad/runtime.h"
#include "tessera/tensor_desc.hpp"

namespace tessera::plugins::myriad {

inline constexpr const char* backend_name = "myriad";

/// The kernel element type of a Tessera dtype, or nullopt (bf16, dlfloat16, bool).
std::optional<::myriad::DType> kernel_dtype(dtype t);

/// The layer shape of a tensor (rank 0 -> {1}); nullopt with `why` above rank 4.
std::optional<::myriad::Shape> layer_shape(const tensor_desc& d, std::string* why = nullptr);

/// Whether the tensor is dense row-major from offset 0 (the only layout the plugin's buffers hold).
bool is_dense_row_major(const tensor_desc& d);

/// The descriptor made dense row-major (what the plugin answers for "any" and strided requests).
tensor_desc row_major(const tensor_desc& d);

}  // namespace tessera::plugins::myriad
