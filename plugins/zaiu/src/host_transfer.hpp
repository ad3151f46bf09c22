// host_transfer.hpp: moving tensors between plain host memory and zaiu sticks through the
// public zDNN transforms (zdnn_transform_ztensor_with_saturation / zdnn_transform_origtensor).
// Host tensors may have any strides and any dtype; the stick side is described by a zaiu
// opaque descriptor (stick_format.hpp).
#pragma once

#include "tessera/tensor.hpp"

namespace tessera::plugins::zaiu {

/// Transforms `src` (logical dims of dst_desc) into the sticks at `sticks` (4 KiB aligned,
/// dst_desc.size_bytes() long).
void stickify(const tessera::tensor& src, const tessera::tensor_desc& dst_desc, void* sticks,
              std::int64_t capacity);

/// Transforms the sticks described by src_desc back into the host tensor `dst`.
void unstickify(const void* sticks, std::int64_t capacity, const tessera::tensor_desc& src_desc,
                const tessera::tensor& dst);

/// Converts between two zaiu layouts of one logical tensor (exact: DLFLOAT16 -> fp32 -> DLFLOAT16).
void restick(const void* src, std::int64_t src_capacity, const tessera::tensor_desc& src_desc,
             void* dst, std::int64_t dst_capacity, const tessera::tensor_desc& dst_desc);

}  // namespace tessera::plugins::zaiu
