// layer.cpp -- compiling a planned custom layer and running it on device buffers or host data.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

#include "half_float.h"
#include "half_storage.h"
#include "kernel_source.h"
#include "layer_impl.h"

namespace myriad {
namespace {

std::atomic<unsigned long long> blob_write_count{0};  ///< Layer::write_blob calls

std::size_t element_count(const Shape& s) {
    std::size_t n = 1;
    for (std::int64_t d : s) n *= static_cast<std::size_t>(d);
    return n;
}

std::array<int, 4> nchw(const Shape& s) {
    std::array<int, 4> out{1, 1, 1, 1};
    for (std::size_t k = 0; k < s.size() && k < 4; ++k)
        out[4 - s.size() + k] = static_cast<int>(s[k]);
    return out;
}

std::vector<unsigned char> to_bytes(const std::vector<float>& values, DType type) {
    std::vector<unsigned char> bytes(values.size() * size_of(type));
    for (std::size_t i = 0; i < values.size(); ++i) {
        const float v = values[i];
        unsigned char* p = bytes.data() + i * size_of(type);
        auto put = [&](auto x) { std::memcpy(p, &x, sizeof x); };
        auto sat = [&](double lo, double hi) {
            const double r = std::nearbyint(static_cast<double>(v));
            return std::isnan(r) ? 0.0 : std::min(hi, std::max(lo, r));
        };
        switch (type) {
            case DType::f32:
                put(v);
                break;
            case DType::f16:
                put(float_to_half(v));
                break;
            case DType::u8:
                put(static_cast<std::uint8_t>(sat(0, 255)));
                break;
            case DType::i8:
                put(static_cast<std::int8_t>(sat(-128, 127)));
                break;
            case DType::u16:
                put(static_cast<std::uint16_t>(sat(0, 65535)));
                break;
            case DType::i16:
                put(static_cast<std::int16_t>(sat(-32768, 32767)));
                break;
            case DType::i32:
                put(static_cast<std::int32_t>(sat(-2147483648.0, 2147483647.0)));
                break;
            case DType::u32:
                put(static_cast<std::uint32_t>(sat(0, 4294967295.0)));
                break;
        }
    }
    return bytes;
}

std::vector<float> from_bytes(const std::vector<unsigned char>& bytes, DType type) {
    const std::size_t n = bytes.size() / size_of(type);
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned char* p = bytes.data() + i * size_of(type);
        auto get = [&](auto x) {
            std::memcpy(&x, p, sizeof x);
            return x;
        };
        switch (type) {
            case DType::f32:
                values[i] = get(0.0f);
                break;
            case DType::f16:
                values[i] = half_to_float(get(std::uint16_t{}));
                break;
            case DType::u8:
                values[i] = get(std::uint8_t{});
                break;
            case DType::i8:
                values[i] = get(std::int8_t{});
                break;
            case DType::u16:
                values[i] = get(std::uint16_t{});
                break;
            case DType::i16:
                values[i] = get(std::int16_t{});
                break;
            case DType::i32:
                values[i] = static_cast<float>(get(std::int32_t{}));
                break;
            case DType::u32:
                values[i] = static_cast<float>(get(std::uint32_t{}));
                break;
        }
    }
    return values;
}

/// The value of a scalar argument (a float source truncated where the binding says int).
double scalar_value(const ArgPlan& a) {
    const ExprValue v = a.scalar;
    return a.scalar_is_float
               ? v.as_double()
               : static_cast<double>(v.is_float ? static_cast<std::int64_t>(v.f) : v.i);
}

/// Sets a scalar kernel argument in the C type the kernel declares.
void set_scalar(cl::Kernel& k, cl_uint index, const ArgPlan& a, bool promoted,
                const std::string& layer) {
    const double d = scalar_value(a);
    const std::string& t = a.decl.scalar_type;
    if (a.decl.vector_width != 1)
        fail(tessera::status::unsupported, layer, a.decl.name,
             "vector scalar arguments are not supported");
    if (t == "float")
        k.setArg(index, static_cast<cl_float>(d));
    else if (t == "double")
        k.setArg(index, static_cast<cl_double>(d));
    else if (t == "half" && promoted)
        k.setArg(index, static_cast<cl_float>(d));
    else if (t == "half")
        k.setArg(index, static_cast<cl_half>(float_to_half(static_cast<float>(d))));
    else if (t == "int")
        k.setArg(index, static_cast<cl_int>(d));
    else if (t == "uint")
        k.setArg(index, static_cast<cl_uint>(d));
    else if (t == "long")
        k.setArg(index, static_cast<cl_long>(d));
    else if (t == "ulong" || t == "size_t")
        k.setArg(index, static_cast<cl_ulong>(d));
    else if (t == "short")
        k.setArg(index, static_cast<cl_short>(d));
    else if (t == "ushort")
        k.setArg(index, static_cast<cl_ushort>(d));
    else if (t == "char")
        k.setArg(index, static_cast<cl_char>(d));
    else if (t == "uchar")
        k.setArg(index, static_cast<cl_uchar>(d));
    else
        fail(tessera::status::unsupported, layer, a.decl.name,
             "scalar argument type '" + t + "' is not supported");
}

/// What every launch of a stage has in common: its work sizes and the integer scalar arguments
/// whose value the declared type holds unchanged.
LaunchConstants launch_constants(const StagePlan& sp) {
    static const std::map<std::string, double> type_limits = {
        {"char", 127.0},        {"uchar", 255.0},       {"short", 32767.0},
        {"ushort", 65535.0},    {"int", 2147483647.0},  {"uint", 2147483647.0},
        {"long", 2147483647.0}, {"ulong", 2147483647.0}};
    LaunchConstants launch;
    launch.global = sp.global;
    if (sp.has_local) launch.local = sp.local;
    for (const ArgPlan& a : sp.args) {
        std::optional<std::int64_t> value;
        const auto limit = type_limits.find(a.decl.scalar_type);
        if (a.kind == ArgKind::scalar && a.decl.vector_width == 1 && limit != type_limits.end()) {
            const double d = scalar_value(a);
            if (d >= 0 && d <= limit->second && d == std::floor(d))
                value = static_cast<std::int64_t>(d);
        }
        launch.integer_args.push_back(value);
    }
    return launch;
}

}  // namespace

Layer::Impl::Impl(std::shared_ptr<Runtime::State> runtime, LayerSpec layer_spec,
                  LayerPlan layer_plan)
    : rt(std::move(runtime)), spec(std::move(layer_spec)), plan(std::move(layer_plan)) {
    const CustomLayer& b = *plan.binding;
    bool any_half = false;
    std::vector<std::string> stripped;
    for (const KernelStage& s : b.stages) {
        stripped.push_back(strip_comments(s.source_text));
        any_half = any_half || uses_half(stripped.back());
    }
    promoted = any_half && (!rt->has_fp16 || rt->force_promotion);
    precision = !any_half ? Precision::fp32 : promoted ? Precision::fp32_promoted : Precision::fp16;
    // The program of each stage: where half is promoted, preferably with the half buffers kept
    // (no conversion passes); when a stage's source cannot be rewritten so or does not build,
    // every stage promotes its buffers too (the stages share their buffers).
    std::vector<std::string> sources;
    std::vector<LaunchConstants> launches;
    for (const StagePlan& sp : plan.stages) launches.push_back(launch_constants(sp));
    auto launch_of = [&](std::size_t stage) {
        return rt->dma_host_geometry ? &launches[stage] : nullptr;
    };
    if (promoted && rt->keep_half_buffers) {
        half_buffers = true;
        for (std::size_t si = 0; si < plan.stages.size(); ++si) {
            const StagePlan& sp = plan.stages[si];
            const auto text = program_text_half_storage(sp.stage->source_text, sp.stage->entry,
                                                        rt->dma_direct, launch_of(si));
            if (!text || !rt->try_program(*text)) {
                half_buffers = false;
                break;
            }
            sources.push_back(*text);
        }
    }
    if (!half_buffers) {
        sources.clear();
        for (std::size_t si = 0; si < plan.stages.size(); ++si)
            sources.push_back(program_text(plan.stages[si].stage->source_text,
                                           plan.stages[si].stage->entry, rt->has_fp16, promoted,
                                           rt->dma_direct, launch_of(si)));
    }
    // Promoted buffers hold floats: twice the bytes the bindings give for half data.
    const std::size_t scale = promoted && !half_buffers ? 2 : 1;

    const std::size_t ports = spec.input_shapes.size();
    input_dtypes.assign(ports, DType::f32);
    input_used.assign(ports, false);
    kernel_input_layouts = spec.input_layouts;
    bool have_output = false;
    for (std::size_t si = 0; si < plan.stages.size(); ++si) {
        StagePlan& sp = plan.stages[si];
        cl::Kernel kernel(rt->program(sources[si], spec.type, sp.stage->entry),
                          sp.stage->entry.c_str());
        // The kernel's own __local variables, read before any argument is set: the value the
        // device reports includes the __local arguments set so far (OpenCL's definition).
        const std::size_t static_local =
            kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(rt->device);
        for (std::size_t ai = 0; ai < sp.args.size(); ++ai) {
            ArgPlan& a = sp.args[ai];
            const cl_uint index = static_cast<cl_uint>(ai);
            switch (a.kind) {
                case ArgKind::input: {
                    const DType declared = dtype_of(a.decl.scalar_type, spec.type, a.decl.name);
                    const auto port = static_cast<std::size_t>(a.index);
                    if (input_used[port] && input_dtypes[port] != declared)
                        fail(tessera::status::invalid_argument, spec.type, a.decl.name,
                             "input " + std::to_string(a.index) + " is read as both " +
                                 to_string(input_dtypes[port]) + " and " + to_string(declared));
                    input_used[port] = true;
                    input_dtypes[port] = declared;
                    const Layout actual = spec.input_layouts[port];
                    const Layout wanted = a.format == Layout::ANY ? actual : a.format;
                    kernel_input_layouts[port] = wanted;
                    const DType dev = device_dtype(declared);
                    if (view_index(a.index, wanted, dev) == views.size()) {
                        InputView v;
                        v.port = a.index;
                        v.channels_last = is_channels_last(wanted);
                        v.device_dtype = dev;
                        v.converted = dev != declared || !same_memory_order(wanted, actual);
                        if (v.converted)
                            v.scratch =
                                cl::Buffer(rt->context, CL_MEM_READ_WRITE,
                                           element_count(spec.input_shapes[port]) * size_of(dev));
                        views.push_back(v);
                    }
                    break;
                }
                case ArgKind::output: {
                    output_dtype = dtype_of(a.decl.scalar_type, spec.type, a.decl.name);
                    output_device_dtype = device_dtype(output_dtype);
                    output_layout = a.format == Layout::ANY
                                        ? (ports > 0 ? spec.input_layouts[0] : Layout::BFYX)
                                        : a.format;
                    have_output = true;
                    break;
                }
                case ArgKind::input_buffer:
                case ArgKind::output_buffer: {
                    auto found = stage_buffers.find(a.index);
                    if (found == stage_buffers.end())
                        stage_buffers.emplace(a.index,
                                              cl::Buffer(rt->context, CL_MEM_READ_WRITE,
                                                         plan.buffer_bytes.at(a.index) * scale));
                    kernel.setArg(index, stage_buffers.at(a.index));
                    break;
                }
                case ArgKind::blob: {
                    const auto blob = spec.blobs.find(a.blob);
                    if (blob == spec.blobs.end())
                        fail(tessera::status::invalid_argument, spec.type, a.decl.name,
                             "the layer has no blob '" + a.blob + "'");
                    const DType dev =
                        device_dtype(dtype_of(a.decl.scalar_type, spec.type, a.decl.name));
                    std::vector<unsigned char> bytes = to_bytes(blob->second.values, dev);
                    if (bytes.empty()) bytes.resize(size_of(dev));
                    cl::Buffer buffer(rt->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                      bytes.size(), bytes.data());
                    kernel.setArg(index, buffer);
                    blob_buffers.push_back(BlobBuffer{a.blob, buffer, dev});
                    break;
                }
                case ArgKind::local:
                    kernel.setArg(index, cl::Local(a.local_bytes * scale));
                    break;
                case ArgKind::scalar:
                    set_scalar(kernel, index, a, promoted, spec.type);
                    break;
            }
        }
        // Local-memory and work-group limits of this device.
        std::size_t local_bytes = static_local;
        for (const ArgPlan& a : sp.args)
            if (a.kind == ArgKind::local) local_bytes += a.local_bytes * scale;
        const std::size_t device_local = rt->device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
        if (local_bytes > device_local)
            fail(tessera::status::unsupported, spec.type, sp.stage->entry,
                 "needs " + std::to_string(local_bytes) +
                     " bytes of local memory per work group, "
                     "the device has " +
                     std::to_string(device_local));
        if (sp.has_local) {
            const std::size_t items = sp.local[0] * sp.local[1] * sp.local[2];
            const std::size_t max_items =
                kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(rt->device);
            if (items > max_items)
                fail(tessera::status::unsupported, spec.type, sp.stage->entry,
                     "work group of " + std::to_string(items) + " items exceeds the device's " +
                         std::to_string(max_items) + " for this kernel");
        }
        kernels.push_back(kernel);
    }
    if (!have_output) fail(tessera::status::invalid_argument, spec.type, "", "no output tensor");
}

std::size_t Layer::Impl::view_index(int port, Layout format, DType device_type) const {
    for (std::size_t i = 0; i < views.size(); ++i)
        if (views[i].port == port && views[i].channels_last == is_channels_last(format) &&
            views[i].device_dtype == device_type)
            return i;
    return views.size();
}

void Layer::Impl::convert(const cl::Buffer& from, DType from_type, bool from_cl,
                          const cl::Buffer& to, DType to_type, bool to_cl, const Shape& shape) {
    cl::Kernel k = rt->converter(from_type, to_type);
    const std::array<int, 4> d = nchw(shape);
    k.setArg(0, from);
    k.setArg(1, to);
    for (cl_uint i = 0; i < 4; ++i) k.setArg(2 + i, d[i]);
    k.setArg(6, static_cast<int>(from_cl));
    k.setArg(7, static_cast<int>(to_cl));
    rt->queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(element_count(shape)));
}

Layer::Layer() = default;
Layer::~Layer() = default;
Layer::Layer(Layer&&) noexcept = default;
Layer& Layer::operator=(Layer&&) noexcept = default;

const CustomLayer& Layer::binding() const {
    return *impl_->plan.binding;
}
Precision Layer::precision() const {
    return impl_->precision;
}
Layout Layer::kernel_input_layout(int port) const {
    return impl_->kernel_input_layouts.at(static_cast<std::size_t>(port));
}
Layout Layer::kernel_output_layout() const {
    return impl_->output_layout;
}
bool Layer::converts_input_layouts() const {
    return !impl_->plan.layouts_match;
}
DType Layer::input_dtype(int port) const {
    return impl_->input_dtypes.at(static_cast<std::size_t>(port));
}
DType Layer::output_dtype() const {
    return impl_->output_dtype;
}
int Layer::conversion_passes() const {
    int passes = 0;
    for (const Impl::InputView& v : impl_->views) passes += v.converted ? 1 : 0;
    return passes + (impl_->output_device_dtype != impl_->output_dtype ? 1 : 0);
}
std::vector<std::array<std::size_t, 3>> Layer::global_sizes() const {
    std::vector<std::array<std::size_t, 3>> out;
    for (const StagePlan& s : impl_->plan.stages) out.push_back(s.global);
    return out;
}
std::vector<std::array<std::size_t, 3>> Layer::local_sizes() const {
    std::vector<std::array<std::size_t, 3>> out;
    for (const StagePlan& s : impl_->plan.stages) out.push_back(s.local);
    return out;
}

void Layer::enqueue(const std::vector<DeviceTensor>& inputs, const DeviceTensor& output) {
    if (!impl_) fail(tessera::status::invalid_argument, "", "", "empty Layer");
    Impl& m = *impl_;
    const std::string& type = m.spec.type;
    if (inputs.size() != m.spec.input_shapes.size())
        fail(tessera::status::invalid_argument, type, "",
             std::to_string(inputs.size()) + " inputs given, the layer was created for " +
                 std::to_string(m.spec.input_shapes.size()));
    auto check = [&](const DeviceTensor& t, const Shape& shape, DType dtype,
                     const std::string& name) {
        if (t.shape != shape)
            fail(tessera::status::invalid_argument, type, name, "shape differs from the layer's");
        if (t.dtype != dtype)
            fail(tessera::status::invalid_argument, type, name,
                 std::string("element type ") + to_string(t.dtype) + ", the kernel takes " +
                     to_string(dtype));
        if (t.layout == Layout::ANY)
            fail(tessera::status::invalid_argument, type, name, "a tensor's layout cannot be ANY");
        if (t.buffer.get() == nullptr ||
            t.buffer.getInfo<CL_MEM_SIZE>() < element_count(shape) * size_of(dtype))
            fail(tessera::status::invalid_argument, type, name, "buffer missing or too small");
    };
    for (std::size_t p = 0; p < inputs.size(); ++p) {
        if (!m.input_used[p]) continue;
        check(inputs[p], m.spec.input_shapes[p], m.input_dtypes[p], "input " + std::to_string(p));
        if (!same_memory_order(inputs[p].layout, m.spec.input_layouts[p]))
            fail(tessera::status::invalid_argument, type, "input " + std::to_string(p),
                 std::string("layout ") + to_string(inputs[p].layout) +
                     " differs from the layout the layer was created for (" +
                     to_string(m.spec.input_layouts[p]) + ")");
    }
    check(output, m.spec.output_shape, m.output_dtype, "output");

    for (Impl::InputView& v : m.views) {
        if (!v.converted) continue;
        const auto p = static_cast<std::size_t>(v.port);
        m.convert(inputs[p].buffer, m.input_dtypes[p], is_channels_last(inputs[p].layout),
                  v.scratch, v.device_dtype, v.channels_last, m.spec.input_shapes[p]);
    }
    const bool direct_output = m.output_device_dtype == m.output_dtype &&
                               same_memory_order(m.output_layout, output.layout);
    if (!direct_output && m.output_scratch.get() == nullptr)
        m.output_scratch =
            cl::Buffer(m.rt->context, CL_MEM_READ_WRITE,
                       element_count(m.spec.output_shape) * size_of(m.output_device_dtype));
    const cl::Buffer& out_buffer = direct_output ? output.buffer : m.output_scratch;

    for (std::size_t si = 0; si < m.plan.stages.size(); ++si) {
        const StagePlan& sp = m.plan.stages[si];
        cl::Kernel& k = m.kernels[si];
        for (std::size_t ai = 0; ai < sp.args.size(); ++ai) {
            const ArgPlan& a = sp.args[ai];
            if (a.kind == ArgKind::output) {
                k.setArg(static_cast<cl_uint>(ai), out_buffer);
            } else if (a.kind == ArgKind::input) {
                const auto p = static_cast<std::size_t>(a.index);
                const Layout wanted = a.format == Layout::ANY ? m.spec.input_layouts[p] : a.format;
                const Impl::InputView& v =
                    m.views[m.view_index(a.index, wanted, m.device_dtype(m.input_dtypes[p]))];
                k.setArg(static_cast<cl_uint>(ai), v.converted ? v.scratch : inputs[p].buffer);
            }
        }
        const cl::NDRange global(sp.global[0], sp.global[1], sp.global[2]);
        const cl::NDRange local =
            sp.has_local ? cl::NDRange(sp.local[0], sp.local[1], sp.local[2]) : cl::NullRange;
        try {
            m.rt->queue.enqueueNDRangeKernel(k, cl::NullRange, global, local);
        } catch (const cl::Error& e) {
            fail(tessera::status::backend_failure, type, sp.stage->entry,
                 std::string(e.what()) + " failed with OpenCL error " + std::to_string(e.err()));
        }
    }
    if (!direct_output)
        m.convert(m.output_scratch, m.output_device_dtype, is_channels_last(m.output_layout),
                  output.buffer, m.output_dtype, is_channels_last(output.layout),
                  m.spec.output_shape);
}

void Layer::write_blob(const std::string& name, const DeviceTensor& values) {
    if (!impl_) fail(tessera::status::invalid_argument, "", "", "empty Layer");
    Impl& m = *impl_;
    const auto blob = m.spec.blobs.find(name);
    if (blob == m.spec.blobs.end())
        fail(tessera::status::invalid_argument, m.spec.type, name,
             "the layer has no blob '" + name + "'");
    const std::size_t count = element_count(blob->second.shape);
    if (element_count(values.shape) != count)
        fail(tessera::status::invalid_argument, m.spec.type, name,
             std::to_string(element_count(values.shape)) + " values for a blob of " +
                 std::to_string(count));
    if (values.buffer.get() == nullptr ||
        values.buffer.getInfo<CL_MEM_SIZE>() < count * size_of(values.dtype))
        fail(tessera::status::invalid_argument, m.spec.type, name, "buffer missing or too small");
    blob_write_count.fetch_add(1, std::memory_order_relaxed);
    if (count == 0) return;
    // Element order is the blob's own: a flat conversion (no layout change).
    for (const Impl::BlobBuffer& b : m.blob_buffers)
        if (b.name == name)
            m.convert(values.buffer, values.dtype, false, b.buffer, b.device_dtype, false,
                      Shape{static_cast<std::int64_t>(count)});
}

HostTensor Layer::run(const std::vector<HostTensor>& inputs, Layout output_layout) {
    if (!impl_) fail(tessera::status::invalid_argument, "", "", "empty Layer");
    Impl& m = *impl_;
    if (inputs.size() != m.spec.input_shapes.size())
        fail(tessera::status::invalid_argument, m.spec.type, "",
             std::to_string(inputs.size()) + " inputs given, the layer was created for " +
                 std::to_string(m.spec.input_shapes.size()));
    std::vector<DeviceTensor> device_inputs;
    for (std::size_t p = 0; p < inputs.size(); ++p) {
        const HostTensor& h = inputs[p];
        DeviceTensor d;
        d.shape = h.shape;
        d.layout = h.layout;
        d.dtype = m.input_dtypes[p];
        if (h.values.size() != element_count(h.shape))
            fail(tessera::status::invalid_argument, m.spec.type, "input " + std::to_string(p),
                 std::to_string(h.values.size()) + " values for a shape of " +
                     std::to_string(element_count(h.shape)) + " elements");
        if (m.input_used[p]) {
            std::vector<unsigned char> bytes = to_bytes(h.values, d.dtype);
            d.buffer = cl::Buffer(m.rt->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  bytes.size(), bytes.data());
        }
        device_inputs.push_back(std::move(d));
    }
    DeviceTensor out;
    out.shape = m.spec.output_shape;
    out.layout = output_layout;
    out.dtype = m.output_dtype;
    const std::size_t out_bytes = element_count(out.shape) * size_of(out.dtype);
    out.buffer = cl::Buffer(m.rt->context, CL_MEM_READ_WRITE, out_bytes);
    enqueue(device_inputs, out);
    std::vector<unsigned char> bytes(out_bytes);
    m.rt->queue.enqueueReadBuffer(out.buffer, CL_TRUE, 0, out_bytes, bytes.data());
    HostTensor result;
    result.shape = out.shape;
    result.layout = output_layout;
    result.values = from_bytes(bytes, out.dtype);
    return result;
}

}  // namespace myriad

extern "C" unsigned long long myriad_blob_writes(void) {
    return myriad::blob_write_count.load(std::memory_order_relaxed);
}
