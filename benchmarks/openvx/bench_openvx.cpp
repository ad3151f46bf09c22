// bench_openvx.cpp: the OpenVX backend's Q7.8 layers against oneDNN fp32 on the same shapes
// (Google Benchmark), 1 and 2 threads: convolution 3x3 64->64 on 56x56 (pad 1), fully connected
// 4096->4096, max pooling 3x3 stride 2 pad 1 of 64x112x112 and an element-wise add of two
// 64x56x56 tensors (saturating), named openvx/<case>/<n>T and onednn/<case>/<n>T, wall-clock
// time. The OpenVX library's threads are oneTBB's (limited with tbb::global_control), oneDNN's
// are OpenMP's (omp_set_num_threads). The OpenVX graphs are verified once; each iteration is one
// vxProcessGraph.
#include <VX/vx_khr_cnn.h>
#include <benchmark/benchmark.h>
#include <omp.h>
#include <tbb/global_control.h>

#include <cstdint>
#include <dnnl.hpp>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

vx_tensor random_tensor(vx_context context, std::vector<vx_uint32> dims, int lo, int hi) {
    vx_tensor t =
        vxCreateTensor(context, static_cast<vx_uint32>(dims.size()), dims.data(), VX_TYPE_INT16, 8);
    std::vector<vx_uint32> strides(dims.size());
    vx_uint32 step = 2;
    std::size_t count = 1;
    for (std::size_t d = 0; d < dims.size(); ++d) {
        strides[d] = step;
        step *= dims[d];
        count *= dims[d];
    }
    std::vector<std::int16_t> values(count);
    std::mt19937 gen(7);
    std::uniform_int_distribution<int> dist(lo, hi);
    for (auto& v : values) v = static_cast<std::int16_t>(dist(gen));
    vx_tensor_addressing addr = vxCreateTensorAddressing(context, dims.data(), strides.data(),
                                                         static_cast<vx_uint8>(dims.size()));
    vxCopyTensorPatch(t, nullptr, addr, values.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
    vxReleaseTensorAddressing(&addr);
    return t;
}

/// One verified single-layer graph; released with the context.
struct vx_layer {
    vx_context context = vxCreateContext();
    vx_graph graph = vxCreateGraph(context);
    ~vx_layer() { vxReleaseContext(&context); }
};

void openvx_conv(benchmark::State& state, int threads) {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                    static_cast<std::size_t>(threads));
    vx_layer l;
    vx_tensor in = random_tensor(l.context, {56, 56, 64}, -256, 256);
    vx_tensor w = random_tensor(l.context, {3, 3, 64, 64}, -16, 16);
    vx_tensor b = random_tensor(l.context, {64}, -256, 256);
    vx_tensor out = random_tensor(l.context, {56, 56, 64}, 0, 0);
    vxConvolutionLayer(l.graph, in, w, b, 1, 1, 32, VX_CONVERT_POLICY_SATURATE,
                       VX_ROUND_POLICY_TO_NEAREST_EVEN,
                       VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
    if (vxVerifyGraph(l.graph) != VX_SUCCESS) state.SkipWithError("verify failed");
    for (auto _ : state) vxProcessGraph(l.graph);
    state.counters["GFLOP/s"] = benchmark::Counter(2.0 * 56 * 56 * 64 * 64 * 9,
                                                   benchmark::Counter::kIsIterationInvariantRate,
                                                   benchmark::Counter::OneK::kIs1000);
}

void openvx_fc(benchmark::State& state, int threads) {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                    static_cast<std::size_t>(threads));
    vx_layer l;
    vx_tensor in = random_tensor(l.context, {4096}, -256, 256);
    vx_tensor w = random_tensor(l.context, {4096, 4096}, -16, 16);
    vx_tensor b = random_tensor(l.context, {4096}, -256, 256);
    vx_tensor out = random_tensor(l.context, {4096}, 0, 0);
    vxFullyConnectedLayer(l.graph, in, w, b, 0, 32, VX_CONVERT_POLICY_SATURATE,
                          VX_ROUND_POLICY_TO_NEAREST_EVEN,
                          VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
    if (vxVerifyGraph(l.graph) != VX_SUCCESS) state.SkipWithError("verify failed");
    for (auto _ : state) vxProcessGraph(l.graph);
    state.counters["GFLOP/s"] =
        benchmark::Counter(2.0 * 4096 * 4096, benchmark::Counter::kIsIterationInvariantRate,
                           benchmark::Counter::OneK::kIs1000);
}

void openvx_pool(benchmark::State& state, int threads) {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                    static_cast<std::size_t>(threads));
    vx_layer l;
    vx_tensor in = random_tensor(l.context, {112, 112, 64}, -256, 256);
    vx_tensor out = random_tensor(l.context, {56, 56, 64}, 0, 0);
    vxPoolingLayer(l.graph, in, VX_CONVOLUTIONAL_NETWORK_POOLING_MAX, 3, 3, 1, 1,
                   VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
    if (vxVerifyGraph(l.graph) != VX_SUCCESS) state.SkipWithError("verify failed");
    for (auto _ : state) vxProcessGraph(l.graph);
}

void openvx_add(benchmark::State& state, int threads) {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                    static_cast<std::size_t>(threads));
    vx_layer l;
    vx_tensor a = random_tensor(l.context, {56, 56, 64}, -32768, 32767);
    vx_tensor b = random_tensor(l.context, {56, 56, 64}, -32768, 32767);
    vx_tensor out = random_tensor(l.context, {56, 56, 64}, 0, 0);
    vxTensorAddNode(l.graph, a, b, VX_CONVERT_POLICY_SATURATE, out);
    if (vxVerifyGraph(l.graph) != VX_SUCCESS) state.SkipWithError("verify failed");
    for (auto _ : state) vxProcessGraph(l.graph);
}

void fill(dnnl::memory& m) {
    auto* p = static_cast<float*>(m.get_data_handle());
    const std::size_t n = m.get_desc().get_size() / sizeof(float);
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<float>(i % 17) / 17.0f - 0.5f;
}

void onednn_conv(benchmark::State& state, int threads) {
    omp_set_num_threads(threads);
    using namespace dnnl;
    using tag = memory::format_tag;
    using dt = memory::data_type;
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    memory::desc src_md({1, 64, 56, 56}, dt::f32, tag::any),
        wei_md({64, 64, 3, 3}, dt::f32, tag::any), bias_md({64}, dt::f32, tag::x),
        dst_md({1, 64, 56, 56}, dt::f32, tag::any);
    convolution_forward::desc desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                   src_md, wei_md, bias_md, dst_md, {1, 1}, {1, 1}, {1, 1});
    convolution_forward::primitive_desc pd(desc, eng);
    memory src(pd.src_desc(), eng), wei(pd.weights_desc(), eng), bias(pd.bias_desc(), eng),
        dst(pd.dst_desc(), eng);
    for (memory* m : {&src, &wei, &bias, &dst}) fill(*m);
    convolution_forward conv(pd);
    for (auto _ : state) {
        conv.execute(s, {{DNNL_ARG_SRC, src},
                         {DNNL_ARG_WEIGHTS, wei},
                         {DNNL_ARG_BIAS, bias},
                         {DNNL_ARG_DST, dst}});
        s.wait();
    }
    state.counters["GFLOP/s"] = benchmark::Counter(2.0 * 56 * 56 * 64 * 64 * 9,
                                                   benchmark::Counter::kIsIterationInvariantRate,
                                                   benchmark::Counter::OneK::kIs1000);
}

void onednn_fc(benchmark::State& state, int threads) {
    omp_set_num_threads(threads);
    using namespace dnnl;
    using tag = memory::format_tag;
    using dt = memory::data_type;
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    memory::desc src_md({1, 4096}, dt::f32, tag::any), wei_md({4096, 4096}, dt::f32, tag::any),
        bias_md({4096}, dt::f32, tag::x), dst_md({1, 4096}, dt::f32, tag::any);
    inner_product_forward::desc desc(prop_kind::forward_inference, src_md, wei_md, bias_md, dst_md);
    inner_product_forward::primitive_desc pd(desc, eng);
    memory src(pd.src_desc(), eng), wei(pd.weights_desc(), eng), bias(pd.bias_desc(), eng),
        dst(pd.dst_desc(), eng);
    for (memory* m : {&src, &wei, &bias, &dst}) fill(*m);
    inner_product_forward fc(pd);
    for (auto _ : state) {
        fc.execute(s, {{DNNL_ARG_SRC, src},
                       {DNNL_ARG_WEIGHTS, wei},
                       {DNNL_ARG_BIAS, bias},
                       {DNNL_ARG_DST, dst}});
        s.wait();
    }
    state.counters["GFLOP/s"] =
        benchmark::Counter(2.0 * 4096 * 4096, benchmark::Counter::kIsIterationInvariantRate,
                           benchmark::Counter::OneK::kIs1000);
}

void onednn_pool(benchmark::State& state, int threads) {
    omp_set_num_threads(threads);
    using namespace dnnl;
    using tag = memory::format_tag;
    using dt = memory::data_type;
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    memory::desc src_md({1, 64, 112, 112}, dt::f32, tag::nChw16c),
        dst_md({1, 64, 56, 56}, dt::f32, tag::nChw16c);
    pooling_forward::desc desc(prop_kind::forward_inference, algorithm::pooling_max, src_md, dst_md,
                               {2, 2}, {3, 3}, {1, 1}, {1, 1});
    pooling_forward::primitive_desc pd(desc, eng);
    memory src(pd.src_desc(), eng), dst(pd.dst_desc(), eng);
    for (memory* m : {&src, &dst}) fill(*m);
    pooling_forward pool(pd);
    for (auto _ : state) {
        pool.execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
        s.wait();
    }
}

void onednn_add(benchmark::State& state, int threads) {
    omp_set_num_threads(threads);
    using namespace dnnl;
    using tag = memory::format_tag;
    using dt = memory::data_type;
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::desc md({1, 64, 56, 56}, dt::f32, tag::nChw16c);
    binary::desc desc(algorithm::binary_add, md, md, md);
    binary::primitive_desc pd(desc, eng);
    memory a(md, eng), b(md, eng), dst(md, eng);
    for (memory* m : {&a, &b, &dst}) fill(*m);
    binary add(pd);
    for (auto _ : state) {
        add.execute(s, {{DNNL_ARG_SRC_0, a}, {DNNL_ARG_SRC_1, b}, {DNNL_ARG_DST, dst}});
        s.wait();
    }
}

// Each case at 1 and 2 threads, the two libraries side by side.
void register_cases() {
    using case_fn = void (*)(benchmark::State&, int);
    const std::pair<const char*, case_fn> cases[] = {{"openvx/conv3x3_64_56", openvx_conv},
                                                     {"onednn/conv3x3_64_56", onednn_conv},
                                                     {"openvx/fc4096", openvx_fc},
                                                     {"onednn/fc4096", onednn_fc},
                                                     {"openvx/maxpool3x3s2_64_112", openvx_pool},
                                                     {"onednn/maxpool3x3s2_64_112", onednn_pool},
                                                     {"openvx/add_64_56", openvx_add},
                                                     {"onednn/add_64_56", onednn_add}};
    for (int threads : {1, 2})
        for (const auto& [name, fn] : cases) {
            const std::string full = std::string(name) + "/" + std::to_string(threads) + "T";
            benchmark::RegisterBenchmark(
                full.c_str(), [fn = fn, threads](benchmark::State& state) { fn(state, threads); })
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
        }
}

}  // namespace

int main(int argc, char** argv) {
    register_cases();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
