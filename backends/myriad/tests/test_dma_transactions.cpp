// test_dma_transactions.cpp -- WorkGroupDmaCreate3DTransaction and
// WorkGroupDmaCreateStrideTransaction over the geometries their emulation treats differently
// (lines narrower and wider than the work group, a partial last line, contiguous lines and
// planes, batches of eight loads, differing source and destination widths), on
// float and on half data (half buffers, copied as ushort when half is promoted), with the
// geometry compiled into the program and computed on the device. Expected values follow the
// seed's definition, computed on the host.
#include <doctest/doctest.h>

#include "myriad/runtime.h"
#include "myriad_test_support.h"

using namespace myriad;
using myriad_test::check_close;
using myriad_test::ScratchDir;

namespace {

/// One 3D transaction into a zeroed tile, then the whole tile out by a stride transaction.
std::string transaction_kernel(const std::string& t) {
    return std::string(t == "half" ? "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" : "") +
           "__kernel void dma_" + t + "(__global const " + t + "* src, __global " + t +
           "* dst, __local " + t +
           "* tile, int sw, int dw, int ss, int ds, int planes, int sp, int dp, int size, "
           "int T) {\n"
           "  for (int k = get_local_id(0); k < T; k += get_local_size(0)) tile[k] = 0;\n"
           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
           "  const size_t e = sizeof(" +
           t +
           ");\n"
           "  WorkGroupDmaCreate3DTransaction(src, tile, sw * e, dw * e, ss * e, ds * e, planes,\n"
           "                                  sp * e, dp * e, size * e, 0);\n"
           "  WorkGroupDmaCreateStrideTransaction(tile, dst, T * e, T * e, T * e, T * e, T * e, "
           "0);\n"
           "}\n";
}

std::string transaction_xml(const std::string& t) {
    return myriad_test::src_dst_layer_xml(
        "Dma_" + t, "dma_" + t, "dma.cl", {{"tile", "T*4"}},
        {"sw", "dw", "ss", "ds", "planes", "sp", "dp", "size", "T"},
        R"(dim="input,0" global="8,1,1" local="8,1,1")");
}

struct TransactionGeometry {
    const char* what;
    int sw, dw, ss, ds, planes, sp, dp, size, T, N;
};

/// The seed's 3D transaction on host data: `size` elements per plane, read in lines of sw at
/// stride ss, written in lines of dw at stride ds.
std::vector<double> transaction_reference(const TransactionGeometry& g,
                                          const std::vector<float>& src) {
    std::vector<double> tile(static_cast<std::size_t>(g.T), 0.0);
    for (int p = 0; p < g.planes; ++p)
        for (int k = 0; k < g.size; ++k)
            tile[p * g.dp + (k / g.dw) * g.ds + k % g.dw] =
                src[p * g.sp + (k / g.sw) * g.ss + k % g.sw];
    return tile;
}

}  // namespace

TEST_CASE("DMA transactions: every copy geometry on float and half data") {
    ScratchDir dir("dma_transactions");
    dir.write("dma.cl", transaction_kernel("float") + transaction_kernel("half"));
    const std::string xml =
        dir.write("dma.xml", transaction_xml("float") + transaction_xml("half"));
    const TransactionGeometry geometries[] = {
        {"narrow lines, partial last line", 3, 3, 5, 3, 2, 17, 10, 8, 18, 30},
        {"lines wider than the work group", 20, 20, 24, 20, 2, 50, 40, 40, 80, 96},
        {"differing widths", 4, 6, 7, 6, 2, 30, 12, 12, 24, 56},
        {"contiguous lines and planes", 5, 5, 5, 5, 3, 10, 10, 10, 30, 30},
        {"contiguous lines, planes apart", 6, 6, 6, 6, 2, 16, 6, 6, 12, 22},
        {"many one-line planes (batches of eight)", 3, 3, 3, 3, 20, 5, 3, 3, 60, 98},
        {"one long flat row (batches of eight)", 4, 4, 4, 4, 20, 4, 4, 4, 80, 80},
        {"lines apart, partial last line", 16, 16, 24, 16, 2, 64, 48, 40, 96, 128},
        {"lines apart over plane ends", 32, 32, 40, 32, 2, 240, 160, 160, 320, 480},
        {"narrow lines apart, three planes", 8, 8, 12, 8, 3, 40, 24, 20, 72, 120},
    };
    // The geometry compiled into each layer's program, and computed on the device.
    for (const bool host_geometry : {true, false}) {
        Runtime rt(myriad_test::device_index());
        rt.set_force_half_promotion(true);
        rt.set_dma_host_geometry(host_geometry);
        rt.load_bindings(xml);
        for (const char* type : {"float", "half"}) {
            for (const TransactionGeometry& g : geometries) {
                CAPTURE(host_geometry);
                CAPTURE(type);
                CAPTURE(g.what);
                LayerParams params;
                const int values[] = {g.sw, g.dw, g.ss, g.ds, g.planes, g.sp, g.dp, g.size, g.T};
                const char* names[] = {"sw", "dw", "ss", "ds", "planes", "sp", "dp", "size", "T"};
                for (int k = 0; k < 9; ++k) params[names[k]] = std::to_string(values[k]);
                Layer layer = rt.create_layer(
                    LayerSpec{std::string("Dma_") + type, params, {{g.N}}, {}, {g.T}, {}});
                CHECK(layer.conversion_passes() == 0);
                std::vector<float> src(static_cast<std::size_t>(g.N));
                for (int i = 0; i < g.N; ++i) src[i] = static_cast<float>(i + 1);
                check_close(layer.run({{{g.N}, Layout::BFYX, src}}).values,
                            transaction_reference(g, src), 0, 0);
            }
        }
    }
}
