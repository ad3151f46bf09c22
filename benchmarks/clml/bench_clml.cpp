// bench_clml.cpp -- CLML sgemm and 3x3 convolution throughput (OPTIMAL tensors, and NCHW client
// tensors), with CLBlast's SGEMM on the same device for comparison. Each iteration enqueues one op
// and waits for it. The sgemm sizes 2048 and 4096 run on GPU devices only (minutes per case on a
// CPU). The device's name, compute units and clock are printed in the context, for the fraction
// of its fp32 peak.
#include <CL/cl_qcom_ml_ops.h>
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#ifdef TESSERA_HAVE_CLBLAST
#include <clblast.h>
#endif

namespace {

struct Device {
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    CLMLInterfaceV1QCOM* api = nullptr;
};

Device& device() {
    static Device* d = [] {
        auto* dev = new Device();
        cl_platform_id platforms[8];
        cl_uint count = 0;
        clGetPlatformIDs(8, platforms, &count);
        for (cl_uint i = 0; i < count && !dev->device; ++i)
            clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &dev->device, nullptr);
        if (!dev->device) {
            std::fprintf(stderr, "no OpenCL device\n");
            std::exit(1);
        }
        cl_int err;
        dev->context = clCreateContext(nullptr, 1, &dev->device, nullptr, nullptr, &err);
        dev->queue = clCreateCommandQueueWithProperties(dev->context, dev->device, nullptr, &err);
        dev->api = clGetMLInterfaceV1QCOM(1);
        return dev;
    }();
    return *d;
}

cl_mem filled_buffer(size_t floats, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<float> v(floats);
    for (float& x : v) x = dist(gen);
    cl_int err;
    return clCreateBuffer(device().context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, floats * 4,
                          v.data(), &err);
}

cl_ml_tensor_qcom tensor(cl_tensor_layout_qcom layout, cl_uint n, cl_uint c, cl_uint h, cl_uint w) {
    cl_ml_tensor_desc_qcom desc{};
    desc.data_type = CL_FLOAT;
    desc.layout = layout;
    desc.n = n, desc.c = c, desc.h = h, desc.w = w;
    desc.num_dimensions = CL_TENSOR_DIMENSIONS_4D_QCOM;
    cl_ml_tensor_qcom t = nullptr;
    device().api->clCreateMLTensorQCOM(device().context, nullptr, &desc, &t);
    return t;
}

// Runs `op` with the given (tensor, memory) pairs as the benchmark loop.
void run_op_loop(benchmark::State& state, cl_ml_op_qcom op,
                 std::vector<cl_ml_tensor_memory_desc_qcom> descs, double flops) {
    CLMLInterfaceV1QCOM& api = *device().api;
    cl_ml_tensor_mem_desc_set_qcom set = nullptr;
    api.clCreateMLTensorMemoryDescriptorSetQCOM(&set);
    api.clUpdateMLTensorMemoryDescriptorSetQCOM(set, static_cast<uint32_t>(descs.size()),
                                                descs.data());
    // Warm-up (kernel compilation) and an optional tuning pass (CLML_BENCH_TUNE=1).
    if (std::getenv("CLML_BENCH_TUNE")) {
        cl_ml_tuningcache_qcom cache = nullptr;
        api.clCreateMLTuningCacheQCOM(&cache);
        api.clTuneMLOpQCOM(device().queue, op, set, cache, nullptr);
        api.clReleaseMLTuningCacheQCOM(cache);
    }
    for (int i = 0; i < 2; ++i) api.clEnqueueMLOpQCOM(device().queue, op, set, 0, nullptr, nullptr);
    clFinish(device().queue);
    for (auto _ : state) {
        if (api.clEnqueueMLOpQCOM(device().queue, op, set, 0, nullptr, nullptr) != CL_SUCCESS) {
            state.SkipWithError("enqueue failed");
            break;
        }
        clFinish(device().queue);
    }
    state.counters["GFLOP/s"] =
        benchmark::Counter(flops / 1e9, benchmark::Counter::kIsIterationInvariantRate);
    api.clReleaseMLTensorMemoryDescriptorSetQCOM(set);
}

void qcom_sgemm(benchmark::State& state, cl_uint n) {
    CLMLInterfaceV1QCOM& api = *device().api;
    cl_ml_tensor_qcom a = tensor(CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, n, n);
    cl_ml_tensor_qcom b = tensor(CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, n, n);
    cl_ml_tensor_qcom c = tensor(CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, n, n);
    cl_ml_value_qcom one{}, zero{};
    one.fp32 = 1.0f, one.type = CL_FLOAT;
    zero.type = CL_FLOAT;
    cl_ml_op_gemm_desc_qcom desc{n,
                                 n,
                                 n,
                                 CL_GEMM_TRANSFORM_NONE_QCOM,
                                 CL_GEMM_TRANSFORM_NONE_QCOM,
                                 one,
                                 zero,
                                 CL_ARITHMETIC_MODE_FP32_QCOM};
    cl_ml_op_qcom op = nullptr;
    if (api.clCreateMLOpGemmQCOM(device().context, nullptr, &desc, a, b, c, &op, nullptr) !=
        CL_SUCCESS) {
        state.SkipWithError("gemm creation failed");
        return;
    }
    cl_mem ma = filled_buffer(size_t{n} * n, 1), mb = filled_buffer(size_t{n} * n, 2),
           mc = filled_buffer(size_t{n} * n, 3);
    run_op_loop(state, op, {{a, ma}, {b, mb}, {c, mc}}, 2.0 * n * n * n);
    api.clReleaseMLOpQCOM(op);
    for (cl_ml_tensor_qcom t : {a, b, c}) api.clReleaseMLTensorQCOM(t);
    for (cl_mem m : {ma, mb, mc}) clReleaseMemObject(m);
}

// `layout`: OPTIMAL for all tensors (the op picks its layout), or NCHW client tensors (what the
// plugin binds for graph inputs and weights: the op then repacks them for its kernel each run).
void qcom_conv3x3(benchmark::State& state, cl_uint channels, cl_uint size,
                  cl_tensor_layout_qcom layout = CL_TENSOR_LAYOUT_OPTIMAL_QCOM) {
    CLMLInterfaceV1QCOM& api = *device().api;
    cl_ml_tensor_qcom in = tensor(layout, 1, channels, size, size);
    cl_ml_tensor_qcom wt = tensor(layout, channels, channels, 3, 3);
    cl_ml_tensor_qcom out = tensor(layout, 1, channels, size, size);
    cl_ml_op_convolution_desc_qcom desc{};
    desc.mode = CL_CONVOLUTION_MODE_CONVOLUTION_QCOM;
    desc.group_count = 1;
    desc.num_dimensions = 4;
    for (int i = 0; i < 2; ++i) {
        desc.input_padding_before[i] = desc.input_padding_after[i] = 1;
        desc.filter_stride[i] = desc.dilation[i] = 1;
    }
    desc.arithmetic_mode = CL_ARITHMETIC_MODE_FP32_QCOM;
    cl_ml_op_qcom op = nullptr;
    if (api.clCreateMLOpConvolutionForwardQCOM(device().context, nullptr, &desc, in, wt, nullptr,
                                               out, &op, nullptr) != CL_SUCCESS) {
        state.SkipWithError("conv creation failed");
        return;
    }
    const size_t plane = size_t{size} * size;
    cl_mem mi = filled_buffer(channels * plane, 1),
           mw = filled_buffer(size_t{channels} * channels * 9, 2);
    cl_mem mo = filled_buffer(channels * plane, 3);
    run_op_loop(state, op, {{in, mi}, {wt, mw}, {out, mo}}, 2.0 * channels * channels * 9 * plane);
    api.clReleaseMLOpQCOM(op);
    for (cl_ml_tensor_qcom t : {in, wt, out}) api.clReleaseMLTensorQCOM(t);
    for (cl_mem m : {mi, mw, mo}) clReleaseMemObject(m);
}

#ifdef TESSERA_HAVE_CLBLAST
void clblast_sgemm(benchmark::State& state, size_t n) {
    cl_mem a = filled_buffer(n * n, 1), b = filled_buffer(n * n, 2), c = filled_buffer(n * n, 3);
    cl_command_queue queue = device().queue;
    auto gemm = [&] {
        return clblast::Gemm<float>(clblast::Layout::kRowMajor, clblast::Transpose::kNo,
                                    clblast::Transpose::kNo, n, n, n, 1.0f, a, 0, n, b, 0, n, 0.0f,
                                    c, 0, n, &queue, nullptr);
    };
    if (gemm() != clblast::StatusCode::kSuccess) {
        state.SkipWithError("CLBlast Gemm failed");
    } else {
        clFinish(queue);
        for (auto _ : state) {
            gemm();
            clFinish(queue);
        }
        state.counters["GFLOP/s"] = benchmark::Counter(
            2.0 * n * n * n / 1e9, benchmark::Counter::kIsIterationInvariantRate);
    }
    for (cl_mem m : {a, b, c}) clReleaseMemObject(m);
}
#endif

template <class Value>
Value device_info(cl_device_info what) {
    Value value{};
    clGetDeviceInfo(device().device, what, sizeof(value), &value, nullptr);
    return value;
}

std::string device_name() {
    char name[256] = {};
    clGetDeviceInfo(device().device, CL_DEVICE_NAME, sizeof(name) - 1, name, nullptr);
    return name;
}

}  // namespace

// Names are exact (Google Benchmark appends "/real_time" because the work runs on device threads).
int main(int argc, char** argv) {
    auto add = [](const char* name, auto fn) {
        benchmark::RegisterBenchmark(name, fn)->UseRealTime()->Unit(benchmark::kMillisecond);
    };
    const bool gpu = (device_info<cl_device_type>(CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU) != 0;
    std::vector<cl_uint> sizes = {512, 1024};
    if (gpu) sizes.insert(sizes.end(), {2048, 4096});
    for (cl_uint n : sizes)
        add(("qcom-ml/sgemm_" + std::to_string(n)).c_str(),
            [n](benchmark::State& s) { qcom_sgemm(s, n); });
#ifdef TESSERA_HAVE_CLBLAST
    for (cl_uint n : sizes)
        add(("clblast/sgemm_" + std::to_string(n)).c_str(),
            [n](benchmark::State& s) { clblast_sgemm(s, n); });
#endif
    benchmark::AddCustomContext("opencl_device", device_name());
    benchmark::AddCustomContext("opencl_compute_units",
                                std::to_string(device_info<cl_uint>(CL_DEVICE_MAX_COMPUTE_UNITS)));
    benchmark::AddCustomContext(
        "opencl_max_clock_mhz",
        std::to_string(device_info<cl_uint>(CL_DEVICE_MAX_CLOCK_FREQUENCY)));
    add("qcom-ml/conv3x3_64_56", [](benchmark::State& s) { qcom_conv3x3(s, 64, 56); });
    add("qcom-ml/conv3x3_64_56_nchw",
        [](benchmark::State& s) { qcom_conv3x3(s, 64, 56, CL_TENSOR_LAYOUT_NCHW_QCOM); });
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
