// test_kernel_source.cpp -- kernel signatures and the half-to-float rewriting, checked against
// hand-written expected text.
#include <doctest/doctest.h>

#include <algorithm>

#include "dma_prelude.h"
#include "half_storage.h"
#include "kernel_source.h"
#include "runtime_state.h"

using namespace myriad;

TEST_CASE("kernel source: signatures with qualifiers / vectors and comments") {
    const std::string src = strip_comments(R"(
// __kernel void fake(int a) {}
/* __kernel void grn(int wrong) {} */
void helper(int x);
__kernel void grn(__global const half* restrict src_data, // data
                  __global half8 *dst, __local float* scratch, unsigned int n, float bias)
{ }
)");
    CHECK_FALSE(find_kernel(src, "fake").has_value());
    CHECK_FALSE(find_kernel(src, "helper").has_value());
    const auto sig = find_kernel(src, "grn");
    REQUIRE(sig.has_value());
    REQUIRE(sig->args.size() == 5);
    CHECK(sig->args[0].name == "src_data");
    CHECK(sig->args[0].space == AddressSpace::global);
    CHECK(sig->args[0].is_pointer);
    CHECK(sig->args[0].scalar_type == "half");
    CHECK(sig->args[1].scalar_type == "half");
    CHECK(sig->args[1].vector_width == 8);
    CHECK(sig->args[2].space == AddressSpace::local);
    CHECK(sig->args[3].scalar_type == "uint");
    CHECK_FALSE(sig->args[3].is_pointer);
    CHECK(sig->args[4].name == "bias");
}

TEST_CASE("kernel source: half promoted to float in types / conversions / vload/vstore") {
    const std::string src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "half a; half8 b = convert_half8_sat_rte(x); half_exp(y); "
        "native_sqrt(z); vload_half(0, p); vload_half4(1, p); "
        "vstore_half_rtz(v, 0, q); vstorea_half8(w, 2, q); "
        "convert_half(f); as_short(s); halfway; my_half; \"half\"";
    const std::string out = promote_half(src);
    CHECK(out ==
          "\n"
          "float a; float8 b = convert_float8_rte(x); half_exp(y); "
          "native_sqrt(z); __myriad_vload_half1(0, p); vload4(1, p); "
          "__myriad_vstore_half1(v, 0, q); vstore8(w, 2, q); "
          "convert_float(f); as_short(s); halfway; my_half; \"half\"");
    CHECK(uses_half(src));
    CHECK_FALSE(uses_half("float halfway; half_exp(x);"));
}

TEST_CASE("kernel source: DMA companions fused into one kernel per work group") {
    const std::string src = strip_comments(R"(
__kernel void __dma_preload_k(__global const half* a, __global half* b, __local half* la) { }
__kernel void k(__global const half* a, __global half* b, __local half* la) { }
)");
    const std::string fused = fuse_dma_companions(src, "k");
    CHECK(find_kernel(fused, "__myriad_body_k").has_value());
    const auto wrapper = find_kernel(fused, "k");
    REQUIRE(wrapper.has_value());
    CHECK(wrapper->args.size() == 3);
    CHECK(fused.find("__dma_preload_k(a, b, la);") != std::string::npos);
    CHECK(fused.find("__myriad_body_k(a, b, la);") != std::string::npos);
    CHECK(fused.find("__dma_postwrite_k") == std::string::npos);
    CHECK(fuse_dma_companions(src, "other") == src);
}

TEST_CASE("kernel source: companion transactions wait at the fused kernel's barriers only") {
    const std::string src = strip_comments(R"(
__kernel void __dma_preload_k(__global const float* a, __global float* b, __local float* l) {
    WorkGroupDmaCreate3DTransaction(a, l, 8, 8, 8, 8, 2, 64, 8, 8, 0);
}
__kernel void k(__global const float* a, __global float* b, __local float* l) {
    WorkGroupDmaCreateStrideTransaction(a, l, 8, 8, 8, 8, 8, 0);
}
__kernel void __dma_postwrite_k(__global const float* a, __global float* b, __local float* l) {
    WorkGroupDmaCreateStrideTransaction(l, b, 8, 8, 8, 8, 8, 0);
}
)");
    const std::string fused = fuse_dma_companions(src, "k");
    const std::string deferred = kDeferredDmaPrefix;
    // The companions' copies complete at the fused kernel's two barriers (and its end); the
    // body's transaction keeps its own wait.
    CHECK(fused.find(deferred + "WorkGroupDmaCreate3DTransaction(a, l,") != std::string::npos);
    CHECK(fused.find(deferred + "WorkGroupDmaCreateStrideTransaction(l, b,") != std::string::npos);
    CHECK(fused.find(" WorkGroupDmaCreateStrideTransaction(a, l,") != std::string::npos);
    const std::string wrapper = fused.substr(fused.rfind("__kernel void k("));
    std::size_t barriers = 0;
    for (std::size_t at = wrapper.find("barrier("); at != std::string::npos;
         at = wrapper.find("barrier(", at + 1))
        ++barriers;
    CHECK(barriers == 2);
    // Line numbers of the source stay where they were.
    const auto lines_before = [](const std::string& text, const std::string& what) {
        const auto end = text.begin() + static_cast<std::ptrdiff_t>(text.find(what));
        return std::count(text.begin(), end, '\n');
    };
    CHECK(lines_before(fused, "__dma_postwrite_k(") == lines_before(src, "__dma_postwrite_k("));
}

TEST_CASE(
    "kernel source: fused DMA programs copy with sixteen loads in flight, register-capped "
    "on NVIDIA's driver") {
    const std::string src = R"(
__kernel void __dma_preload_k(__global const float* a, __global float* b, __local float* l) {
    WorkGroupDmaCreateStrideTransaction(a, l, 64, 64, 64, 64, 1024, 0);
}
__kernel void k(__global const float* a, __global float* b, __local float* l) { }
)";
    const std::string fused = program_text(src, "k", false, false);
    const std::string plain = program_text(src, "__dma_preload_k", false, false);
    CHECK(has_fused_companions(fused));
    CHECK_FALSE(has_fused_companions(plain));
    // A row copy keeps loads v0..v15 in flight in the fused program, v0..v7 elsewhere.
    const std::string sixteenth = "const float v15 = src[";
    CHECK(fused.find(sixteenth) != std::string::npos);
    CHECK(plain.find(sixteenth) == std::string::npos);
    CHECK(plain.find("const float v7 = src[") != std::string::npos);
    // The half-storage path (half buffers kept) fuses and copies the same way.
    const std::string half_src = R"(
__kernel void __dma_preload_h(__global const half* a, __global half* b, __local half* l) {
    WorkGroupDmaCreateStrideTransaction(a, l, 64, 64, 64, 64, 1024, 0);
}
__kernel void h(__global const half* a, __global half* b, __local half* l) { }
)";
    const auto half_fused = program_text_half_storage(half_src, "h");
    REQUIRE(half_fused.has_value());
    CHECK(half_fused->find("const ushort v15 = src[") != std::string::npos);
    // The register cap is asked only of NVIDIA's compiler, only for fused programs.
    Runtime::State nvidia;
    nvidia.nv_compiler_options = true;
    CHECK(nvidia.build_options(fused) == "-cl-nv-maxrregcount=32");
    CHECK(nvidia.build_options(plain).empty());
    Runtime::State other;
    CHECK(other.build_options(fused).empty());
}

#ifdef MYRIAD_OFFLINE_CLANG
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "myriad/bindings.h"

namespace {
/// Compiles program text for a device with cl_khr_fp16 (SPIR target) with the offline clang.
bool compiles_with_fp16(const std::string& text, const std::string& name) {
    const std::string path = std::string(MYRIAD_TEST_TMPDIR) + "/fp16_" + name + ".cl";
    std::filesystem::create_directories(MYRIAD_TEST_TMPDIR);
    std::ofstream(path) << text;
    const std::string command = std::string(MYRIAD_OFFLINE_CLANG) +
                                " -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -Xclang "
                                "-cl-ext=+cl_khr_fp16 -target spir64 -fsyntax-only " +
                                path;
    return std::system(command.c_str()) == 0;
}
}  // namespace

TEST_CASE("kernel source: half kernels as written (devices with cl_khr_fp16) compile offline") {
    if (!std::filesystem::exists(MYRIAD_OFFLINE_CLANG)) {
        MESSAGE("the offline compiler " MYRIAD_OFFLINE_CLANG
                " found at configure time is not "
                "on this machine: fp16 programs not compiled");
        return;
    }
    // The shipped layers, unpromoted, with the half overloads of the DMA builtins in the prelude.
    int stages = 0;
    for (const auto& entry : std::filesystem::directory_iterator(MYRIAD_LAYERS_DIR)) {
        if (entry.path().extension() != ".xml") continue;
        for (const CustomLayer& layer : parse_bindings_file(entry.path().string()))
            for (const KernelStage& stage : layer.stages) {
                CAPTURE(stage.entry);
                CHECK(compiles_with_fp16(program_text(stage.source_text, stage.entry, true, false),
                                         stage.entry));
                ++stages;
            }
    }
    CHECK(stages >= 10);
    // Manual-DMA companions on half data, fused.
    const std::string dma = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void __dma_preload_k(__global const half* src, __global half* dst, __local half* l) {
    WorkGroupDmaCreate3DTransaction(src, l, 8, 8, 16, 8, 2, 64, 16, 16, 0);
}
__kernel void __dma_postwrite_k(__global const half* src, __global half* dst, __local half* l) {
    WorkGroupDmaCreateStrideTransaction(l, dst, 8, 8, 8, 16, 32, 0);
}
__kernel void k(__global const half* src, __global half* dst, __local half* l) {
    event_t e = async_work_group_copy_2D2D(l, src, 4, 2, 4, 0, 0);
    wait_group_events(1, &e);
    l[get_local_id(0)] = l[get_local_id(0)] * (half)2;
}
)";
    CHECK(compiles_with_fp16(program_text(dma, "k", true, false), "dma_companions"));
}
#endif

TEST_CASE("kernel source: half promoted with __global and __local half buffers kept in half") {
    const std::string src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "__kernel void k(__global const half* restrict src, __global half* dst, "
        "__local half* l, __global half8* v) {\n"
        "  half a = src[i + 1];\n"
        "  dst[i] = a * (half)2;\n"
        "  dst[j] += src[j];\n"
        "  *dst = *src;\n"
        "  l[0] = vload_half(0, src) + vload_half(1, l);\n"
        "  vstore8(vload8(0, src + 8), 1, dst);\n"
        "  v[2] = v[1];\n"
        "  __global const half* p = &src[4];\n"
        "  if (a > 0) p++;\n"
        "  event_t e = async_work_group_copy(l, src, 8, 0);\n"
        "  e = async_work_group_copy(l + 8, p, 8, e);\n"
        "  __local half tile[16]; __local half scalar;\n"
        "  tile[1] = sizeof(half) + (half)scalar;\n"
        "}\n";
    const auto out = promote_half_keep_storage(src);
    REQUIRE(out.has_value());
    CHECK(*out ==
          "\n"
          "__kernel void k(__global const half* restrict src, __global half* dst, "
          "__local half* l, __global half8* v) {\n"
          "  float a = (vload_half((i + 1), src));\n"
          "  vstore_half((float)( a * (float)2), (i), dst);\n"
          "  vstore_half((float)(vload_half((j), dst) + ( (vload_half((j), src)))), (j), dst);\n"
          "  vstore_half((float)( (vload_half(0, src))), 0, dst);\n"
          "  vstore_half((float)( vload_half(0, src) + vload_half(1, l)), (0), l);\n"
          "  vstore_half8(vload_half8(0, src + 8), 1, dst);\n"
          "  vstore_half8( (vload_half8((1), (const __global half*)v)), (2), (__global half*)v);\n"
          "  __global const half* p = (src + (4));\n"
          "  if (a > 0) p++;\n"
          "  event_t e = __myriad_async_work_group_copy(l, src, 8, 0);\n"
          "  e = __myriad_async_work_group_copy(l + 8, p, 8, e);\n"
          "  __local half tile[16]; __local float scalar;\n"
          "  vstore_half((float)( sizeof(half) + (float)scalar), (1), tile);\n"
          "}\n");
}

TEST_CASE("kernel source: half storage rewriting gives up where it cannot follow the source") {
    const char* const cases[] = {
        "#define T half\n__kernel void k(__global T* p) { p[0] = 1; }",
        "#define G __global\n__kernel void k(G half* p) { p[0] = 1; }",
        "#define AT(i) p[i]\n__kernel void k(__global half* p) { AT(0) = 1; }",
        "typedef half T;\n__kernel void k(__global half* p) { }",
        "struct S { half x; };\n__kernel void k(__global half* p) { }",
        "__kernel void k(__global half* p, float x) { x = p[0] = 1; }",
        "__kernel void k(__global half* p) { p[get_global_id(0)++] += 1; }",
        "__kernel void k(__global half* p) { p[0]++; }",
        "__kernel void k(__global half** p) { }",
        "__kernel void k(__global half3* p) { }",
        "__kernel void k(__global half* p) { __global half* p = 0; }",
    };
    for (const char* c : cases) {
        CAPTURE(c);
        CHECK_FALSE(promote_half_keep_storage(c).has_value());
    }
    // A name is a half buffer only where its declaration is in scope.
    CHECK(promote_half_keep_storage("__kernel void a(__global half* src) { src[0] = 1; }\n"
                                    "void b(half* src) { src[0] = 2; }") ==
          std::optional<std::string>("__kernel void a(__global half* src) { vstore_half((float)( "
                                     "1), (0), src); }\n"
                                     "void b(float* src) { src[0] = 2; }"));
    // Sources without __global half keep promote_half's spelling.
    CHECK(promote_half_keep_storage("half x = convert_half(y);") ==
          std::optional<std::string>("float x = convert_float(y);"));
}
