// clml_fuzzer.cpp: libFuzzer harness of backends/clml through the public CLML V1 interface
// (CL/cl_qcom_ml_ops.h) on the first OpenCL device. The first byte picks a mode:
//   even: a tuning-cache blob, either the raw rest of the input (bit 1 of the first byte: with
//         its FNV-1a checksum recomputed, so that mutations get past it) or, with bit 2, built
//         from fuzz entries whose keys are often the real keys of the harness's 8x8 gemm on this
//         device (found by tuning it once). A blob that loads saves and reloads; the gemm created
//         with the loaded cache then runs and matches a host gemm (hostile work-group sizes must
//         be rejected at load, never break later enqueues).
//   odd:  the rest describes up to four tensors (structured fields, some raw), an op-properties
//         list and a raw op descriptor for one of the 20 op creators. Creation either succeeds
//         or returns an error code; nothing may crash.
#include <CL/cl_qcom_ml_ops.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_input.hpp"

namespace {

using tessera_fuzz::fuzz_input;
using tessera_fuzz::report_mismatch;

struct opencl {
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    CLMLInterfaceV1QCOM* api = nullptr;
};

const opencl& env() {
    static const opencl e = [] {
        opencl r;
        cl_uint count = 0;
        clGetPlatformIDs(0, nullptr, &count);
        std::vector<cl_platform_id> platforms(count);
        if (count) clGetPlatformIDs(count, platforms.data(), nullptr);
        for (cl_platform_id p : platforms) {
            cl_uint found = 0;
            if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &r.device, &found) == CL_SUCCESS && found) break;
            r.device = nullptr;
        }
        if (!r.device) report_mismatch("no OpenCL device (install pocl-opencl-icd)");
        cl_int err = CL_SUCCESS;
        r.context = clCreateContext(nullptr, 1, &r.device, nullptr, nullptr, &err);
        if (err != CL_SUCCESS) report_mismatch("clCreateContext failed");
        r.queue = clCreateCommandQueueWithProperties(r.context, r.device, nullptr, &err);
        if (err != CL_SUCCESS) report_mismatch("clCreateCommandQueueWithProperties failed");
        if (CL_GET_ML_INTERFACE_QCOM(r.api, 1, 0) != CL_SUCCESS || !r.api)
            report_mismatch("clGetMLInterfaceQCOM(1, 0) failed");
        return r;
    }();
    return e;
}

CLMLInterfaceV1QCOM& api() { return *env().api; }

cl_ml_value_qcom fp32(float v) {
    cl_ml_value_qcom value{};
    value.fp32 = v;
    value.type = CL_FLOAT;
    return value;
}

/// A tensor with a device buffer of the size CLML asks for; released at scope exit.
struct device_tensor {
    cl_ml_tensor_qcom tensor = nullptr;
    cl_mem memory = nullptr;
    device_tensor() = default;
    device_tensor(const device_tensor&) = delete;
    device_tensor& operator=(const device_tensor&) = delete;
    ~device_tensor() {
        if (memory) clReleaseMemObject(memory);
        if (tensor) api().clReleaseMLTensorQCOM(tensor);
    }
    bool create(const cl_ml_tensor_desc_qcom& desc, bool allocate) {
        if (api().clCreateMLTensorQCOM(env().context, nullptr, &desc, &tensor) != CL_SUCCESS) {
            tensor = nullptr;
            return false;
        }
        if (!allocate) return true;
        cl_uint size = 0;
        if (api().clGetMLTensorMemorySizeQCOM(env().context, tensor, &size) != CL_SUCCESS || !size)
            report_mismatch("clGetMLTensorMemorySizeQCOM failed for a created tensor");
        cl_int err = CL_SUCCESS;
        memory = clCreateBuffer(env().context, CL_MEM_READ_WRITE, size, nullptr, &err);
        return err == CL_SUCCESS;
    }
};

cl_ml_tensor_desc_qcom nchw_desc(cl_uint n, cl_uint c, cl_uint h, cl_uint w) {
    cl_ml_tensor_desc_qcom d{};
    d.data_type = CL_FLOAT;
    d.layout = CL_TENSOR_LAYOUT_NCHW_QCOM;
    d.n = n;
    d.c = c;
    d.h = h;
    d.w = w;
    d.num_dimensions = CL_TENSOR_DIMENSIONS_4D_QCOM;
    return d;
}

std::uint64_t fnv1a(const unsigned char* data, std::size_t size) {
    std::uint64_t hash = 1469598103934665603ull;
    for (std::size_t i = 0; i < size; ++i) {
        hash ^= data[i];
        hash *= 1099511628211ull;
    }
    return hash;
}

template <typename Int>
void put(std::vector<unsigned char>& out, Int value) {
    for (std::size_t i = 0; i < sizeof(Int); ++i) out.push_back(static_cast<unsigned char>(value >> (8 * i)));
}

/// Appends the checksum that closes a serialised cache.
void seal(std::vector<unsigned char>& blob) { put<std::uint64_t>(blob, fnv1a(blob.data(), blob.size())); }

constexpr cl_uint gemm_size = 8;

/// The tuning keys of the harness's gemm on this device: tuned once into a fresh cache, whose
/// saved form ("TCLMLTC\0", u32 version, u32 count, entries of u32 key length + key + u32 dims
/// + u64 sizes, u64 checksum) is read back here.
const std::vector<std::string>& gemm_keys();

/// A cache blob built from fuzz entries.
std::vector<unsigned char> structured_blob(fuzz_input& in) {
    std::vector<unsigned char> blob = {'T', 'C', 'L', 'M', 'L', 'T', 'C', '\0'};
    put<std::uint32_t>(blob, in.in_range(0, 3) == 0 ? in.take<std::uint32_t>() : 1u);
    const int entries = in.in_range(0, 4);
    put<std::uint32_t>(blob, static_cast<std::uint32_t>(entries));
    for (int e = 0; e < entries; ++e) {
        const auto& keys = gemm_keys();
        std::string key = !keys.empty() && in.in_range(0, 3) != 0
                              ? keys[static_cast<std::size_t>(in.in_range(0, 255)) % keys.size()]
                              : in.bytes(static_cast<std::size_t>(in.in_range(0, 40)));
        put<std::uint32_t>(blob, static_cast<std::uint32_t>(key.size()));
        blob.insert(blob.end(), key.begin(), key.end());
        const int dims = in.in_range(0, 4);
        put<std::uint32_t>(blob, static_cast<std::uint32_t>(dims));
        for (int d = 0; d < dims; ++d) {
            static constexpr std::uint64_t sizes[] = {1, 2, 3, 4, 7, 8, 16, 64, 256, 1024, 4096};
            const int pick = in.in_range(0, 11);
            put<std::uint64_t>(blob, pick < 11 ? sizes[pick] : in.take<std::uint64_t>());
        }
    }
    seal(blob);
    return blob;
}

/// Loads `blob`; if it loads, checks the save/reload round trip and that a gemm tuned from it
/// still runs and gives the right answer.
void tuning_cache(std::vector<unsigned char> bytes) {
    cl_ml_tuningcache_qcom cache = nullptr;
    if (api().clCreateMLTuningCacheQCOM(&cache) != CL_SUCCESS) report_mismatch("cannot create a tuning cache");
    const cl_int loaded = api().clLoadMLTuningCacheQCOM(cache, bytes.size(), bytes.empty() ? nullptr : bytes.data());
    if (loaded == CL_SUCCESS) {
        size_t size = 0;
        if (api().clSaveMLTuningCacheQCOM(cache, 0, nullptr, &size) != CL_SUCCESS)
            report_mismatch("a loaded cache cannot report its saved size");
        std::vector<unsigned char> saved(size);
        if (size && api().clSaveMLTuningCacheQCOM(cache, size, saved.data(), nullptr) != CL_SUCCESS)
            report_mismatch("a loaded cache cannot be saved");
        cl_ml_tuningcache_qcom again = nullptr;
        api().clCreateMLTuningCacheQCOM(&again);
        if (api().clLoadMLTuningCacheQCOM(again, saved.size(), saved.data()) != CL_SUCCESS)
            report_mismatch("a saved cache does not load again");
        api().clReleaseMLTuningCacheQCOM(again);

        // A small gemm with the loaded cache: C = A * B, 8x8 by 8x8.
        constexpr cl_uint n = gemm_size;
        device_tensor a, b, c;
        for (device_tensor* t : {&a, &b, &c})
            if (!t->create(nchw_desc(1, 1, n, n), true)) report_mismatch("cannot create the gemm tensors");
        std::vector<float> ha(n * n), hb(n * n), hc(n * n, 0.0f), want(n * n, 0.0f);
        for (cl_uint i = 0; i < n * n; ++i) {
            ha[i] = static_cast<float>(i % 7) - 3.0f;
            hb[i] = static_cast<float>(i % 5) - 2.0f;
        }
        for (cl_uint i = 0; i < n; ++i)
            for (cl_uint j = 0; j < n; ++j)
                for (cl_uint k = 0; k < n; ++k) want[i * n + j] += ha[i * n + k] * hb[k * n + j];
        cl_ml_op_gemm_desc_qcom desc{n, n, n, CL_GEMM_TRANSFORM_NONE_QCOM, CL_GEMM_TRANSFORM_NONE_QCOM,
                                     fp32(1), fp32(0), CL_ARITHMETIC_MODE_FP32_QCOM};
        cl_ml_op_qcom op = nullptr;
        if (api().clCreateMLOpGemmQCOM(env().context, nullptr, &desc, a.tensor, b.tensor, c.tensor, &op, cache) !=
            CL_SUCCESS)
            report_mismatch("gemm creation fails with a loaded tuning cache");
        cl_ml_tensor_mem_desc_set_qcom set = nullptr;
        api().clCreateMLTensorMemoryDescriptorSetQCOM(&set);
        cl_ml_tensor_memory_desc_qcom mems[] = {{a.tensor, a.memory}, {b.tensor, b.memory}, {c.tensor, c.memory}};
        api().clUpdateMLTensorMemoryDescriptorSetQCOM(set, 3, mems);
        cl_command_queue q = env().queue;
        api().clEnqueueWriteMLTensorDataQCOM(q, ha.data(), CL_TENSOR_LAYOUT_NCHW_QCOM, a.tensor, a.memory, 0, nullptr,
                                             nullptr);
        api().clEnqueueWriteMLTensorDataQCOM(q, hb.data(), CL_TENSOR_LAYOUT_NCHW_QCOM, b.tensor, b.memory, 0, nullptr,
                                             nullptr);
        const cl_int ran = api().clEnqueueMLOpQCOM(q, op, set, 0, nullptr, nullptr);
        if (ran != CL_SUCCESS)
            report_mismatch("a gemm with a loaded tuning cache fails to enqueue: " + std::to_string(ran));
        api().clEnqueueReadMLTensorDataQCOM(q, c.tensor, c.memory, hc.data(), CL_TENSOR_LAYOUT_NCHW_QCOM, 0, nullptr,
                                            nullptr);
        clFinish(q);
        for (cl_uint i = 0; i < n * n; ++i)
            if (std::abs(hc[i] - want[i]) > 1e-4f)
                report_mismatch("gemm with a loaded tuning cache: element " + std::to_string(i) + " is " +
                                std::to_string(hc[i]) + ", expected " + std::to_string(want[i]));
        api().clReleaseMLTensorMemoryDescriptorSetQCOM(set);
        api().clReleaseMLOpQCOM(op);
    }
    api().clReleaseMLTuningCacheQCOM(cache);
}

const std::vector<std::string>& gemm_keys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> found;
        constexpr cl_uint n = gemm_size;
        device_tensor a, b, c;
        for (device_tensor* t : {&a, &b, &c})
            if (!t->create(nchw_desc(1, 1, n, n), true)) return found;
        cl_ml_tuningcache_qcom cache = nullptr;
        api().clCreateMLTuningCacheQCOM(&cache);
        cl_ml_op_gemm_desc_qcom desc{n, n, n, CL_GEMM_TRANSFORM_NONE_QCOM, CL_GEMM_TRANSFORM_NONE_QCOM,
                                     fp32(1), fp32(0), CL_ARITHMETIC_MODE_FP32_QCOM};
        cl_ml_op_qcom op = nullptr;
        cl_ml_tensor_mem_desc_set_qcom set = nullptr;
        api().clCreateMLTensorMemoryDescriptorSetQCOM(&set);
        cl_ml_tensor_memory_desc_qcom mems[] = {{a.tensor, a.memory}, {b.tensor, b.memory}, {c.tensor, c.memory}};
        api().clUpdateMLTensorMemoryDescriptorSetQCOM(set, 3, mems);
        cl_ulong best = 0;
        std::vector<unsigned char> blob;
        std::size_t size = 0;
        if (api().clCreateMLOpGemmQCOM(env().context, nullptr, &desc, a.tensor, b.tensor, c.tensor, &op, cache) ==
                CL_SUCCESS &&
            api().clTuneMLOpQCOM(env().queue, op, set, cache, &best) == CL_SUCCESS &&
            api().clSaveMLTuningCacheQCOM(cache, 0, nullptr, &size) == CL_SUCCESS) {
            blob.resize(size);
            api().clSaveMLTuningCacheQCOM(cache, size, blob.data(), nullptr);
        }
        if (op) api().clReleaseMLOpQCOM(op);
        api().clReleaseMLTensorMemoryDescriptorSetQCOM(set);
        api().clReleaseMLTuningCacheQCOM(cache);
        auto u32 = [&](std::size_t at) {
            std::uint32_t v = 0;
            if (at + 4 <= blob.size()) std::memcpy(&v, blob.data() + at, 4);  // little-endian host
            return v;
        };
        std::size_t pos = 12;
        const std::uint32_t count = u32(pos);
        pos += 4;
        for (std::uint32_t e = 0; e < count && pos + 4 <= blob.size(); ++e) {
            const std::uint32_t len = u32(pos);
            pos += 4;
            if (pos + len > blob.size()) break;
            found.emplace_back(reinterpret_cast<const char*>(blob.data() + pos), len);
            pos += len;
            pos += 4 + 8 * static_cast<std::size_t>(u32(pos));
        }
        return found;
    }();
    return keys;
}

cl_ml_tensor_desc_qcom fuzz_desc(fuzz_input& in) {
    cl_ml_tensor_desc_qcom d{};
    static constexpr cl_channel_type types[] = {CL_FLOAT, CL_HALF_FLOAT, CL_SIGNED_INT8, CL_UNSIGNED_INT8};
    const int type = in.in_range(0, 4);
    d.data_type = type < 4 ? types[type] : in.take<cl_channel_type>();
    d.layout = static_cast<cl_tensor_layout_qcom>(in.in_range(0, 3));
    cl_uint* sizes[] = {&d.n, &d.c, &d.h, &d.w, &d.d};
    for (cl_uint* s : sizes) *s = in.in_range(0, 7) == 7 ? in.take<cl_uint>() : static_cast<cl_uint>(in.in_range(0, 9));
    d.num_dimensions = static_cast<cl_tensor_dimensions_qcom>(in.in_range(0, 3));
    if (in.in_range(0, 3) == 0)
        for (cl_int& s : d.stride) s = in.take<cl_int>();
    return d;
}

template <typename Desc>
Desc raw(fuzz_input& in) {
    return in.take<Desc>();
}

/// Creates (and releases) one op from fuzz bytes.
void create_op(fuzz_input& in) {
    device_tensor t[4];
    cl_ml_tensor_qcom h[8] = {};
    const int tensors = in.in_range(0, 4);
    for (int i = 0; i < tensors; ++i) {
        if (t[i].create(fuzz_desc(in), false)) h[i] = t[i].tensor;
    }
    for (int i = tensors; i < 8; ++i) h[i] = h[i % (tensors ? tensors : 1)];
    std::vector<cl_ml_op_properties_qcom> props;
    const int pairs = in.in_range(0, 3);
    for (int p = 0; p < pairs; ++p) {
        props.push_back(in.in_range(1, 6));
        props.push_back(in.take<std::int32_t>());
    }
    props.push_back(0);
    const cl_ml_op_properties_qcom* properties = pairs ? props.data() : nullptr;
    cl_context ctx = env().context;
    cl_ml_op_qcom op = nullptr;
    cl_int result = CL_SUCCESS;
    auto& f = api();
    switch (in.in_range(0, 19)) {
        case 0: {
            auto d = raw<cl_ml_op_gemm_desc_qcom>(in);
            result = f.clCreateMLOpGemmQCOM(ctx, properties, &d, h[0], h[1], h[2], &op, nullptr);
            break;
        }
        case 1: {
            auto d = raw<cl_ml_op_transpose_desc_qcom>(in);
            result = f.clCreateMLOpTransposeQCOM(ctx, properties, &d, h[0], h[1], &op, nullptr);
            break;
        }
        case 2: {
            auto d = raw<cl_ml_op_fully_connected_desc_qcom>(in);
            result = f.clCreateMLOpFullyConnectedQCOM(ctx, properties, &d, h[0], h[1], h[2], h[3], &op, nullptr);
            break;
        }
        case 3: {
            auto d = raw<cl_ml_op_convolution_desc_qcom>(in);
            result = f.clCreateMLOpConvolutionForwardQCOM(ctx, properties, &d, h[0], h[1], h[2], h[3], &op, nullptr);
            break;
        }
        case 4: {
            auto d = raw<cl_ml_op_batchnorm_desc_qcom>(in);
            result = f.clCreateMLOpBatchNormForwardQCOM(ctx, properties, &d, h[0], h[1], h[2], h[3], h[4], h[5], &op,
                                                        nullptr);
            break;
        }
        case 5: {
            auto d = raw<cl_ml_op_activation_desc_qcom>(in);
            result = f.clCreateMLOpActivationForwardQCOM(ctx, properties, &d, h[0], h[1], h[2], &op, nullptr);
            break;
        }
        case 6: {
            auto d = raw<cl_ml_op_pooling_desc_qcom>(in);
            result = f.clCreateMLOpPoolingForwardQCOM(ctx, properties, &d, h[0], h[1], h[2], &op, nullptr);
            break;
        }
        case 7: {
            auto c = raw<cl_ml_op_convolution_desc_qcom>(in);
            auto a = raw<cl_ml_op_activation_desc_qcom>(in);
            result = f.clCreateMLOpFusedConvolutionActivationForwardQCOM(ctx, properties, &c, &a, h[0], h[1], h[2],
                                                                         h[3], h[4], &op, nullptr);
            break;
        }
        case 8: {
            auto c = raw<cl_ml_op_convolution_desc_qcom>(in);
            auto b = raw<cl_ml_op_batchnorm_desc_qcom>(in);
            result = f.clCreateMLOpFusedConvolutionBatchNormForwardQCOM(ctx, properties, &c, &b, h[0], h[1], h[2], h[3],
                                                                        h[4], h[5], h[6], h[7], &op, nullptr);
            break;
        }
        case 9: {
            auto c = raw<cl_ml_op_convolution_desc_qcom>(in);
            auto b = raw<cl_ml_op_batchnorm_desc_qcom>(in);
            auto a = raw<cl_ml_op_activation_desc_qcom>(in);
            result = f.clCreateMLOpFusedConvolutionBatchNormActivationForwardQCOM(
                ctx, properties, &c, &b, &a, h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[0], &op, nullptr);
            break;
        }
        case 10: {
            auto d = raw<cl_ml_op_binary_desc_qcom>(in);
            result = f.clCreateMLOpBinaryQCOM(ctx, properties, &d, h[0], h[1], h[2], &op, nullptr);
            break;
        }
        case 11: {
            auto d = raw<cl_ml_op_softmax_desc_qcom>(in);
            result = f.clCreateMLOpSoftmaxQCOM(ctx, properties, &d, h[0], h[1], &op, nullptr);
            break;
        }
        case 12: {
            auto d = raw<cl_ml_op_fill_desc_qcom>(in);
            result = f.clCreateMLOpFillQCOM(ctx, properties, &d, h[0], &op, nullptr);
            break;
        }
        case 13: {
            auto d = raw<cl_ml_op_concat_desc_qcom>(in);
            d.num_input_tensors %= 8;  // the list below holds 7 inputs; longer counts would be the caller's bug
            result = f.clCreateMLOpConcatQCOM(ctx, properties, &d, h, h[7], &op, nullptr);
            break;
        }
        case 14: {
            auto d = raw<cl_ml_op_permute_desc_qcom>(in);
            result = f.clCreateMLOpPermuteQCOM(ctx, properties, &d, h[0], h[1], &op, nullptr);
            break;
        }
        case 15:
            result = f.clCreateMLOpReshapeQCOM(ctx, properties, h[0], h[1], &op, nullptr);
            break;
        case 16: {
            auto d = raw<cl_ml_op_depthtospace_desc_qcom>(in);
            result = f.clCreateMLOpDepthToSpaceQCOM(ctx, properties, &d, h[0], h[1], &op, nullptr);
            break;
        }
        case 17: {
            auto d = raw<cl_ml_op_depthtospace_desc_qcom>(in);
            auto a = raw<cl_ml_op_activation_desc_qcom>(in);
            result = f.clCreateMLOpFusedDepthToSpaceActivationQCOM(ctx, properties, &d, &a, h[0], h[1], h[2], &op,
                                                                   nullptr);
            break;
        }
        case 18: {
            auto d = raw<cl_ml_op_resize_bilinear_desc_qcom>(in);
            result = f.clCreateMLOpResizeBilinearQCOM(ctx, properties, &d, h[0], h[1], &op, nullptr);
            break;
        }
        default: {
            auto d = raw<cl_ml_op_pad_desc_qcom>(in);
            result = f.clCreateMLOpPadQCOM(ctx, properties, &d, h[0], h[1], &op, nullptr);
            break;
        }
    }
    if (result == CL_SUCCESS) {
        if (!op) report_mismatch("op creation succeeded without an op");
        if (f.clReleaseMLOpQCOM(op) != CL_SUCCESS) report_mismatch("a created op does not release");
    } else if (op) {
        report_mismatch("op creation failed (" + std::to_string(result) + ") but returned an op");
    }
}

}  // namespace

// libFuzzer calls this once before the first input: tuning the gemm (PoCL compiles kernels on
// first use) must not count against the per-input timeout.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    env();
    gemm_keys();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    env();
    fuzz_input in(data, size);
    const auto mode = in.take<std::uint8_t>();
    if (mode & 1) {
        create_op(in);
    } else if (mode & 4) {
        tuning_cache(structured_blob(in));
    } else {
        const std::string rest = in.rest();
        std::vector<unsigned char> blob(rest.begin(), rest.end());
        if ((mode & 2) && blob.size() >= 8) {
            blob.resize(blob.size() - 8);
            seal(blob);
        }
        tuning_cache(std::move(blob));
    }
    return 0;
}
