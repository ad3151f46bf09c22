// runtime.cpp -- device selection, bindings registry, program cache and the binding choice.
#include <dirent.h>
#include <sys/stat.h>
#include <algorithm>
#include <cstdlib>

#include "kernel_source.h"
#include "layer_impl.h"
#include "runtime_state.h"
#include "text_utils.h"

#ifndef MYRIAD_STANDARD_LAYERS_DIR
#define MYRIAD_STANDARD_LAYERS_DIR ""
#endif

namespace myriad {

const char* to_string(DType type) {
    switch (type) {
        case DType::f32:
            return "float";
        case DType::f16:
            return "half";
        case DType::u8:
            return "uchar";
        case DType::i8:
            return "char";
        case DType::u16:
            return "ushort";
        case DType::i16:
            return "short";
        case DType::i32:
            return "int";
        case DType::u32:
            return "uint";
    }
    return "?";
}

std::size_t size_of(DType type) {
    switch (type) {
        case DType::u8:
        case DType::i8:
            return 1;
        case DType::f16:
        case DType::u16:
        case DType::i16:
            return 2;
        default:
            return 4;
    }
}

const char* to_string(Precision precision) {
    switch (precision) {
        case Precision::fp16:
            return "fp16";
        case Precision::fp32_promoted:
            return "fp32 (half promoted to float)";
        case Precision::fp32:
            return "fp32";
    }
    return "?";
}

namespace {

const char* cl_type(DType t) {
    return t == DType::f16 ? "half" : to_string(t);
}

std::string converter_source(DType from, DType to) {
    std::string s = "__kernel void myriad_convert(__global const ";
    const bool same = from == to;
    const std::string src_t = same && from == DType::f16 ? "ushort" : cl_type(from);
    const std::string dst_t = same && to == DType::f16 ? "ushort" : cl_type(to);
    s += src_t + "* src, __global " + dst_t +
         "* dst, int N, int C, int H, int W, int src_cl, int dst_cl) {\n"
         "  const size_t i = get_global_id(0);\n"
         "  const size_t w = i % W, h = (i / W) % H, c = (i / ((size_t)W * H)) % C, "
         "n = i / ((size_t)W * H * C);\n"
         "  const size_t cl_index = ((n * H + h) * W + w) * C + c;\n"
         "  const size_t si = src_cl ? cl_index : i, di = dst_cl ? cl_index : i;\n";
    if (same) {
        s += "  dst[di] = src[si];\n";
    } else {
        s += from == DType::f16 ? "  const float v = vload_half(si, src);\n"
                                : "  const float v = (float)src[si];\n";
        if (to == DType::f16)
            s += "  vstore_half(v, di, dst);\n";
        else if (to == DType::f32)
            s += "  dst[di] = v;\n";
        else
            s += std::string("  dst[di] = convert_") + cl_type(to) + "_sat_rte(v);\n";
    }
    s += "}\n";
    return s;
}

std::string standard_dir() {
    return MYRIAD_STANDARD_LAYERS_DIR;
}

bool is_directory(const std::string& path) {
    struct stat st {};
    return !path.empty() && stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

/// NVIDIA's own driver (its platform, or the extension that names its -cl-nv-* options); not
/// PoCL's CUDA device, which reports NVIDIA as its vendor too.
bool has_nv_compiler_options(const cl::Device& device) {
    if (device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_nv_compiler_options") != std::string::npos)
        return true;
    const cl::Platform platform(device.getInfo<CL_DEVICE_PLATFORM>());
    return platform.getInfo<CL_PLATFORM_NAME>() == "NVIDIA CUDA";
}

}  // namespace

std::string Runtime::State::build_options(const std::string& source) const {
    return nv_compiler_options && has_fused_companions(source) ? "-cl-nv-maxrregcount=32" : "";
}

cl::Program Runtime::State::program(const std::string& source, const std::string& layer,
                                    const std::string& entry) {
    std::lock_guard<std::mutex> lock(programs_mutex);
    const auto found = programs.find(source);
    if (found != programs.end()) return found->second;
    cl::Program program(context, source);
    try {
        program.build({device}, build_options(source).c_str());
    } catch (const cl::Error&) {
        std::string log;
        try {
            log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
        } catch (const cl::Error&) {
        }
        if (log.size() > 4000) log = log.substr(0, 4000) + "...";
        fail(tessera::status::backend_failure, layer, entry,
             "OpenCL C build failed on " + device.getInfo<CL_DEVICE_NAME>() + ":\n" + log);
    }
    programs.emplace(source, program);
    return program;
}

std::optional<cl::Program> Runtime::State::try_program(const std::string& source) {
    std::lock_guard<std::mutex> lock(programs_mutex);
    const auto found = programs.find(source);
    if (found != programs.end()) return found->second;
    if (failed_programs.count(source)) return std::nullopt;
    cl::Program program(context, source);
    try {
        program.build({device}, build_options(source).c_str());
    } catch (const cl::Error&) {
        failed_programs.insert(source);
        return std::nullopt;
    }
    programs.emplace(source, program);
    return program;
}

cl::Kernel Runtime::State::converter(DType from, DType to) {
    return cl::Kernel(program(converter_source(from, to), "conversion", "myriad_convert"),
                      "myriad_convert");
}

Runtime::Runtime(int device_index) : state_(std::make_shared<State>()) {
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    std::vector<cl::Device> all;
    for (const cl::Platform& p : platforms) {
        std::vector<cl::Device> devices;
        try {
            p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
        } catch (const cl::Error&) {
            continue;
        }
        all.insert(all.end(), devices.begin(), devices.end());
    }
    if (device_index < 0 || device_index >= static_cast<int>(all.size()))
        fail(tessera::status::not_found, "", "",
             "OpenCL device " + std::to_string(device_index) + " not found (" +
                 std::to_string(all.size()) + " device(s))");
    state_->device = all[static_cast<std::size_t>(device_index)];
    state_->context = cl::Context(state_->device);
    state_->queue = cl::CommandQueue(state_->context, state_->device);
    state_->has_fp16 =
        state_->device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_fp16") != std::string::npos;
    state_->nv_compiler_options = has_nv_compiler_options(state_->device);
    if (is_directory(standard_layers_directory())) load_standard_layers();
}

Runtime::Runtime(cl::Context context, cl::Device device, cl::CommandQueue queue)
    : state_(std::make_shared<State>()) {
    state_->context = std::move(context);
    state_->device = std::move(device);
    state_->queue = std::move(queue);
    state_->has_fp16 =
        state_->device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_fp16") != std::string::npos;
    state_->nv_compiler_options = has_nv_compiler_options(state_->device);
    if (is_directory(standard_layers_directory())) load_standard_layers();
}

Runtime::~Runtime() = default;

void Runtime::load_bindings(const std::string& path) {
    add_bindings(parse_bindings_file(path));
}

void Runtime::add_bindings(std::vector<CustomLayer> layers) {
    for (CustomLayer& l : layers) state_->user_layers.push_back(std::move(l));
}

std::string Runtime::standard_layers_directory() {
    if (const char* env = std::getenv("MYRIAD_STANDARD_LAYERS")) return env;
    return standard_dir();
}

void Runtime::load_standard_layers(const std::string& directory) {
    std::vector<std::string> files;
    if (DIR* dir = opendir(directory.c_str())) {
        while (const dirent* entry = readdir(dir)) {
            const std::string name = entry->d_name;
            if (name.size() > 4 && name.compare(name.size() - 4, 4, ".xml") == 0)
                files.push_back(directory + "/" + name);
        }
        closedir(dir);
    } else {
        fail(tessera::status::not_found, "", "", "cannot open the layers directory " + directory);
    }
    std::sort(files.begin(), files.end());
    state_->standard_layers.clear();
    for (const std::string& f : files)
        for (CustomLayer& l : parse_bindings_file(f))
            state_->standard_layers.push_back(std::move(l));
}

bool Runtime::has_binding(const std::string& type) const {
    return !bindings_for(type).empty();
}

std::vector<const CustomLayer*> Runtime::bindings_for(const std::string& type) const {
    std::vector<const CustomLayer*> found;
    for (const auto* list : {&state_->user_layers, &state_->standard_layers})
        for (const CustomLayer& l : *list)
            if (iequals(l.name, type)) found.push_back(&l);
    return found;
}

Layer Runtime::create_layer(const LayerSpec& given) {
    LayerSpec spec = given;
    if (spec.input_layouts.size() > spec.input_shapes.size())
        fail(tessera::status::invalid_argument, spec.type, "",
             "more input layouts than input shapes");
    spec.input_layouts.resize(spec.input_shapes.size(), Layout::BFYX);
    auto check_shape = [&](const Shape& s, const std::string& name) {
        if (s.empty() || s.size() > 4)
            fail(tessera::status::invalid_argument, spec.type, name,
                 "shape has " + std::to_string(s.size()) + " dims (1 to 4 allowed)");
        for (std::int64_t d : s)
            if (d <= 0 || d > (std::int64_t{1} << 31))
                fail(tessera::status::invalid_argument, spec.type, name,
                     "dimension " + std::to_string(d) + " out of range");
    };
    for (std::size_t i = 0; i < spec.input_shapes.size(); ++i) {
        check_shape(spec.input_shapes[i], "input " + std::to_string(i));
        if (spec.input_layouts[i] == Layout::ANY)
            fail(tessera::status::invalid_argument, spec.type, "input " + std::to_string(i),
                 "an actual layout cannot be ANY");
    }
    check_shape(spec.output_shape, "output");

    const std::vector<const CustomLayer*> candidates = bindings_for(spec.type);
    if (candidates.empty())
        fail(tessera::status::not_found, spec.type, "", "no custom layer binding for this type");
    std::vector<LayerPlan> suitable;
    std::string reasons;
    for (const CustomLayer* c : candidates) {
        const std::string where = c->file + ":" + std::to_string(c->line);
        if (!where_holds(c->where, spec.params)) {
            reasons += "\n  " + where + ": its Where does not hold";
            continue;
        }
        try {
            suitable.push_back(plan_layer(*c, spec));
        } catch (const tessera::error& e) {
            reasons += "\n  " + where + ": " + e.what();
        }
    }
    if (suitable.empty())
        fail(tessera::status::invalid_argument, spec.type, "",
             "no binding suits this layer:" + reasons);
    const auto chosen = std::find_if(suitable.begin(), suitable.end(),
                                     [](const LayerPlan& p) { return p.layouts_match; });
    Layer layer;
    try {
        layer.impl_ = std::make_unique<Layer::Impl>(
            state_, spec, chosen != suitable.end() ? *chosen : suitable[0]);
    } catch (const cl::Error& e) {
        fail(tessera::status::backend_failure, spec.type, "",
             std::string(e.what()) + " failed with OpenCL error " + std::to_string(e.err()));
    }
    return layer;
}

bool Runtime::device_has_fp16() const {
    return state_->has_fp16;
}
void Runtime::set_force_half_promotion(bool force) {
    state_->force_promotion = force;
}
void Runtime::set_keep_half_buffers(bool keep) {
    state_->keep_half_buffers = keep;
}
void Runtime::set_dma_direct(bool direct) {
    state_->dma_direct = direct;
}
void Runtime::set_dma_host_geometry(bool host_geometry) {
    state_->dma_host_geometry = host_geometry;
}
std::string Runtime::device_name() const {
    std::string name = state_->device.getInfo<CL_DEVICE_NAME>();
    while (!name.empty() && name.back() == '\0') name.pop_back();  // CLHPP keeps the terminator
    return name;
}
const cl::Context& Runtime::context() const {
    return state_->context;
}
const cl::Device& Runtime::device() const {
    return state_->device;
}
cl::CommandQueue& Runtime::queue() {
    return state_->queue;
}

}  // namespace myriad
