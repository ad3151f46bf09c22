// test_dma_direct.cpp -- the direct path of DMA companions (Runtime::set_dma_direct,
// dma_mirror.h): which sources get it, and that layers give the results of the copies (values
// computed on the host from the seed's transaction semantics) with it on and off, including a
// geometry that needs both divisions of the index mapping, a geometry that is not a mirror at run
// time, and an in-place layer whose written region overlaps the region it reads.
#include <doctest/doctest.h>

#include "kernel_source.h"
#include "myriad/runtime.h"
#include "myriad_test_support.h"

using namespace myriad;
using myriad_test::check_close;
using myriad_test::ScratchDir;

namespace {

bool has_direct_path(const std::string& source, const std::string& entry) {
    return fuse_dma_companions(strip_comments(source), entry, true).find("__myriad_direct_") !=
           std::string::npos;
}

/// Companions around a body; `preload`, `body` and `postwrite` are the kernels' statements (no
/// postwrite kernel where `postwrite` is empty).
std::string companions(const std::string& preload, const std::string& body,
                       const std::string& postwrite) {
    const std::string params =
        "(__global const float* src, __global float* dst, __local float* a, __local float* b, "
        "int n)";
    return "__kernel void __dma_preload_k" + params + " {\n" + preload + "\n}\n__kernel void k" +
           params + " {\n" + body + "\n}\n" +
           (postwrite.empty()
                ? std::string()
                : "__kernel void __dma_postwrite_k" + params + " {\n" + postwrite + "\n}\n");
}

const char* const kPreload =
    "WorkGroupDmaCreateStrideTransaction(src + get_group_id(0) * n, a, n * 4, n * 4, n * 4, "
    "n * 4, n * 4, 0);";
const char* const kPostwrite =
    "WorkGroupDmaCreateStrideTransaction(b, dst + get_group_id(0) * n, n * 4, n * 4, n * 4, "
    "n * 4, n * 4, 0);";
const char* const kBody =
    "for (int i = get_local_id(0); i < n; i += get_local_size(0)) b[i] = a[i] * 2.0f;";

}  // namespace

TEST_CASE("DMA direct path: mirrors only, proven from the source, else the copies") {
    CHECK(has_direct_path(companions(kPreload, kBody, kPostwrite), "k"));
    CHECK_FALSE(
        fuse_dma_companions(strip_comments(companions(kPreload, kBody, kPostwrite)), "k", false)
            .find("__myriad_direct_") != std::string::npos);
    // Only a preload (the body's other __local buffer stays as it is).
    CHECK(
        has_direct_path(companions(kPreload, "for (int i = 0; i < n; ++i) b[i] = a[i];", ""), "k"));
    const std::pair<const char*, std::string> refused[] = {
        {"the body writes a preloaded buffer",
         companions(kPreload, "a[0] = 1.0f; b[0] = a[1];", kPostwrite)},
        {"the body reads a postwritten buffer",
         companions(kPreload, "b[0] = a[0]; b[1] = b[0];", kPostwrite)},
        {"the body takes a buffer's address", companions(kPreload, "b[0] = *(&a[1]);", kPostwrite)},
        {"the body passes a buffer on", companions(kPreload, "f(a); b[0] = 0;", kPostwrite)},
        {"a compound store", companions(kPreload, "b[0] += a[0];", kPostwrite)},
        {"a store inside an expression",
         companions(kPreload, "float x = b[0] = a[0];", kPostwrite)},
        {"the body names a global parameter",
         companions(kPreload, "b[0] = a[0] + src[0];", kPostwrite)},
        {"a barrier in a body that stores to a mirror",
         companions(kPreload, "barrier(CLK_LOCAL_MEM_FENCE); b[0] = a[0];", kPostwrite)},
        {"a work-item-dependent transaction",
         companions("WorkGroupDmaCreateStrideTransaction(src + get_local_id(0), a, 4, 4, 4, 4, "
                    "4, 0);",
                    kBody, kPostwrite)},
        {"a preload doing more than transactions",
         companions(std::string(kPreload) + " a[0] = 0;", kBody, kPostwrite)},
        {"one buffer in two transactions",
         companions(kPreload, kBody,
                    "WorkGroupDmaCreateStrideTransaction(a, dst, 4, 4, 4, 4, 4, 0);")},
        {"a local-to-local transaction",
         companions("WorkGroupDmaCreateStrideTransaction(b, a, 4, 4, 4, 4, 4, 0);", kBody,
                    kPostwrite)},
        {"a macro", "#define AT(i) a[i]\n" + companions(kPreload, kBody, kPostwrite)},
        {"an empty companion", companions(kPreload, kBody, " ")},
    };
    for (const auto& refusal : refused) {
        CAPTURE(refusal.first);
        CHECK_FALSE(has_direct_path(refusal.second, "k"));
    }
}

namespace {

/// Preload: a 3D transaction of `planes` planes of L elements in lines of W (partial last line)
/// at line stride SS and plane stride SP from src + group * GS. Body: b[k] = 2 a[k] + a[T-1-k].
/// Postwrite: b in lines of OW at line stride OS and plane stride OP to dst + group * GD.
std::string tile_kernel(const std::string& t) {
    const std::string params = "(__global const " + t + "* src, __global " + t + "* dst, __local " +
                               t + "* a, __local " + t +
                               "* b, int W, int L, int SS, int SP, int GS, int OW, int OS, "
                               "int OP, int GD, int planes)";
    return std::string(t == "half" ? "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" : "") +
           "__kernel void __dma_preload_tile_" + t + params +
           " {\n"
           "  WorkGroupDmaCreate3DTransaction(src + get_group_id(0) * GS, a, W * sizeof(" +
           t + "), W * sizeof(" + t + "), SS * sizeof(" + t + "), W * sizeof(" + t +
           "), planes, SP * sizeof(" + t + "), L * sizeof(" + t + "), L * sizeof(" + t +
           "), 0);\n}\n"
           "__kernel void tile_" +
           t + params +
           " {\n"
           "  const int T = planes * L;\n"
           "  for (int k = get_local_id(0); k < T; k += get_local_size(0))\n"
           "    b[k] = a[k] * 2 + a[T - 1 - k];\n}\n"
           "__kernel void __dma_postwrite_tile_" +
           t + params +
           " {\n"
           "  WorkGroupDmaCreate3DTransaction(b, dst + get_group_id(0) * GD, OW * sizeof(" +
           t + "), OW * sizeof(" + t + "), OW * sizeof(" + t + "), OS * sizeof(" + t +
           "), planes, L * sizeof(" + t + "), OP * sizeof(" + t + "), L * sizeof(" + t +
           "), 0);\n}\n";
}

std::string tile_xml(const std::string& t) {
    return myriad_test::src_dst_layer_xml(
        "Tile_" + t, "tile_" + t, "tile.cl", {{"a", "planes*L*4"}, {"b", "planes*L*4"}},
        {"W", "L", "SS", "SP", "GS", "OW", "OS", "OP", "GD", "planes"},
        R"(dim="output,0" global="16,1,1" local="8,1,1")");
}

struct TileGeometry {
    const char* what;
    int W, L, SS, SP, GS, OW, OS, OP, GD, planes, in, out;
};

/// The host's run of the two work groups: copies as the seed defines them, then the body.
std::vector<double> tile_reference(const TileGeometry& g, const std::vector<float>& src) {
    std::vector<double> out(static_cast<std::size_t>(g.out), 0.0);
    const int T = g.planes * g.L;
    for (int group = 0; group < 2; ++group) {
        std::vector<double> a(static_cast<std::size_t>(T)), b(a.size());
        for (int p = 0; p < g.planes; ++p)
            for (int k = 0; k < g.L; ++k)
                a[p * g.L + k] = src[group * g.GS + p * g.SP + (k / g.W) * g.SS + k % g.W];
        for (int k = 0; k < T; ++k) b[k] = a[k] * 2 + a[T - 1 - k];
        for (int p = 0; p < g.planes; ++p)
            for (int k = 0; k < g.L; ++k)
                out[group * g.GD + p * g.OP + (k / g.OW) * g.OS + k % g.OW] = b[p * g.L + k];
    }
    return out;
}

}  // namespace

TEST_CASE("DMA direct path: the copies' results on float and half data, on and off") {
    ScratchDir dir("dma_direct");
    dir.write("tile.cl", tile_kernel("float") + tile_kernel("half"));
    // The output is covered exactly: the groups' lines interleave (OS = 2 OW).
    const TileGeometry geometries[] = {
        {"lines and planes apart (both index divisions)", 3, 8, 5, 17, 40, 4, 8, 16, 4, 2, 80, 32},
        {"one-line planes", 8, 8, 8, 20, 40, 8, 16, 16, 8, 2, 80, 32},
        {"contiguous planes", 4, 8, 4, 8, 16, 8, 8, 8, 16, 2, 32, 32},
        {"contiguous reads, two lines a plane written", 4, 6, 4, 6, 12, 3, 6, 12, 3, 2, 24, 24},
    };
    for (const bool direct : {false, true}) {
        Runtime rt(myriad_test::device_index());
        rt.set_dma_direct(direct);
        rt.load_bindings(dir.write("tile.xml", tile_xml("float") + tile_xml("half")));
        for (const char* type : {"float", "half"}) {
            for (const TileGeometry& g : geometries) {
                CAPTURE(direct);
                CAPTURE(type);
                CAPTURE(g.what);
                LayerParams params;
                const int values[] = {g.W, g.L, g.SS, g.SP, g.GS, g.OW, g.OS, g.OP, g.GD, g.planes};
                const char* names[] = {"W",  "L",  "SS", "SP", "GS",
                                       "OW", "OS", "OP", "GD", "planes"};
                for (int k = 0; k < 10; ++k) params[names[k]] = std::to_string(values[k]);
                Layer layer = rt.create_layer(
                    LayerSpec{std::string("Tile_") + type, params, {{g.in}}, {}, {g.out}, {}});
                std::vector<float> src(static_cast<std::size_t>(g.in));
                for (int i = 0; i < g.in; ++i) src[i] = static_cast<float>(i % 50 + 1);
                check_close(layer.run({{{g.in}, Layout::BFYX, src}}).values, tile_reference(g, src),
                            0, 0);
            }
        }
    }
}

namespace {

/// In place: the preload reads the output's region, the body shifts it by one and adds one, the
/// postwrite stores it back over the same region. One work item per group, so a body running on
/// the global region would see its own stores.
const char* const shift_cl = R"(
__kernel void __dma_preload_shift(__global const float* src, __global float* dst,
    __local float* a, __local float* b, int N) {
    WorkGroupDmaCreateStrideTransaction(dst + get_group_id(0) * N, a, N * 4, N * 4, N * 4, N * 4,
                                        N * 4, 0);
}
__kernel void shift(__global const float* src, __global float* dst, __local float* a,
    __local float* b, int N) {
    for (int k = 0; k < N; ++k) b[k] = a[k > 0 ? k - 1 : 0] + 1.0f;
}
__kernel void __dma_postwrite_shift(__global const float* src, __global float* dst,
    __local float* a, __local float* b, int N) {
    WorkGroupDmaCreateStrideTransaction(b, dst + get_group_id(0) * N, N * 4, N * 4, N * 4, N * 4,
                                        N * 4, 0);
}
)";

const std::string shift_xml =
    myriad_test::src_dst_layer_xml("Shift", "shift", "shift.cl", {{"a", "X*2"}, {"b", "X*2"}},
                                   {"N"}, R"(dim="output,0" global="2,1,1" local="1,1,1")");

}  // namespace

TEST_CASE("DMA direct path: a written region overlapping a read one takes the copies") {
    ScratchDir dir("dma_direct_overlap");
    dir.write("shift.cl", shift_cl);
    const int N = 6;
    std::vector<float> before(2 * N);
    for (int i = 0; i < 2 * N; ++i) before[i] = static_cast<float>(10 * i);
    std::vector<double> want(before.size());
    for (int g = 0; g < 2; ++g)
        for (int k = 0; k < N; ++k) want[g * N + k] = before[g * N + (k > 0 ? k - 1 : 0)] + 1.0;
    for (const bool direct : {false, true}) {
        CAPTURE(direct);
        Runtime rt(myriad_test::device_index());
        rt.set_dma_direct(direct);
        rt.load_bindings(dir.write("shift.xml", shift_xml));
        Layer layer = rt.create_layer(
            LayerSpec{"Shift", {{"N", std::to_string(N)}}, {{2 * N}}, {}, {2 * N}, {}});
        const std::size_t bytes = before.size() * sizeof(float);
        cl::Buffer in(rt.context(), CL_MEM_READ_WRITE, bytes);
        cl::Buffer out(rt.context(),
                       static_cast<cl_mem_flags>(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR), bytes,
                       static_cast<void*>(before.data()));
        layer.enqueue({DeviceTensor{in, {2 * N}, Layout::BFYX, DType::f32}},
                      DeviceTensor{out, {2 * N}, Layout::BFYX, DType::f32});
        std::vector<float> got(before.size());
        rt.queue().enqueueReadBuffer(out, CL_TRUE, 0, bytes, got.data());
        check_close(got, want, 0, 0);
    }
}
