// copy_kernels.h -- OpenCL C for strided element copies with type conversion (layout
// conversion, read/write/copy, permute, concat, reshape) and the helpers that launch them.
#pragma once

#include "op.h"

namespace tessera::clml {

extern const char* const kCopyKernelSource;

// Program build config for copying `src` storage to `dst` storage.
KernelConfig copy_config(cl_channel_type src, cl_channel_type dst);

// Range of the copy_rows kernel (one work-item per row of `shape`).
cl::NDRange rows_range(const Shape5& shape);

// Enqueues a strided copy of `shape` elements from src (offset/strides in elements) to dst.
void enqueue_strided_copy(const cl::CommandQueue& queue, const cl::Context& context, cl_mem src,
                          cl_channel_type src_type, int src_offset, const Shape5& src_strides, cl_mem dst,
                          cl_channel_type dst_type, int dst_offset, const Shape5& dst_strides, const Shape5& shape,
                          const std::vector<cl::Event>* wait, cl::Event* done);

}  // namespace tessera::clml
