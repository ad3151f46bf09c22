// test_dma_geometry.cpp -- the DMA transactions' geometry evaluated on the host
// (dma_geometry.h): which arguments become literals and which stay, the copies' work-group size
// and id, and a layer with DMA companions giving the seed's result with the geometry compiled in
// and computed on the device.
#include <doctest/doctest.h>

#include "dma_geometry.h"
#include "kernel_source.h"
#include "myriad/runtime.h"
#include "myriad_test_support.h"

using namespace myriad;
using myriad_test::check_close;
using myriad_test::ScratchDir;

namespace {

/// A kernel `k(src, tile, C, f, n)` whose body is `statements`.
std::string kernel_with(const std::string& statements) {
    return "__kernel void k(__global const float* src, __local float* tile, int C, float f, "
           "int n) {\n" +
           statements + "\n}\n";
}

/// `kernel_with(statements)` folded for a launch of global (64, 4, 1), local (16, 1, 1), C = 3,
/// n unknown.
std::string folded(const std::string& statements, int expected_calls) {
    LaunchConstants launch;
    launch.global = {64, 4, 1};
    launch.local = std::array<std::size_t, 3>{16, 1, 1};
    launch.integer_args = {std::nullopt, std::nullopt, 3, std::nullopt, std::nullopt};
    std::string text = kernel_with(statements);
    CHECK(fold_transaction_geometry(text, "k", launch) == expected_calls);
    return text;
}

}  // namespace

TEST_CASE("DMA geometry: arguments the host knows become literals") {
    // Work sizes, sizeof, known parameters, casts, min/max, the operators; the pointers and the
    // event stay as written.
    CHECK(folded("WorkGroupDmaCreate3DTransaction(src + get_group_id(0) * 16, tile, "
                 "get_local_size(0) * sizeof(float), (size_t)get_local_size(0) * 4, "
                 "get_global_size(0) * sizeof(float), 16 << 2, C, get_global_size(0) * "
                 "get_global_size(1) * sizeof(float), min(64, get_num_groups(0) * 16) * 4, "
                 "(0x40 + get_global_offset(0) + get_work_dim() - 3) % 1000, 0);",
                 1) ==
          kernel_with("WorkGroupDmaCreate3DTransaction(src + get_group_id(0) * 16, tile, "
                      "64, 64, 256, 64, 3, 1024, 256, 64, 0);"));
    // Unknown: a parameter without a value, a float, a work-item id, a negative intermediate, a
    // narrowing cast that changes the value, sizeof(size_t), an unknown call; the call stays
    // whole when any of its geometry arguments is unknown.
    const char* const unknown[] = {"n * 4",
                                   "(int)(f * 4)",
                                   "get_local_id(0) * 4",
                                   "(16 - 32 + 32) * 4",
                                   "(uchar)(C * 100)",
                                   "sizeof(size_t) * 8",
                                   "abs(64)",
                                   "4.0f"};
    for (const char* size : unknown) {
        CAPTURE(size);
        const std::string call = std::string(
                                     "WorkGroupDmaCreateStrideTransaction(src, tile, 64, "
                                     "64, 64, 64, ") +
                                 size + ", 0);";
        CHECK(folded(call, 0) == kernel_with(call));
    }
    // A parameter the kernel changes or redeclares is not its launch value.
    for (const char* change : {"C += 1;", "C++;", "{ int C = 5; }", "int* p = &C;"}) {
        CAPTURE(change);
        const std::string text =
            std::string(change) +
            " WorkGroupDmaCreateStrideTransaction(src, tile, 4, 4, 4, 4, C * 4, 0);";
        CHECK(folded(text, 0) == kernel_with(text));
    }
    // Constant locals of the outermost block with known values, after their declaration.
    CHECK(
        folded("const size_t e = sizeof(float); "
               "WorkGroupDmaCreateStrideTransaction(src, tile, 4 * e, 4 * e, 4 * e, 4 * e, C * e, "
               "0);",
               1) == kernel_with("const size_t e = sizeof(float); "
                                 "WorkGroupDmaCreateStrideTransaction(src, tile, 16, 16, 16, 16, "
                                 "12, 0);"));
    for (const char* local : {"const int e = n;", "int e = 4;", "{ const int e = 4; }",
                              "const int e = 4; { int e = 8; }", "const uchar e = 300;"}) {
        CAPTURE(local);
        const std::string text =
            std::string(local) +
            " WorkGroupDmaCreateStrideTransaction(src, tile, 4, 4, 4, 4, e, 0);";
        CHECK(folded(text, 0) == kernel_with(text));
    }
    // The deferred form inside fused companions folds too; get_local_size needs a local size.
    CHECK(folded(std::string(kDeferredDmaPrefix) +
                     "WorkGroupDmaCreateStrideTransaction(src, tile, 4, 4, 4, 4, C * 4, 0);",
                 1) == kernel_with(std::string(kDeferredDmaPrefix) +
                                   "WorkGroupDmaCreateStrideTransaction(src, tile, 4, 4, 4, 4, "
                                   "12, 0);"));
    LaunchConstants no_local;
    no_local.global = {64, 1, 1};
    std::string text = kernel_with(
        "WorkGroupDmaCreateStrideTransaction(src, tile, 4, 4, 4, 4, get_local_size(0) * 4, 0);");
    CHECK(fold_transaction_geometry(text, "k", no_local) == 0);
}

TEST_CASE("DMA geometry: the copies' work-group size and id") {
    const WorkGroupShape any = work_group_shape(std::nullopt);
    CHECK(any.size.find("get_local_size(2)") != std::string::npos);
    const WorkGroupShape line = work_group_shape(std::array<std::size_t, 3>{256, 1, 1});
    CHECK(line.size == "256u");
    CHECK(line.linear_id == "((uint)get_local_id(0))");
    const WorkGroupShape tile = work_group_shape(std::array<std::size_t, 3>{8, 1, 4});
    CHECK(tile.size == "32u");
    CHECK(tile.linear_id == "((uint)get_local_id(0) + (uint)get_local_id(2) * 8u)");
    CHECK(work_group_shape(std::array<std::size_t, 3>{1, 1, 1}).linear_id == "0u");
}

TEST_CASE("DMA geometry: program texts fold only sources with transactions and no macros") {
    LaunchConstants launch;
    launch.global = {16, 1, 1};
    launch.local = std::array<std::size_t, 3>{16, 1, 1};
    launch.integer_args = {std::nullopt, std::nullopt, 2, std::nullopt, std::nullopt};
    const std::string dma = kernel_with(
        "WorkGroupDmaCreateStrideTransaction(src, tile, 4, 4, 4, 4, C * get_local_size(0), 0);");
    const std::string text = program_text(dma, "k", false, false, false, &launch);
    CHECK(text.find("tile, 4, 4, 4, 4, 32, 0)") != std::string::npos);
    CHECK(text.find("const uint lsize = 16u;") != std::string::npos);
    // Without transactions, or with a macro, the text does not depend on the launch.
    const std::string plain = kernel_with("tile[0] = src[C];");
    CHECK(program_text(plain, "k", false, false, false, &launch) ==
          program_text(plain, "k", false, false, false, nullptr));
    const std::string macro = "#define W 4\n" + dma;
    CHECK(program_text(macro, "k", false, false, false, &launch) ==
          program_text(macro, "k", false, false, false, nullptr));
}
