// Benchmarks of the zDNN emulator. zaiu/<case> runs through the zDNN API; memcpy/<case> and
// onednn/<case> are comparators on the same data: transforms (FP32 NHWC -> DLFLOAT16 sticks and
// back, bytes/s of FP32 data) against memcpy and a oneDNN reorder to nChw16c, and a 1024^3 matmul
// (transforms included) against dnnl_sgemm (FLOP/s).
#include <benchmark/benchmark.h>
#include <oneapi/dnnl/dnnl.h>
#include <zdnn.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <cstring>
#include <random>
#include <vector>

namespace {

std::vector<float> random_data(size_t n) {
    std::mt19937 gen(42);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v) x = dist(gen);
    return v;
}

struct Feature {
    zdnn_tensor_desc pre{}, tf{};
    zdnn_ztensor z{};
    Feature(uint32_t n, uint32_t h, uint32_t w, uint32_t c) {
        zdnn_init_pre_transformed_desc(ZDNN_NHWC, FP32, &pre, n, h, w, c);
        zdnn_generate_transformed_desc(&pre, &tf);
        zdnn_init_ztensor_with_malloc(&pre, &tf, &z);
    }
    ~Feature() { zdnn_free_ztensor_buffer(&z); }
};

void set_bytes(benchmark::State& state, size_t bytes) {
    state.counters["bytes_per_second"] = benchmark::Counter(
        static_cast<double>(bytes), benchmark::Counter::kIsIterationInvariantRate);
}

void zaiu_transform(benchmark::State& state, uint32_t n, uint32_t h, uint32_t w, uint32_t c) {
    Feature t(n, h, w, c);
    const auto data = random_data(size_t(n) * h * w * c);
    for (auto _ : state) {
        zdnn_reset_ztensor(&t.z);
        if (zdnn_transform_ztensor(&t.z, data.data()) != ZDNN_OK)
            state.SkipWithError("transform failed");
        benchmark::ClobberMemory();
    }
    set_bytes(state, data.size() * 4);
}

void zaiu_origtensor(benchmark::State& state, uint32_t n, uint32_t h, uint32_t w, uint32_t c) {
    Feature t(n, h, w, c);
    const auto data = random_data(size_t(n) * h * w * c);
    zdnn_transform_ztensor(&t.z, data.data());
    std::vector<float> out(data.size());
    for (auto _ : state) {
        if (zdnn_transform_origtensor(&t.z, out.data()) != ZDNN_OK)
            state.SkipWithError("origtensor failed");
        benchmark::ClobberMemory();
    }
    set_bytes(state, data.size() * 4);
}

void memcpy_copy(benchmark::State& state, uint32_t n, uint32_t h, uint32_t w, uint32_t c) {
    const auto data = random_data(size_t(n) * h * w * c);
    std::vector<float> out(data.size());
    for (auto _ : state) {
        std::memcpy(out.data(), data.data(), data.size() * 4);
        benchmark::ClobberMemory();
    }
    set_bytes(state, data.size() * 4);
}

void onednn_reorder(benchmark::State& state, uint32_t n, uint32_t h, uint32_t w, uint32_t c,
                    bool to_blocked) {
    using namespace dnnl;
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    const memory::dims dims = {n, c, h, w};
    memory::desc plain(dims, memory::data_type::f32, memory::format_tag::nhwc);
    memory::desc blocked(dims, memory::data_type::f32, memory::format_tag::nChw16c);
    memory src(to_blocked ? plain : blocked, eng), dst(to_blocked ? blocked : plain, eng);
    auto data = random_data(size_t(n) * h * w * c);
    std::memcpy(src.get_data_handle(), data.data(), data.size() * 4);
    reorder r(src, dst);
    for (auto _ : state) {
        r.execute(strm, src, dst);
        strm.wait();
    }
    set_bytes(state, data.size() * 4);
}

struct Matmul2D {
    zdnn_tensor_desc pre{}, tf{};
    zdnn_ztensor z{};
    Matmul2D(zdnn_data_layouts layout, uint32_t a, uint32_t b = 0) {
        if (layout == ZDNN_1D)
            zdnn_init_pre_transformed_desc(layout, FP32, &pre, a);
        else
            zdnn_init_pre_transformed_desc(layout, FP32, &pre, a, b);
        zdnn_generate_transformed_desc(&pre, &tf);
        zdnn_init_ztensor_with_malloc(&pre, &tf, &z);
    }
    ~Matmul2D() { zdnn_free_ztensor_buffer(&z); }
};

void set_flops(benchmark::State& state, double flops) {
    state.counters["flops"] =
        benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}

void zaiu_matmul(benchmark::State& state, bool include_transforms) {
    const uint32_t n = static_cast<uint32_t>(state.range(0));
    Matmul2D a(ZDNN_2D, n, n), b(ZDNN_2D, n, n), c(ZDNN_1D, n), out(ZDNN_2D, n, n);
    const auto av = random_data(size_t(n) * n), bv = random_data(size_t(n) * n);
    const std::vector<float> cv(n, 0.0f);
    std::vector<float> result(size_t(n) * n);
    zdnn_transform_ztensor(&a.z, av.data());
    zdnn_transform_ztensor(&b.z, bv.data());
    zdnn_transform_ztensor(&c.z, cv.data());
    for (auto _ : state) {
        if (include_transforms) {
            zdnn_reset_ztensor(&a.z);
            zdnn_reset_ztensor(&b.z);
            zdnn_reset_ztensor(&c.z);
            zdnn_transform_ztensor(&a.z, av.data());
            zdnn_transform_ztensor(&b.z, bv.data());
            zdnn_transform_ztensor(&c.z, cv.data());
        }
        zdnn_reset_ztensor(&out.z);
        if (zdnn_matmul_op(&a.z, &b.z, &c.z, MATMUL_OP_ADDITION, &out.z) != ZDNN_OK)
            state.SkipWithError("matmul failed");
        if (include_transforms) zdnn_transform_origtensor(&out.z, result.data());
        benchmark::ClobberMemory();
    }
    set_flops(state, 2.0 * n * n * n);
}

void onednn_sgemm(benchmark::State& state) {
    const int64_t n = state.range(0);
    const auto a = random_data(size_t(n) * n), b = random_data(size_t(n) * n);
    std::vector<float> c(size_t(n) * n);
    for (auto _ : state) {
        dnnl_sgemm('N', 'N', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
        benchmark::ClobberMemory();
    }
    set_flops(state, 2.0 * n * n * n);
}

}  // namespace

BENCHMARK_CAPTURE(zaiu_transform, nhwc_1x56x56x64, 1, 56, 56, 64)
    ->Name("zaiu/transform/nhwc_1x56x56x64")
    ->UseRealTime();
BENCHMARK_CAPTURE(memcpy_copy, nhwc_1x56x56x64, 1, 56, 56, 64)
    ->Name("memcpy/transform/nhwc_1x56x56x64")
    ->UseRealTime();
BENCHMARK_CAPTURE(onednn_reorder, nhwc_1x56x56x64, 1, 56, 56, 64, true)
    ->Name("onednn/transform/nhwc_1x56x56x64")
    ->UseRealTime();
BENCHMARK_CAPTURE(zaiu_origtensor, nhwc_1x56x56x64, 1, 56, 56, 64)
    ->Name("zaiu/transform_origtensor/nhwc_1x56x56x64")
    ->UseRealTime();
BENCHMARK_CAPTURE(memcpy_copy, nhwc_1x56x56x64_back, 1, 56, 56, 64)
    ->Name("memcpy/transform_origtensor/nhwc_1x56x56x64")
    ->UseRealTime();
BENCHMARK_CAPTURE(onednn_reorder, nhwc_1x56x56x64_back, 1, 56, 56, 64, false)
    ->Name("onednn/transform_origtensor/nhwc_1x56x56x64")
    ->UseRealTime();
BENCHMARK_CAPTURE(zaiu_transform, nhwc_1x224x224x3, 1, 224, 224, 3)
    ->Name("zaiu/transform/nhwc_1x224x224x3")
    ->UseRealTime();
BENCHMARK_CAPTURE(memcpy_copy, nhwc_1x224x224x3, 1, 224, 224, 3)
    ->Name("memcpy/transform/nhwc_1x224x224x3")
    ->UseRealTime();
BENCHMARK_CAPTURE(onednn_reorder, nhwc_1x224x224x3, 1, 224, 224, 3, true)
    ->Name("onednn/transform/nhwc_1x224x224x3")
    ->UseRealTime();
BENCHMARK_CAPTURE(zaiu_origtensor, nhwc_1x224x224x3, 1, 224, 224, 3)
    ->Name("zaiu/transform_origtensor/nhwc_1x224x224x3")
    ->UseRealTime();
BENCHMARK_CAPTURE(memcpy_copy, nhwc_1x224x224x3_back, 1, 224, 224, 3)
    ->Name("memcpy/transform_origtensor/nhwc_1x224x224x3")
    ->UseRealTime();
BENCHMARK_CAPTURE(onednn_reorder, nhwc_1x224x224x3_back, 1, 224, 224, 3, false)
    ->Name("onednn/transform_origtensor/nhwc_1x224x224x3")
    ->UseRealTime();
BENCHMARK_CAPTURE(zaiu_transform, nhwc_1x1x1024x1024, 1, 1, 1024, 1024)
    ->Name("zaiu/transform/nhwc_1x1x1024x1024")
    ->UseRealTime();
BENCHMARK_CAPTURE(zaiu_origtensor, nhwc_1x1x1024x1024, 1, 1, 1024, 1024)
    ->Name("zaiu/transform_origtensor/nhwc_1x1x1024x1024")
    ->UseRealTime();
BENCHMARK_CAPTURE(memcpy_copy, nhwc_1x1x1024x1024, 1, 1, 1024, 1024)
    ->Name("memcpy/transform/nhwc_1x1x1024x1024")
    ->UseRealTime();
BENCHMARK_CAPTURE(zaiu_matmul, with_transforms, true)
    ->Name("zaiu/matmul")
    ->Arg(1024)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(zaiu_matmul, op_only, false)
    ->Name("zaiu/matmul_op_only")
    ->Arg(1024)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(onednn_sgemm)
    ->Name("onednn/matmul")
    ->Arg(1024)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
