// bench_myriad.cpp -- Myriad custom layers on one OpenCL device: myriad/<layer> (bytes read +
// written per second through Layer::enqueue, waited for) next to copy/<layer> (clEnqueueCopyBuffer
// moving the same bytes), dma/<variant> (the seed's GRN with manual DMA vs the same kernel with
// global loads, both run through the runtime) and launch/<variant> (a bare
// clEnqueueNDRangeKernel of an empty kernel vs each memory-bound layer on a 1x4x2x2 tensor).
// dma/ratio runs both GRN variants alternately and reports dma_over_plain (median DMA time /
// median plain time) in its counters and label. The label says which precision ran and how many
// conversion kernels ran around the layer.
// MYRIAD_BENCH_SHAPE=NxCxHxW sets the layer tensor (default 1x128x512x512 on GPUs and
// accelerators, 1x64x208x208 on CPU devices); MYRIAD_KEEP_HALF_BUFFERS=0 converts half buffers
// to float around the kernels on devices without cl_khr_fp16 (the runtime's fallback path);
// MYRIAD_DMA_DIRECT=1 runs mirror-only DMA companions on the direct path (Runtime::set_dma_direct);
// MYRIAD_DMA_HOST_GEOMETRY=0 computes the DMA transactions' geometry on the device instead of
// compiling it into the programs (Runtime::set_dma_host_geometry).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "myriad/runtime.h"

namespace {

int device_index() {
    const char* env = std::getenv("MYRIAD_BENCH_DEVICE");
    return env ? std::atoi(env) : 0;
}

myriad::Runtime& runtime() {
    static myriad::Runtime rt(device_index());
    static const bool configured = [] {
        const char* keep = std::getenv("MYRIAD_KEEP_HALF_BUFFERS");
        rt.set_keep_half_buffers(!keep || std::string(keep) != "0");
        if (const char* direct = std::getenv("MYRIAD_DMA_DIRECT"))
            rt.set_dma_direct(std::string(direct) != "0");
        if (const char* host = std::getenv("MYRIAD_DMA_HOST_GEOMETRY"))
            rt.set_dma_host_geometry(std::string(host) != "0");
        return true;
    }();
    (void)configured;
    return rt;
}

bool cpu_device() {
    return (runtime().device().getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0;
}

/// The layer tensor: MYRIAD_BENCH_SHAPE (NxCxHxW) or the device type's default.
myriad::Shape bench_shape() {
    if (const char* env = std::getenv("MYRIAD_BENCH_SHAPE")) {
        myriad::Shape s;
        for (const char* p = env; *p;) {
            char* end = nullptr;
            s.push_back(std::strtoll(p, &end, 10));
            p = *end ? end + 1 : end;
        }
        if (s.size() == 4) return s;
    }
    return cpu_device() ? myriad::Shape{1, 64, 208, 208} : myriad::Shape{1, 128, 512, 512};
}

std::size_t count(const myriad::Shape& s) {
    std::size_t n = 1;
    for (auto d : s) n *= static_cast<std::size_t>(d);
    return n;
}

cl::Buffer device_buffer(std::size_t bytes) {
    std::vector<unsigned char> zeros(bytes, 0x3c);  // half 1.0-ish bit patterns
    return cl::Buffer(runtime().context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                      zeros.data());
}

struct Case {
    const char* name;
    myriad::LayerSpec spec;
};

std::vector<Case> memory_bound_cases(const myriad::Shape& s) {
    const myriad::Shape reorg{s[0], s[1] * 4, s[2] / 2, s[3] / 2};
    return {
        {"GRN", {"GRN", {{"bias", "1"}}, {s}, {}, s, {}}},
        {"MVN",
         {"MVN",
          {{"across_channels", "0"}, {"normalize_variance", "1"}, {"eps", "1e-5"}},
          {s},
          {},
          s,
          {}}},
        {"ReorgYolo", {"ReorgYolo", {{"stride", "2"}}, {s}, {}, reorg, {}}},
        {"ShuffleChannels", {"ShuffleChannels", {{"axis", "1"}, {"group", "4"}}, {s}, {}, s, {}}},
        {"Convert", {"Convert", {{"destination_type", "f16"}}, {s}, {}, s, {}}},
    };
}

std::string shape_text(const myriad::Shape& s) {
    std::string text;
    for (auto d : s) text += (text.empty() ? "" : "x") + std::to_string(d);
    return text;
}

void bench_layer(benchmark::State& state, myriad::LayerSpec spec) {
    myriad::Layer layer = runtime().create_layer(spec);
    const std::size_t in_bytes =
        count(spec.input_shapes[0]) * myriad::size_of(layer.input_dtype(0));
    const std::size_t out_bytes = count(spec.output_shape) * myriad::size_of(layer.output_dtype());
    myriad::DeviceTensor in{device_buffer(in_bytes), spec.input_shapes[0], myriad::Layout::BFYX,
                            layer.input_dtype(0)};
    myriad::DeviceTensor out{device_buffer(out_bytes), spec.output_shape, myriad::Layout::BFYX,
                             layer.output_dtype()};
    layer.enqueue({in}, out);  // warm-up: drivers such as PoCL compile kernels at first launch
    runtime().queue().finish();
    for (auto _ : state) {
        layer.enqueue({in}, out);
        runtime().queue().finish();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * (in_bytes + out_bytes)));
    state.counters["conversion_passes"] = layer.conversion_passes();
    state.SetLabel(std::string(myriad::to_string(layer.precision())) + ", " +
                   std::to_string(layer.conversion_passes()) + " conversion passes, " +
                   shape_text(spec.input_shapes[0]) + " on " + runtime().device_name());
}

void bench_copy(benchmark::State& state, myriad::LayerSpec spec, myriad::DType in_type,
                myriad::DType out_type) {
    const std::size_t in_bytes = count(spec.input_shapes[0]) * myriad::size_of(in_type);
    const std::size_t out_bytes = count(spec.output_shape) * myriad::size_of(out_type);
    // The layer reads in_bytes and writes out_bytes: copy (in+out)/2 bytes (read + write each).
    const std::size_t half_moved = (in_bytes + out_bytes) / 2;
    cl::Buffer a = device_buffer(half_moved), b = device_buffer(half_moved);
    runtime().queue().enqueueCopyBuffer(a, b, 0, 0, half_moved);  // warm-up
    runtime().queue().finish();
    for (auto _ : state) {
        runtime().queue().enqueueCopyBuffer(a, b, 0, 0, half_moved);
        runtime().queue().finish();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 2 * half_moved));
    state.SetLabel(shape_text(spec.input_shapes[0]) + " on " + runtime().device_name());
}

// The seed's GRN: with __dma_preload/__dma_postwrite (local copies) and with global loads.
const char* grn_dma_source = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void __dma_preload_grn_dma(__global const half* restrict src, __global half* restrict dst,
    __local half* restrict local_src, __local half* restrict local_dst, int C, float bias)
{
    WorkGroupDmaCreate3DTransaction(
        src + get_group_id(0) * get_local_size(0) + get_group_id(1) * get_local_size(1) * get_global_size(0),
        local_src, get_local_size(0) * sizeof(half), get_local_size(0) * sizeof(half),
        get_global_size(0) * sizeof(half), get_local_size(0) * sizeof(half), C,
        get_global_size(0) * get_global_size(1) * sizeof(half),
        get_local_size(0) * get_local_size(1) * sizeof(half),
        get_local_size(0) * get_local_size(1) * sizeof(half), 0);
}
__kernel void __dma_postwrite_grn_dma(__global const half* restrict src, __global half* restrict dst,
    __local const half* restrict local_src, __local half* restrict local_dst, int C, float bias)
{
    WorkGroupDmaCreate3DTransaction(local_dst,
        dst + get_group_id(0) * get_local_size(0) + get_group_id(1) * get_local_size(1) * get_global_size(0),
        get_local_size(0) * sizeof(half), get_local_size(0) * sizeof(half),
        get_local_size(0) * sizeof(half), get_global_size(0) * sizeof(half), C,
        get_local_size(0) * get_local_size(1) * sizeof(half),
        get_global_size(0) * get_global_size(1) * sizeof(half),
        get_local_size(0) * get_local_size(1) * sizeof(half), 0);
}
__kernel void grn_dma(__global const half* restrict src_data, __global half* restrict dst_data,
    __local half* restrict src, __local half* restrict dst, int C, float bias)
{
    float variance = bias + 1e-9f;
    const int plane = get_local_size(1) * get_local_size(0);
    const int at = get_local_id(1) * get_local_size(0) + get_local_id(0);
    for (int c = 0; c < C; c++) { float val = (float)src[c * plane + at]; variance += val * val; }
    half hvariance = (half)(native_rsqrt((half)(variance / 16.f)) * 0.25f);
    for (int c = 0; c < C; c++) dst[c * plane + at] = src[c * plane + at] * hvariance;
}
__kernel void grn_plain(__global const half* restrict src_data, __global half* restrict dst_data,
    __local half* restrict src, __local half* restrict dst, int C, float bias)
{
    const int plane = get_global_size(1) * get_global_size(0);
    const int at = get_global_id(1) * get_global_size(0) + get_global_id(0);
    float variance = bias + 1e-9f;
    for (int c = 0; c < C; c++) { float val = (float)src_data[c * plane + at]; variance += val * val; }
    half hvariance = (half)(native_rsqrt((half)(variance / 16.f)) * 0.25f);
    for (int c = 0; c < C; c++) dst_data[c * plane + at] = src_data[c * plane + at] * hvariance;
}
__kernel void empty_kernel(__global half* p) { }
)";

std::string bench_xml(const std::string& name, const std::string& entry) {
    return "<CustomLayer name=\"" + name +
           "\" type=\"MVCL\" version=\"1\">\n"
           "<Kernel entry=\"" +
           entry +
           "\"><Source filename=\"bench_grn.cl\"/></Kernel>\n"
           "<Parameters>\n"
           "<Tensor arg-name=\"src_data\" type=\"input\" port-index=\"0\"/>\n"
           "<Tensor arg-name=\"dst_data\" type=\"output\" port-index=\"0\"/>\n"
           "<Data arg-name=\"src\" type=\"local_data\" dim=\"input,0\" size=\"X*F*2\"/>\n"
           "<Data arg-name=\"dst\" type=\"local_data\" dim=\"input,0\" size=\"X*F*2\"/>\n"
           "<Scalar arg-name=\"C\" type=\"int\" port-index=\"0\" source=\"I.F\"/>\n"
           "<Scalar arg-name=\"bias\" type=\"float\" source=\"bias\"/>\n"
           "</Parameters>\n"
           "<WorkSizes dim=\"input,0\" global=\"X,Y,1\" local=\"X,1,1\"/>\n"
           "</CustomLayer>\n";
}

void load_bench_bindings() {
    const std::string dir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
    std::ofstream(dir + "/bench_grn.cl") << grn_dma_source;
    std::ofstream(dir + "/bench_grn.xml")
        << bench_xml("GrnDma", "grn_dma") + bench_xml("GrnPlain", "grn_plain");
    runtime().load_bindings(dir + "/bench_grn.xml");
}

/// dma/ratio: the DMA GRN and the plain GRN alternately in every iteration (so both see the same
/// machine state); the counter dma_over_plain is the median DMA time over the median plain time,
/// the figure the emulation's target (at most 1.10) is about. The iteration time reported is the
/// DMA kernel's.
void bench_dma_ratio(benchmark::State& state, myriad::Shape shape) {
    using clock = std::chrono::steady_clock;
    myriad::Layer layers[2] = {runtime().create_layer(myriad::LayerSpec{
                                   "GrnDma", {{"bias", "1"}}, {shape}, {}, shape, {}}),
                               runtime().create_layer(myriad::LayerSpec{
                                   "GrnPlain", {{"bias", "1"}}, {shape}, {}, shape, {}})};
    const std::size_t bytes = count(shape) * myriad::size_of(layers[0].input_dtype(0));
    myriad::DeviceTensor in{device_buffer(bytes), shape, myriad::Layout::BFYX,
                            layers[0].input_dtype(0)};
    myriad::DeviceTensor out{device_buffer(bytes), shape, myriad::Layout::BFYX,
                             layers[0].output_dtype()};
    std::vector<double> seconds[2];
    auto timed = [&](myriad::Layer& layer) {
        const auto start = clock::now();
        layer.enqueue({in}, out);
        runtime().queue().finish();
        return std::chrono::duration<double>(clock::now() - start).count();
    };
    for (myriad::Layer& layer : layers) timed(layer);  // warm-up (first-launch compilation)
    for (auto _ : state) {
        seconds[0].push_back(timed(layers[0]));
        seconds[1].push_back(timed(layers[1]));
        state.SetIterationTime(seconds[0].back());
    }
    auto median = [](std::vector<double> v) {
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    const double dma = median(seconds[0]), plain = median(seconds[1]);
    state.counters["dma_us"] = dma * 1e6;
    state.counters["plain_us"] = plain * 1e6;
    state.counters["dma_over_plain"] = dma / plain;
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.3f", dma / plain);
    state.SetLabel("GrnDma/GrnPlain = " + std::string(ratio) + "x (target <= 1.10), " +
                   std::string(myriad::to_string(layers[0].precision())) + ", " +
                   shape_text(shape) + " on " + runtime().device_name());
}

void bench_launch_bare(benchmark::State& state) {
    cl::Program program(runtime().context(), "__kernel void empty_kernel(__global float* p) { }");
    program.build({runtime().device()});
    cl::Kernel kernel(program, "empty_kernel");
    cl::Buffer buffer = device_buffer(4);
    kernel.setArg(0, buffer);
    runtime().queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1));  // warm-up
    runtime().queue().finish();
    for (auto _ : state) {
        runtime().queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1));
        runtime().queue().finish();
    }
}

}  // namespace

int main(int argc, char** argv) {
    load_bench_bindings();
    for (const Case& c : memory_bound_cases(bench_shape())) {
        benchmark::RegisterBenchmark((std::string("myriad/") + c.name).c_str(), bench_layer, c.spec)
            ->UseRealTime();
        myriad::Layer probe = runtime().create_layer(c.spec);
        benchmark::RegisterBenchmark((std::string("copy/") + c.name).c_str(), bench_copy, c.spec,
                                     probe.input_dtype(0), probe.output_dtype())
            ->UseRealTime();
    }
    // Work groups of one line (local X): 2 x X*C halves of local memory (x2 promoted).
    const myriad::Shape grn_shape =
        cpu_device() ? myriad::Shape{1, 32, 104, 104} : myriad::Shape{1, 16, 4096, 256};
    for (const char* variant : {"GrnDma", "GrnPlain"})
        benchmark::RegisterBenchmark(
            (std::string("dma/") + variant).c_str(), bench_layer,
            myriad::LayerSpec{variant, {{"bias", "1"}}, {grn_shape}, {}, grn_shape, {}})
            ->UseRealTime();
    benchmark::RegisterBenchmark("dma/ratio", bench_dma_ratio, grn_shape)->UseManualTime();
    benchmark::RegisterBenchmark("launch/bare_kernel", bench_launch_bare)->UseRealTime();
    // Launch overhead: each layer on a 1x4x2x2 tensor.
    for (const Case& c : memory_bound_cases({1, 4, 2, 2}))
        benchmark::RegisterBenchmark((std::string("launch/") + c.name).c_str(), bench_layer, c.spec)
            ->UseRealTime();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
