// layer_impl.h -- the compiled form of one custom layer: kernels with their constant arguments
// set, inter-stage buffers, uploaded blobs, and the conversions around the kernels.
#pragma once

#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "layer_plan.h"
#include "runtime_state.h"

namespace myriad {

struct Layer::Impl {
    Impl(std::shared_ptr<Runtime::State> runtime, LayerSpec spec, LayerPlan plan);

    /// An input as one stage reads it: in `channels_last` order with `device_dtype` elements.
    struct InputView {
        int port = 0;
        bool channels_last = false;
        DType device_dtype = DType::f32;
        bool converted = false;  ///< false: the caller's buffer is used directly
        cl::Buffer scratch;
    };

    /// The element type a buffer the kernels declare as `declared` has on the device.
    DType device_dtype(DType declared) const {
        return promoted && !half_buffers && declared == DType::f16 ? DType::f32 : declared;
    }
    void convert(const cl::Buffer& from, DType from_type, bool from_cl, const cl::Buffer& to,
                 DType to_type, bool to_cl, const Shape& shape);
    std::size_t view_index(int port, Layout format, DType device_type) const;

    std::shared_ptr<Runtime::State> rt;
    LayerSpec spec;
    LayerPlan plan;
    bool promoted = false;
    bool half_buffers = false;  ///< promoted, with __global/__constant half buffers kept in half
    Precision precision = Precision::fp32;
    std::vector<cl::Kernel> kernels;
    std::map<int, cl::Buffer> stage_buffers;
    /// One device copy of a blob per kernel argument reading it (kernels hold their cl_mem
    /// without a reference).
    struct BlobBuffer {
        std::string name;
        cl::Buffer buffer;
        DType device_dtype = DType::f32;
    };
    std::vector<BlobBuffer> blob_buffers;
    std::vector<InputView> views;
    std::vector<DType> input_dtypes;  ///< per port (f32 for ports no Tensor reads)
    std::vector<bool> input_used;
    std::vector<Layout> kernel_input_layouts;
    DType output_dtype = DType::f32;
    DType output_device_dtype = DType::f32;
    Layout output_layout = Layout::BFYX;
    cl::Buffer output_scratch;
};

}  // namespace myriad
