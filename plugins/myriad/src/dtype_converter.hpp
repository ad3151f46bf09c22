// dtype_converter.hpp: element-type conversion between device buffers (f32, f16, i8, u8, i16, i32
// in any pair), for Tessera tensors whose type differs from what a layer's kernels declare (an
// f32 network running a half custom layer). Half is read and written with vload_half /
// vstore_half_rte, so no cl_khr_fp16 is needed; to integer types: round to nearest even and
// saturate.
#pragma once

#include <map>
#include <mutex>
#include <utility>

#include "myriad/runtime.h"

namespace tessera::plugins::myriad {

class dtype_converter {
  public:
    explicit dtype_converter(::myriad::Runtime& runtime) : runtime_(runtime) {}

    /// Enqueues dst[i] = convert(src[i]) for `count` elements on the runtime's queue.
    void enqueue(const cl::Buffer& src, ::myriad::DType from, const cl::Buffer& dst,
                 ::myriad::DType to, std::size_t count);

  private:
    cl::Kernel kernel(::myriad::DType from, ::myriad::DType to);

    ::myriad::Runtime& runtime_;
    std::mutex mutex_;
    std::map<std::pair<::myriad::DType, ::myriad::DType>, cl::Kernel> kernels_;
};

}  // namespace tessera::plugins::myriad
