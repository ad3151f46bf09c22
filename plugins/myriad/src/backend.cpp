// backend.cpp: options, the runtime with its bindings, queries, compile, memory and host copies.
#include "backend.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>

#include "device_buffer.hpp"
#include "layouts.hpp"
#include "ops/ops.hpp"
#include "program.hpp"
#include "tessera/error.hpp"
#include "tessera/sdk/wide_dtypes.hpp"

namespace tessera::plugins::myriad {

namespace {

[[noreturn]] void bad_option(const std::string& text) {
    throw error(status::invalid_argument, "myriad: " + text, {backend_name, "", ""});
}

bool is_directory(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

device_buffer& as_device_buffer(sdk::buffer& b) {
    auto* d = dynamic_cast<device_buffer*>(&b);
    if (!d) throw error(status::invalid_argument, "not a myriad buffer", {backend_name, "", ""});
    return *d;
}

std::string blob_text(const layer_request& r) {
    std::string s;
    for (const auto& [input, name] : r.blobs) s += (s.empty() ? "" : ", ") + name;
    return s;
}

/// Whether some stage of the binding reads the blob `name` (Data or Tensor type="data").
bool binding_reads_blob(const ::myriad::CustomLayer& b, const std::string& name) {
    for (const auto& stage : b.stages) {
        for (const auto& d : stage.data)
            if (d.kind == ::myriad::DataKind::data && d.source == name) return true;
        for (const auto& t : stage.tensors)
            if (t.role == ::myriad::TensorRole::data && t.source == name) return true;
    }
    return false;
}

}  // namespace

backend_options parse_options(const sdk::options& options) {
    backend_options o;
    for (const auto& [key, value] : options) {
        if (key == "config") {
            std::size_t start = 0;
            while (start <= value.size()) {
                const std::size_t end = value.find(';', start);
                const std::string file =
                    value.substr(start, end == std::string::npos ? std::string::npos : end - start);
                if (file.empty()) bad_option("config=" + value + ": an empty file name");
                o.config_files.push_back(file);
                if (end == std::string::npos) break;
                start = end + 1;
            }
        } else if (key == "device") {
            char* end = nullptr;
            const long v = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || v < 0 || v > 1'000'000)
                bad_option("device=" + value + ": expected a non-negative integer");
            o.device = static_cast<int>(v);
        } else {
            bad_option("unknown option '" + key + "' (options: config=FILE[;FILE...], device=N)");
        }
    }
    return o;
}

std::string standard_layers_directory() {
    if (const char* env = std::getenv("MYRIAD_STANDARD_LAYERS")) return env;
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&standard_layers_directory), &info) && info.dli_fname) {
        std::string dir = info.dli_fname;
        dir = dir.substr(0, dir.find_last_of('/') + 1);
        const std::string installed = dir + "../../../share/tessera/myriad/layers";
        if (is_directory(installed)) return installed;
    }
    return ::myriad::Runtime::standard_layers_directory();
}

myriad_backend::myriad_backend(const sdk::options& options) {
    const backend_options o = parse_options(options);
    runtime_ = std::make_shared<::myriad::Runtime>(o.device);
    const std::string layers = standard_layers_directory();
    if (is_directory(layers)) runtime_->load_standard_layers(layers);
    for (const std::string& file : o.config_files) runtime_->load_bindings(file);
    converter_ = std::make_shared<dtype_converter>(*runtime_);
}

std::vector<sdk::device> myriad_backend::devices() const {
    const std::string precision = runtime_->device_has_fp16()
                                      ? "half kernels run in fp16 (cl_khr_fp16)"
                                      : "half kernels run in fp32 (no cl_khr_fp16)";
    return {sdk::device{runtime_->device_name(), "accelerator",
                        "OpenCL; Myriad custom layers; " + precision}};
}

sdk::support myriad_backend::query(const sdk::op_query& q) const {
    if (auto wide = sdk::decline_wide_dtypes(q, backend_name)) return *wide;  // no i64/f64 kernels
    return op_routes().query(q.op, q, *this);
}

sdk::support myriad_backend::answer(const sdk::op_query& q, const layer_request& r) const {
    auto check = [](const tensor_desc& d, const std::string& what) {
        if (!kernel_dtype(d.type()))
            decline(TSR_REASON_DTYPE, what + " is " + std::string(to_string(d.type())) +
                                          ": myriad tensors are f32, f16, i8, u8, i16 or i32");
        std::string why;
        if (!layer_shape(d, &why)) decline(TSR_REASON_SHAPE, what + ": " + why);
    };
    for (std::size_t i = 0; i < q.inputs.size(); ++i)
        check(q.inputs[i], "input " + std::to_string(i));
    if (q.outputs.size() != 1)
        decline(TSR_REASON_ATTRIBUTE, "a Myriad custom layer has exactly one output");
    check(q.outputs[0], "output 0");
    if (!runtime_->has_binding(r.type))
        decline(TSR_REASON_OP_KIND, "no custom layer binding for layer type '" + r.type +
                                        "' (load one with myriad:config=customLayers.xml)");
    ::myriad::Layer layer;
    try {
        layer = runtime_->create_layer(make_spec(r, q.inputs, q.outputs));
    } catch (const error& e) {
        decline(TSR_REASON_ATTRIBUTE, "layer type '" + r.type + "': " + e.message());
    }
    if (r.exact_types) {
        const auto where = [&] {
            return "the binding of '" + r.type + "' at " + layer.binding().file + ":" +
                   std::to_string(layer.binding().line);
        };
        for (std::size_t port = 0; port < r.ports.size(); ++port) {
            const dtype have = q.inputs.at(static_cast<std::size_t>(r.ports[port])).type();
            if (layer.input_dtype(static_cast<int>(port)) != kernel_dtype(have))
                decline(TSR_REASON_DTYPE,
                        where() + " reads input " + std::to_string(port) + " as " +
                            ::myriad::to_string(layer.input_dtype(static_cast<int>(port))) +
                            ", not " + std::string(to_string(have)));
        }
        if (layer.output_dtype() != kernel_dtype(q.outputs[0].type()))
            decline(TSR_REASON_DTYPE, where() + " writes " +
                                          ::myriad::to_string(layer.output_dtype()) + ", not " +
                                          std::string(to_string(q.outputs[0].type())));
    }
    for (const auto& [input, name] : r.blobs)
        if (!binding_reads_blob(layer.binding(), name))
            decline(TSR_REASON_ATTRIBUTE,
                    "the binding of '" + r.type + "' at " + layer.binding().file + ":" +
                        std::to_string(layer.binding().line) + " does not read the blob '" + name +
                        "' the op needs (blobs: " + blob_text(r) + ")");
    sdk::support s = sdk::support::native();
    s.text = "binding " + layer.binding().file + ":" + std::to_string(layer.binding().line) +
             ", precision " + ::myriad::to_string(layer.precision());
    for (const auto& d : q.inputs) s.inputs.push_back(row_major(d));
    for (const auto& d : q.outputs) s.outputs.push_back(row_major(d));
    return s;
}

std::unique_ptr<sdk::executable> myriad_backend::compile(const sdk::partition& p) {
    return std::make_unique<partition_program>(runtime_, converter_, p);
}

std::unique_ptr<sdk::buffer> myriad_backend::allocate(std::int64_t bytes) {
    try {
        cl::Buffer mem(runtime_->context(), CL_MEM_READ_WRITE,
                       static_cast<std::size_t>(std::max<std::int64_t>(bytes, 4)));
        return std::make_unique<device_buffer>(std::move(mem), bytes);
    } catch (const cl::Error& e) {
        throw error(status::out_of_memory,
                    "clCreateBuffer of " + std::to_string(bytes) +
                        " bytes failed with OpenCL error " + std::to_string(e.err()),
                    {backend_name, "", ""});
    }
}

std::unique_ptr<sdk::buffer> myriad_backend::import(void* host, std::int64_t bytes,
                                                    tsr_import_mode mode) {
    if (mode != TSR_IMPORT_COPY)
        throw error(status::unsupported,
                    "myriad buffers are OpenCL device memory: zero-copy import is not supported; "
                    "use copy mode",
                    {backend_name, "", ""});
    auto b = allocate(bytes);
    if (bytes > 0)
        runtime_->queue().enqueueWriteBuffer(as_device_buffer(*b).mem(), CL_TRUE, 0,
                                             static_cast<std::size_t>(bytes), host);
    as_device_buffer(*b).mark_written();
    return b;
}

void myriad_backend::copy_to_host(sdk::buffer& src, const tensor_desc& src_desc,
                                  const tensor& dst) {
    device_buffer& b = as_device_buffer(src);
    if (!src_desc.is_strided())
        throw error(status::unsupported, "myriad cannot read layout " + src_desc.to_string(),
                    {backend_name, "", ""});
    if (src_desc.size_bytes() > b.size())
        throw error(status::invalid_argument,
                    "tensor " + src_desc.to_string() + " exceeds its buffer",
                    {backend_name, "", ""});
    const bool direct = dst.desc() == src_desc;
    tensor staging;
    if (!direct) staging = tensor(src_desc);
    void* host = direct ? dst.base() : staging.base();
    runtime_->queue().finish();
    if (src_desc.size_bytes() > 0)
        runtime_->queue().enqueueReadBuffer(b.mem(), CL_TRUE, 0,
                                            static_cast<std::size_t>(src_desc.size_bytes()), host);
    if (!direct) tensor::copy_elements(staging, dst);
}

void myriad_backend::copy_from_host(const tensor& src, sdk::buffer& dst,
                                    const tensor_desc& dst_desc) {
    device_buffer& b = as_device_buffer(dst);
    if (!dst_desc.is_strided())
        throw error(status::unsupported, "myriad cannot write layout " + dst_desc.to_string(),
                    {backend_name, "", ""});
    if (dst_desc.size_bytes() > b.size())
        throw error(status::invalid_argument,
                    "tensor " + dst_desc.to_string() + " exceeds its buffer",
                    {backend_name, "", ""});
    const bool direct = src.desc() == dst_desc;
    tensor staging;
    if (!direct) {
        staging = tensor(dst_desc);
        tensor::copy_elements(src, staging);
    }
    const void* host = direct ? src.base() : staging.base();
    if (dst_desc.size_bytes() > 0)
        runtime_->queue().enqueueWriteBuffer(b.mem(), CL_TRUE, 0,
                                             static_cast<std::size_t>(dst_desc.size_bytes()), host);
    b.mark_written();
}

}  // namespace tessera::plugins::myriad
