// myriad/runtime.h -- running Myriad-style custom layers (bindings XML + OpenCL C kernels) on any
// OpenCL device: load bindings, create a layer instance for a type, parameters and input shapes,
// run it on cl::Buffers or on host data.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "myriad/bindings.h"
#include "myriad/cl_config.h"
#include "myriad/size_expression.h"

namespace myriad {

/// Element types of tensor arguments, as the kernel signature declares them.
enum class DType { f32, f16, u8, i8, u16, i16, i32, u32 };
const char* to_string(DType type);
std::size_t size_of(DType type);

/// Which arithmetic a layer's kernels actually ran in.
enum class Precision {
    fp16,           ///< half kernels ran as written (device has cl_khr_fp16)
    fp32_promoted,  ///< half kernels ran with half promoted to float (no cl_khr_fp16)
    fp32,           ///< the kernels use no half
};
const char* to_string(Precision precision);

/// Host data: values in logical order of `layout` (BFYX = NCHW order, BYXF = NHWC order).
struct HostTensor {
    Shape shape;  ///< N C H W (fewer dims allowed, right-aligned)
    Layout layout = Layout::BFYX;
    std::vector<float> values;
};

/// A device buffer holding a tensor of `dtype` elements in `layout` memory order.
struct DeviceTensor {
    cl::Buffer buffer;
    Shape shape;
    Layout layout = Layout::BFYX;
    DType dtype = DType::f16;
};

/// Everything that selects and sizes one layer instance.
struct LayerSpec {
    std::string type;                         ///< layer type, e.g. "GRN" (case-insensitive)
    LayerParams params;                       ///< IR parameters, e.g. {"bias", "1.0"}
    std::vector<Shape> input_shapes;          ///< one per input port
    std::vector<Layout> input_layouts;        ///< actual layouts of the inputs (default BFYX each)
    Shape output_shape;                       ///< the layer's one output
    std::map<std::string, HostTensor> blobs;  ///< Data sources, e.g. "weights"
};

class Layer;

/// One OpenCL device plus the bindings loaded for it. Bindings loaded with load_bindings are
/// searched in load order before the shipped standard layers, so a user's XML overrides them.
class Runtime {
  public:
    /// The device_index-th OpenCL device over all platforms.
    explicit Runtime(int device_index = 0);
    Runtime(cl::Context context, cl::Device device, cl::CommandQueue queue);
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    /// Adds the bindings of one XML file (throws xml_error).
    void load_bindings(const std::string& path);
    /// Adds already-parsed bindings (searched like a loaded file).
    void add_bindings(std::vector<CustomLayer> layers);
    /// The shipped standard layers (searched after every user binding). Called by the constructor
    /// when the layers directory exists.
    void load_standard_layers(const std::string& directory = standard_layers_directory());
    static std::string standard_layers_directory();

    /// True when some binding's name matches `type`.
    bool has_binding(const std::string& type) const;
    /// Bindings for `type`, in search order.
    std::vector<const CustomLayer*> bindings_for(const std::string& type) const;

    /// Chooses a binding (Where, evaluable expressions, preferred input layouts), compiles its
    /// kernels and sizes everything. Throws tessera::error naming the layer and argument.
    Layer create_layer(const LayerSpec& spec);

    bool device_has_fp16() const;
    /// Testing aid: promote half to float even on a device with cl_khr_fp16.
    void set_force_half_promotion(bool force);
    /// Where half is promoted: keep __global/__constant half buffers in half, converting in the
    /// kernels' loads and stores (default true; a kernel the rewriting cannot follow has its
    /// buffers converted to float around it instead, as with false).
    void set_keep_half_buffers(bool keep);
    /// Opt-in (default false; applies to layers created afterwards): kernels fused with
    /// __dma_preload_/__dma_postwrite_ companions whose transactions are plain mirrors of global
    /// regions (the body only reads the preloaded buffers and only stores to the postwritten
    /// ones) run the body on the global regions directly, without the copies and their barriers,
    /// in work groups where the copy geometry allows it. Same results; measured slower than the
    /// copies on an H100 and on PoCL (backends/myriad/README.md), hence off.
    void set_dma_direct(bool direct);
    /// Default true (applies to layers created afterwards): the geometry of the work-group DMA
    /// transactions (widths, strides, plane strides, sizes) that the host can compute from the
    /// stage's work sizes and integer scalar arguments, and the work-group size of the copies
    /// where WorkSizes gives it, are compiled into the layer's program as constants. false
    /// compiles one program per kernel source that computes them on the device.
    void set_dma_host_geometry(bool host_geometry);
    std::string device_name() const;

    const cl::Context& context() const;
    const cl::Device& device() const;
    cl::CommandQueue& queue();

    struct State;

  private:
    std::shared_ptr<State> state_;
};

/// One instance of a custom layer, ready to run.
class Layer {
  public:
    Layer();
    ~Layer();
    Layer(Layer&&) noexcept;
    Layer& operator=(Layer&&) noexcept;

    const CustomLayer& binding() const;
    Precision precision() const;
    /// Layout the kernels read input `port` in (a conversion runs when it differs from the actual).
    Layout kernel_input_layout(int port) const;
    /// Layout the output kernel writes.
    Layout kernel_output_layout() const;
    /// True when the chosen binding needed layout conversions of inputs.
    bool converts_input_layouts() const;
    /// Element types expected of the inputs and given to the output (as the kernels declare them).
    DType input_dtype(int port) const;
    DType output_dtype() const;
    /// Conversion kernels each enqueue runs besides the layer's stages (layout or half<->float
    /// conversions of inputs, and of the output when it is wanted in the kernel's layout).
    int conversion_passes() const;
    /// Global and local work sizes of each stage.
    std::vector<std::array<std::size_t, 3>> global_sizes() const;
    std::vector<std::array<std::size_t, 3>> local_sizes() const;

    /// Runs on device buffers; inputs in the layouts the layer was created with, output in its
    /// own layout (any of BFYX/BYXF/FYX/YXF/BF); all of the dtypes above. Enqueued in order on
    /// the runtime's queue (not waited for). One caller at a time per Layer.
    void enqueue(const std::vector<DeviceTensor>& inputs, const DeviceTensor& output);

    /// Replaces the values of the blob `name` (a `Data source=` the layer reads) with those of a
    /// device tensor of the blob's element count, any of the dtypes above, converted on the
    /// device: enqueued on the runtime's queue, no host copy. Later enqueues read the new values.
    void write_blob(const std::string& name, const DeviceTensor& values);

    /// Uploads, runs, waits and downloads; the output comes back in `output_layout`.
    HostTensor run(const std::vector<HostTensor>& inputs, Layout output_layout = Layout::BFYX);

    struct Impl;

  private:
    friend class Runtime;
    std::unique_ptr<Impl> impl_;
};

}  // namespace myriad

/// Process-wide count of Layer::write_blob calls (every layer, every runtime): a diagnostic for
/// callers that keep blobs on the device, e.g. to check that an unchanged blob is not rewritten.
extern "C" unsigned long long myriad_blob_writes(void);
