// test_execution.cpp -- running bindings on the OpenCL device: argument kinds, work sizes,
// binding choice, layout conversions, multi-stage buffers, half promotion, the Myriad-only DMA
// builtins and companion kernels, and errors. Expected values are computed on the host.
#include <doctest/doctest.h>

#include <cmath>

#include "myriad/runtime.h"
#include "myriad_test_support.h"

using namespace myriad;
using myriad_test::check_close;
using myriad_test::random_values;
using myriad_test::ScratchDir;
using myriad_test::to_half;

namespace {

/// out = in * scale + offset + X (X = width), written for half like a VPU kernel.
const char* affine_cl = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void affine(__global const half* restrict src, __global half* restrict dst,
                     float scale, int offset, int width)
{
    const int i = get_global_id(0);
    const half v = src[i];
    dst[i] = convert_half((float)v * scale + (float)(offset + width));
}
__kernel void affine_plus_one(__global const half* restrict src, __global half* restrict dst,
                              float scale, int offset, int width)
{
    const int i = get_global_id(0);
    vstore_half(vload_half(i, src) * scale + (float)(offset + width) + 1.0f, i, dst);
}
)";

std::string affine_xml(const std::string& entry, const std::string& where,
                       const std::string& global = "B*F*Y*X") {
    return "<CustomLayer name=\"Affine\" type=\"MVCL\" version=\"1\">\n" + where +
           "<Kernel entry=\"" + entry +
           "\"><Source filename=\"affine.cl\"/></Kernel>\n"
           "<Parameters>\n"
           "<Tensor arg-name=\"src\" type=\"input\" port-index=\"0\" format=\"BFYX\"/>\n"
           "<Tensor arg-name=\"dst\" type=\"output\" port-index=\"0\" format=\"BFYX\"/>\n"
           "<Scalar arg-name=\"scale\" type=\"float\" source=\"scale\"/>\n"
           "<Scalar arg-name=\"offset\" type=\"int\" port-index=\"1\" source=\"offsets\"/>\n"
           "<Scalar arg-name=\"width\" type=\"int\" port-index=\"0\" source=\"I.X\"/>\n"
           "</Parameters>\n"
           "<WorkSizes dim=\"input,0\" global=\"" +
           global +
           "\" local=\"X,1,1\"/>\n"
           "</CustomLayer>\n";
}

std::vector<double> affine_ref(const std::vector<float>& in, double scale, double add) {
    std::vector<double> out;
    for (float v : in) out.push_back(static_cast<double>(to_half(v)) * scale + add);
    return out;
}

LayerSpec affine_spec(const std::string& softmax = "0") {
    LayerSpec spec;
    spec.type = "affine";
    spec.params = {{"scale", "0.5"}, {"offsets", "7,3"}, {"do_softmax", softmax}};
    spec.input_shapes = {{1, 3, 4, 5}};
    spec.output_shape = {1, 3, 4, 5};
    return spec;
}

}  // namespace

TEST_CASE(
    "execution: scalars from parameters (port-index element) / I.X / work sizes / precision") {
    ScratchDir dir("exec_affine");
    dir.write("affine.cl", affine_cl);
    Runtime rt(myriad_test::device_index());
    rt.load_bindings(dir.write("affine.xml", affine_xml("affine", "")));
    Layer layer = rt.create_layer(affine_spec());
    CHECK(layer.precision() == (rt.device_has_fp16() ? Precision::fp16 : Precision::fp32_promoted));
    CHECK(layer.input_dtype(0) == DType::f16);
    CHECK(layer.output_dtype() == DType::f16);
    CHECK(layer.global_sizes()[0] == std::array<std::size_t, 3>{60, 1, 1});
    CHECK(layer.local_sizes()[0] == std::array<std::size_t, 3>{5, 1, 1});
    const auto in = random_values(60, -4, 4, 1);
    const HostTensor out = layer.run({HostTensor{{1, 3, 4, 5}, Layout::BFYX, in}});
    check_close(out.values, affine_ref(in, 0.5, 3 + 5), 1e-2, 2e-3);
}

TEST_CASE(
    "execution: binding choice by Where then by evaluable expressions then user before shipped") {
    ScratchDir dir("exec_choice");
    dir.write("affine.cl", affine_cl);
    Runtime rt(myriad_test::device_index());
    // 1st: Where do_softmax=1; 2nd: needs a parameter the layer lacks; 3rd: the fallback.
    rt.load_bindings(
        dir.write("a.xml", affine_xml("affine_plus_one", "<Where do_softmax=\"1\"/>\n")));
    rt.load_bindings(
        dir.write("b.xml", affine_xml("affine_plus_one", "", "B*F*Y*X*missing_param")));
    rt.load_bindings(dir.write("c.xml", affine_xml("affine", "<Where do_softmax=\"!=1\"/>\n")));
    const auto in = random_values(60, -4, 4, 2);
    const std::vector<HostTensor> inputs{HostTensor{{1, 3, 4, 5}, Layout::BFYX, in}};
    Layer with_softmax = rt.create_layer(affine_spec("1"));
    CHECK(with_softmax.binding().file == dir.path() + "/a.xml");
    check_close(with_softmax.run(inputs).values, affine_ref(in, 0.5, 9), 1e-2, 2e-3);
    Layer without = rt.create_layer(affine_spec("0"));
    CHECK(without.binding().file == dir.path() + "/c.xml");
    check_close(without.run(inputs).values, affine_ref(in, 0.5, 8), 1e-2, 2e-3);
    LayerSpec none = affine_spec("2");
    none.params["do_softmax"] = "1";
    none.params.erase("scale");
    try {
        rt.create_layer(none);
        FAIL("expected an error");
    } catch (const tessera::error& e) {
        CHECK(e.op() == "affine");
        CHECK(std::string(e.what()).find("no binding suits") != std::string::npos);
        CHECK(std::string(e.what()).find("'scale'") != std::string::npos);
    }
    CHECK_THROWS_AS(rt.create_layer(LayerSpec{"NoSuchLayer", {}, {{1}}, {}, {1}, {}}),
                    tessera::error);
}

namespace {
/// Copies a tensor, reading it in `fmt` order, and adds 100*c (c from the layout's own indexing).
std::string channel_mark_cl(const std::string& entry, bool channels_last) {
    return std::string("__kernel void ") + entry +
           "(__global const float* src, __global float* dst, int C, int HW) {\n"
           "  const int i = get_global_id(0);\n"
           "  const int c = " +
           (channels_last ? "i % C" : "i / HW % C") +
           ";\n"
           "  dst[i] = src[i] + 100.0f * c;\n}\n";
}
std::string channel_mark_xml(const std::string& entry, const std::string& fmt) {
    return "<CustomLayer name=\"Mark\" type=\"MVCL\" version=\"1\">\n"
           "<Kernel entry=\"" +
           entry +
           "\"><Source filename=\"mark.cl\"/></Kernel>\n"
           "<Parameters>\n"
           "<Tensor arg-name=\"src\" type=\"input\" port-index=\"0\" format=\"" +
           fmt +
           "\"/>\n"
           "<Tensor arg-name=\"dst\" type=\"output\" port-index=\"0\" format=\"" +
           fmt +
           "\"/>\n"
           "<Scalar arg-name=\"C\" type=\"int\" port-index=\"0\" source=\"I.F\"/>\n"
           "<Scalar arg-name=\"HW\" type=\"int\" source=\"12\"/>\n"
           "</Parameters>\n"
           "<WorkSizes dim=\"input,0\" global=\"B*F*Y*X\"/>\n"
           "</CustomLayer>\n";
}
}  // namespace

TEST_CASE("execution: input layouts preferred / conversions inserted otherwise") {
    ScratchDir dir("exec_layouts");
    dir.write("mark.cl", channel_mark_cl("mark_nchw", false) + channel_mark_cl("mark_nhwc", true));
    const Shape shape{2, 3, 3, 4};
    const auto in = random_values(72, -1, 1, 3);
    std::vector<double> want;  // NCHW order
    for (std::size_t i = 0; i < in.size(); ++i) want.push_back(in[i] + 100.0 * (i / 12 % 3));
    const std::vector<float> in_nhwc = myriad_test::nchw_to_nhwc(in, shape);

    Runtime rt(myriad_test::device_index());
    rt.load_bindings(dir.write(
        "mark.xml", channel_mark_xml("mark_nchw", "BFYX") + channel_mark_xml("mark_nhwc", "BYXF")));
    LayerSpec spec{"Mark", {}, {shape}, {Layout::BFYX}, shape, {}};
    Layer planar = rt.create_layer(spec);
    CHECK(planar.binding().stages[0].entry == "mark_nchw");
    CHECK_FALSE(planar.converts_input_layouts());
    check_close(planar.run({{shape, Layout::BFYX, in}}).values, want, 0, 1e-6);

    spec.input_layouts = {Layout::BYXF};
    Layer interleaved = rt.create_layer(spec);
    CHECK(interleaved.binding().stages[0].entry == "mark_nhwc");
    CHECK(interleaved.kernel_output_layout() == Layout::BYXF);
    check_close(
        interleaved.run({{shape, Layout::BYXF, in_nhwc}}, Layout::BYXF).values,
        [&] {
            std::vector<double> w;
            for (float v :
                 myriad_test::nchw_to_nhwc(std::vector<float>(want.begin(), want.end()), shape))
                w.push_back(v);
            return w;
        }(),
        0, 1e-6);

    // Only the BYXF binding: an NCHW input is converted in, the output converted back.
    Runtime only_nhwc(myriad_test::device_index());
    only_nhwc.load_bindings(dir.write("nhwc.xml", channel_mark_xml("mark_nhwc", "BYXF")));
    spec.input_layouts = {Layout::BFYX};
    Layer converted = only_nhwc.create_layer(spec);
    CHECK(converted.converts_input_layouts());
    CHECK(converted.kernel_input_layout(0) == Layout::BYXF);
    check_close(converted.run({{shape, Layout::BFYX, in}}, Layout::BFYX).values, want, 0, 1e-6);
}

namespace {
const char* center_cl = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// Stage 0: per (b, c) plane, the sum of its values into sums[b*C + c] (float).
__kernel void plane_sum(__global const half* src, __global float* sums, int HW) {
    const int p = get_global_id(0);
    float s = 0.0f;
    for (int i = 0; i < HW; ++i) s += vload_half(p * HW + i, src);
    sums[p] = s;
}
// Stage 1: every value minus its plane's mean, scaled by a weight blob per channel; __local
// scratch carries the plane's mean within the work group.
__kernel void center(__global const half* src, __global const float* sums,
                     __global const half* weights, __global half* dst, __local float* mean,
                     int HW, int C) {
    const int p = get_group_id(0);
    if (get_local_id(0) == 0) mean[0] = sums[p] / HW;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int i = p * HW + get_local_id(0);
    dst[i] = (half)(((float)src[i] - mean[0]) * (float)weights[p % C]);
}
)";
const char* center_xml = R"(<CustomLayer name="Center" type="MVCL" version="1">
  <Kernel entry="plane_sum" stage="0"><Source filename="two.cl"/>
    <Parameters>
      <Tensor arg-name="src" type="input" port-index="0"/>
      <Tensor arg-name="sums" type="output_buffer" port-index="3" dim="input,0" size="B*F*4"/>
      <Scalar arg-name="HW" type="int" source="hw"/>
    </Parameters>
    <WorkSizes dim="input,0" global="B*F,1,1" local="1,1,1"/>
  </Kernel>
  <Kernel entry="center" stage="1"><Source filename="two.cl"/>
    <Parameters>
      <Tensor arg-name="src" type="input" port-index="0"/>
      <Tensor arg-name="sums" type="input_buffer" port-index="3" dim="input,0" size="B*F*4"/>
      <Data arg-name="weights" type="data" source="weights"/>
      <Tensor arg-name="dst" type="output" port-index="0"/>
      <Data arg-name="mean" type="local_data" dim="input,0" size="4"/>
      <Scalar arg-name="HW" type="int" source="hw"/>
      <Scalar arg-name="C" type="int" source="I.F"/>
    </Parameters>
    <WorkSizes dim="output,0" global="B*F*Y*X,1,1" local="Y*X,1,1"/>
  </Kernel>
</CustomLayer>
)";
}  // namespace

TEST_CASE("execution: two stages through output_buffer/input_buffer / a Data blob / local_data") {
    ScratchDir dir("exec_two_stage");
    dir.write("two.cl", center_cl);
    Runtime rt(myriad_test::device_index());
    rt.load_bindings(dir.write("two.xml", center_xml));
    const Shape shape{2, 3, 4, 6};
    LayerSpec spec{"Center", {{"hw", "24"}}, {shape}, {}, shape, {}};
    spec.blobs["weights"] = HostTensor{{3}, Layout::BFYX, {0.5f, -2.0f, 1.25f}};
    Layer layer = rt.create_layer(spec);
    REQUIRE(layer.binding().stages.size() == 2);
    const auto in = to_half(random_values(144, -3, 3, 4));
    std::vector<double> want(144);
    for (int p = 0; p < 6; ++p) {
        double s = 0;
        for (int i = 0; i < 24; ++i) s += in[p * 24 + i];
        for (int i = 0; i < 24; ++i)
            want[p * 24 + i] = (in[p * 24 + i] - s / 24) * spec.blobs["weights"].values[p % 3];
    }
    check_close(layer.run({{shape, Layout::BFYX, in}}).values, want, 1e-2, 2e-3);

    // The same weights written on the device into a layer created with zeros, from f32 and from
    // half device buffers: the same result.
    LayerSpec zeros = spec;
    zeros.blobs["weights"].values.assign(3, 0.0f);
    Layer rewritten = rt.create_layer(zeros);
    const std::vector<float> weights = spec.blobs["weights"].values;
    const std::vector<std::uint16_t> weights_half = {0x3800, 0xc000, 0x3d00};  // 0.5, -2, 1.25
    const unsigned long long writes = myriad_blob_writes();
    for (const DType type : {DType::f32, DType::f16}) {
        CAPTURE(to_string(type));
        const void* host = type == DType::f32 ? static_cast<const void*>(weights.data())
                                              : static_cast<const void*>(weights_half.data());
        cl::Buffer values(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 3 * size_of(type),
                          const_cast<void*>(host));
        rewritten.write_blob("weights", DeviceTensor{values, {3}, Layout::BFYX, type});
        check_close(rewritten.run({{shape, Layout::BFYX, in}}).values, want, 1e-2, 2e-3);
    }
    CHECK(myriad_blob_writes() == writes + 2);
    cl::Buffer four(rt.context(), CL_MEM_READ_WRITE, 16);
    CHECK_THROWS_WITH_AS(
        rewritten.write_blob("weights", DeviceTensor{four, {4}, Layout::BFYX, DType::f32}),
        doctest::Contains("4 values for a blob of 3"), tessera::error);
    CHECK_THROWS_WITH_AS(
        rewritten.write_blob("biases", DeviceTensor{four, {3}, Layout::BFYX, DType::f32}),
        doctest::Contains("no blob 'biases'"), tessera::error);

    spec.blobs.clear();
    CHECK_THROWS_WITH_AS(rt.create_layer(spec), doctest::Contains("no blob 'weights'"),
                         tessera::error);
}

namespace {
/// Each DMA builtin copies a strided block of a 6x8 float image (rows y0.., cols 2..5) to local
/// memory and back out to a packed 3 x 4 x `planes` output.
const char* dma_cl = R"(
__kernel void copy2d(__global const float* src, __global float* dst) {
    __local float tile[12];
    event_t e = async_work_group_copy_2D2D(tile, src + 8 + 2, 4, 3, 4, 0, 0);
    wait_group_events(1, &e);
    e = async_work_group_copy_2D2D(dst, tile, 4, 3, 0, 0, 0);
    wait_group_events(1, &e);
}
__kernel void copy3d(__global const float* src, __global float* dst) {
    __local float tile[24];
    // planes 0 and 1 of the 2-plane input (each 6x8): rows 1..3, cols 2..5
    event_t e = async_work_group_copy_3D3D(tile, src + 8 + 2, 4, 3, 4, 0, 2, 24, 0, 0);
    wait_group_events(1, &e);
    e = async_work_group_copy_3D3D(dst, tile, 4, 3, 0, 0, 2, 0, 0, 0);
    wait_group_events(1, &e);
}
__kernel void khronos2d(__global const float* src, __global float* dst) {
    __local float tile[24];
    // the ratified form: offsets and total line lengths in elements of 4 bytes
    event_t e = async_work_group_copy_3D3D((__local void*)tile, 0, (const __global void*)src, 10,
                                           sizeof(float), 4, 3, 2, 8, 48, 4, 12, 0);
    wait_group_events(1, &e);
    e = async_work_group_copy_2D2D((__global void*)dst, 0, (const __local void*)tile, 0,
                                   sizeof(float), 12, 2, 12, 12, 0);
    wait_group_events(1, &e);
}
__kernel void stride2d(__global const float* src, __global float* dst) {
    __local float tile[12];
    WorkGroupDmaCreateStrideTransaction(src + 8 + 2, tile, 4 * sizeof(float), 12 * sizeof(float),
        8 * sizeof(float), 12 * sizeof(float), 12 * sizeof(float), 0);
    WorkGroupDmaCreateStrideTransaction(tile, dst, 6 * sizeof(float), 4 * sizeof(float),
        6 * sizeof(float), 4 * sizeof(float), 12 * sizeof(float), 0);
}
__kernel void dma3d(__global const float* src, __global float* dst) {
    __local float tile[24];
    WorkGroupDmaCreate3DTransaction(src + 8 + 2, tile, 4 * sizeof(float), 4 * sizeof(float),
        8 * sizeof(float), 4 * sizeof(float), 2, 48 * sizeof(float), 12 * sizeof(float),
        12 * sizeof(float), 0);
    WorkGroupDmaCreate3DTransaction(tile, dst, 12 * sizeof(float), 12 * sizeof(float),
        12 * sizeof(float), 12 * sizeof(float), 2, 12 * sizeof(float), 12 * sizeof(float),
        12 * sizeof(float), 0);
}
)";
std::string dma_xml(const std::string& entry) {
    return "<CustomLayer name=\"" + entry +
           "\" type=\"MVCL\" version=\"1\" max-shaves=\"1\">\n"
           "<Kernel entry=\"" +
           entry +
           "\"><Source filename=\"dma.cl\"/></Kernel>\n"
           "<Parameters>\n"
           "<Tensor arg-name=\"src\" type=\"input\" port-index=\"0\"/>\n"
           "<Tensor arg-name=\"dst\" type=\"output\" port-index=\"0\"/>\n"
           "</Parameters>\n"
           "<WorkSizes dim=\"input,0\" global=\"4,1,1\" local=\"4,1,1\"/>\n"
           "</CustomLayer>\n";
}
}  // namespace

TEST_CASE(
    "execution: Myriad DMA builtins (2D2D / 3D3D in both forms / stride and 3D transactions)") {
    ScratchDir dir("exec_dma");
    dir.write("dma.cl", dma_cl);
    Runtime rt(myriad_test::device_index());
    std::string xml;
    for (const char* e : {"copy2d", "copy3d", "stride2d", "dma3d", "khronos2d"}) xml += dma_xml(e);
    rt.load_bindings(dir.write("dma.xml", xml));
    std::vector<float> in(96);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
    // rows 1..3, columns 2..5 of plane p (each plane 6x8 = 48 values)
    auto block = [](int planes) {
        std::vector<double> want;
        for (int p = 0; p < planes; ++p)
            for (int y = 1; y <= 3; ++y)
                for (int x = 2; x <= 5; ++x) want.push_back(p * 48 + y * 8 + x);
        return want;
    };
    for (const char* entry : {"copy2d", "stride2d"}) {
        CAPTURE(entry);
        Layer l = rt.create_layer(LayerSpec{entry, {}, {{1, 1, 12, 8}}, {}, {1, 1, 3, 4}, {}});
        check_close(l.run({{{1, 1, 12, 8}, Layout::BFYX, in}}).values, block(1), 0, 0);
    }
    for (const char* entry : {"copy3d", "dma3d", "khronos2d"}) {
        CAPTURE(entry);
        Layer l = rt.create_layer(LayerSpec{entry, {}, {{1, 2, 6, 8}}, {}, {1, 2, 3, 4}, {}});
        std::vector<double> want = block(2);
        if (std::string(entry) == "copy3d")  // plane stride 24 gaps after 3 lines of 8: 48 apart
            want = block(2);
        check_close(l.run({{{1, 2, 6, 8}, Layout::BFYX, in}}).values, want, 0, 0);
        CHECK(l.binding().max_shaves == 1);
    }
}

namespace {
/// The seed's GRN with __dma_preload / __dma_postwrite companions (verbatim kernels).
const char* seed_grn_dma_cl = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void __dma_preload_grn_NCHW(
__global const half* restrict src,
__global half* restrict dst,
__local half* restrict local_src,
__local half* restrict local_dst,
int C,
float bias)
{
WorkGroupDmaCreate3DTransaction(
src + get_group_id(0)*get_local_size(0)
+ get_group_id(1)*get_local_size(1)*get_global_size(0), // src
local_src, // dst
get_local_size(0) * sizeof(half), // src width
get_local_size(0) * sizeof(half), // dst width
get_global_size(0) * sizeof(half), // src stride
get_local_size(0) * sizeof(half), // dst stride
C, // num planes
get_global_size(0) * get_global_size(1) * sizeof(half), // src plane stride
get_local_size(0) * get_local_size(1) * sizeof(half), // dst plane stride
get_local_size(0) * get_local_size(1) * sizeof(half), // plane size
0);
}
__kernel void __dma_postwrite_grn_NCHW(
__global const half* restrict src,
__global half* restrict dst,
__local const half* restrict local_src,
__local half* restrict local_dst,
int C,
float bias)
{
WorkGroupDmaCreate3DTransaction(
local_dst, // src
dst + get_group_id(0)*get_local_size(0)
+ get_group_id(1)*get_local_size(1)*get_global_size(0), // dst
get_local_size(0) * sizeof(half), // src width
get_local_size(0) * sizeof(half), // dst width
get_local_size(0) * sizeof(half), // src stride
get_global_size(0) * sizeof(half), // dst stride
C, // num planes
get_local_size(0) * get_local_size(1) * sizeof(half), // src plane stride
get_global_size(0) * get_global_size(1) * sizeof(half), // dst plane stride
get_local_size(0) * get_local_size(1) * sizeof(half), // plane size
0);
}
__kernel void grn_NCHW(
__global const half* restrict src_data,
__global half* restrict dst_data,
__local half* restrict src,
__local half* restrict dst,
int C,
float bias)
{
float variance = bias + 1e-9f;
#pragma unroll 8
for (int c = 0; c < C; c++)
{
float val = (float) src[c*get_local_size(1)*get_local_size(0) + get_local_id(1)*get_local_size(0) + get_local_id(0)];
variance += val*val;
}
half hvariance = (half)(native_rsqrt((half)(variance/16.f))*0.25f);
#pragma unroll 8
for (int c = 0; c < C; c++)
{
dst[c*get_local_size(1)*get_local_size(0) + get_local_id(1)*get_local_size(0) + get_local_id(0)]
= src[c*get_local_size(1)*get_local_size(0) + get_local_id(1)*get_local_size(0) + get_local_id(0)] * hvariance;
}
}
)";
const char* seed_grn_dma_xml = R"(<CustomLayer name="GRN" type="MVCL" version="1">
  <Kernel entry="grn_NCHW"><Source filename="grn_dma.cl"/></Kernel>
  <Parameters>
    <Tensor arg-name="src_data" type="input" port-index="0" format="BFYX"/>
    <Tensor arg-name="dst_data" type="output" port-index="0" format="BFYX"/>
    <Data arg-name="src" type="local_data" dim="input,0" size="X*F*2"/>
    <Data arg-name="dst" type="local_data" dim="input,0" size="X*F*2"/>
    <Scalar arg-name="C" type="int" port-index="0" source="I.F"/>
    <Scalar arg-name="bias" type="float" source="bias"/>
  </Parameters>
  <WorkSizes dim="input,0" global="X,Y,1" local="X,1,1"/>
</CustomLayer>
)";
}  // namespace

TEST_CASE("execution: the seed's manual-DMA GRN (__dma_preload/__dma_postwrite) runs unchanged") {
    ScratchDir dir("exec_grn_dma");
    dir.write("grn_dma.cl", seed_grn_dma_cl);
    Runtime rt(myriad_test::device_index());
    rt.load_bindings(dir.write("grn.xml", seed_grn_dma_xml));
    const Shape shape{1, 5, 6, 7};
    Layer layer = rt.create_layer(LayerSpec{"GRN", {{"bias", "0.75"}}, {shape}, {}, shape, {}});
    const auto in = to_half(random_values(210, -2, 2, 5));
    std::vector<double> want(210);
    for (int y = 0; y < 6; ++y)
        for (int x = 0; x < 7; ++x) {
            double var = 0.75;
            for (int c = 0; c < 5; ++c)
                var += double(in[(c * 6 + y) * 7 + x]) * in[(c * 6 + y) * 7 + x];
            for (int c = 0; c < 5; ++c)
                want[(c * 6 + y) * 7 + x] = in[(c * 6 + y) * 7 + x] / std::sqrt(var);
        }
    check_close(layer.run({{shape, Layout::BFYX, in}}).values, want, 2e-3, 4e-3);
}

TEST_CASE("execution: device buffers in / device buffers out / errors name layer and tensor") {
    ScratchDir dir("exec_device");
    dir.write("affine.cl", affine_cl);
    Runtime rt(myriad_test::device_index());
    rt.load_bindings(dir.write("affine.xml", affine_xml("affine", "")));
    Layer layer = rt.create_layer(affine_spec());
    const auto in = to_half(random_values(60, -4, 4, 6));
    std::vector<cl_half> bits;
    for (float v : in) bits.push_back(myriad_test::half_bits(v));
    cl::Buffer src(rt.context(),
                   static_cast<cl_mem_flags>(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR),
                   std::size_t{120}, static_cast<void*>(bits.data()));
    cl::Buffer dst(rt.context(), CL_MEM_READ_WRITE, 120);
    layer.enqueue({DeviceTensor{src, {1, 3, 4, 5}, Layout::BFYX, DType::f16}},
                  DeviceTensor{dst, {1, 3, 4, 5}, Layout::BFYX, DType::f16});
    std::vector<cl_half> out(60);
    rt.queue().enqueueReadBuffer(dst, CL_TRUE, 0, 120, out.data());
    std::vector<float> got;
    for (cl_half h : out) got.push_back(myriad_test::from_half_bits(h));
    check_close(got, affine_ref(in, 0.5, 8), 1e-2, 2e-3);

    try {
        layer.enqueue({DeviceTensor{src, {1, 3, 4, 5}, Layout::BFYX, DType::f32}},
                      DeviceTensor{dst, {1, 3, 4, 5}, Layout::BFYX, DType::f16});
        FAIL("expected an error");
    } catch (const tessera::error& e) {
        CHECK(e.op() == "affine");
        CHECK(e.tensor() == "input 0");
        CHECK(e.backend() == "myriad");
    }
    CHECK_THROWS_AS(layer.enqueue({}, DeviceTensor{dst, {1, 3, 4, 5}, Layout::BFYX, DType::f16}),
                    tessera::error);
    CHECK_THROWS_AS(layer.enqueue({DeviceTensor{src, {1, 3, 4, 5}, Layout::BFYX, DType::f16}},
                                  DeviceTensor{dst, {1, 3, 4, 6}, Layout::BFYX, DType::f16}),
                    tessera::error);
    CHECK_THROWS_AS(layer.run({HostTensor{{1, 3, 4, 5}, Layout::BFYX, {1.0f}}}), tessera::error);
}

TEST_CASE("execution: OpenCL C build errors and bad work sizes are reported / not crashed on") {
    ScratchDir dir("exec_bad");
    dir.write("affine.cl", std::string(affine_cl) +
                               "\n__kernel void broken(__global half* src, "
                               "__global half* dst, float scale, int offset, "
                               "int width) { undefined_call(); }\n");
    Runtime rt(myriad_test::device_index());
    std::string xml = affine_xml("broken", "");
    rt.load_bindings(dir.write("broken.xml", xml));
    CHECK_THROWS_WITH_AS(rt.create_layer(affine_spec()), doctest::Contains("OpenCL C build failed"),
                         tessera::error);
    Runtime rt2(myriad_test::device_index());
    rt2.load_bindings(dir.write("uneven.xml", affine_xml("affine", "", "B*F*Y*X+1")));
    CHECK_THROWS_WITH_AS(rt2.create_layer(affine_spec()), doctest::Contains("not a multiple"),
                         tessera::error);
    // More __local memory than the device has: a clear error at creation.
    dir.write("local.cl",
              "__kernel void big(__global const float* src, __global float* dst, "
              "__local float* scratch) { dst[0] = src[0]; }\n");
    Runtime rt3(myriad_test::device_index());
    rt3.load_bindings(dir.write("local.xml",
                                "<CustomLayer name=\"Big\" type=\"MVCL\" version=\"1\">\n"
                                "<Kernel entry=\"big\"><Source filename=\"local.cl\"/></Kernel>\n"
                                "<Parameters><Tensor arg-name=\"src\" type=\"input\"/>"
                                "<Tensor arg-name=\"dst\" type=\"output\"/>"
                                "<Data arg-name=\"scratch\" type=\"local_data\" dim=\"input,0\" "
                                "size=\"1000000000\"/></Parameters>\n"
                                "<WorkSizes dim=\"input,0\" global=\"1\"/></CustomLayer>\n"));
    CHECK_THROWS_WITH_AS(rt3.create_layer(LayerSpec{"Big", {}, {{1}}, {}, {1}, {}}),
                         doctest::Contains("bytes of local memory"), tessera::error);
}

TEST_CASE("execution: __local arguments using most of the device's local memory are accepted") {
    // The size a device reports for a kernel includes the __local arguments already set; they
    // must not be counted twice (3/4 of the local memory would then exceed it).
    ScratchDir dir("exec_local_fits");
    dir.write("fits.cl",
              "__kernel void fits(__global const float* src, __global float* dst, "
              "__local float* scratch) {\n"
              "  scratch[get_local_id(0)] = src[get_global_id(0)] + 1.0f;\n"
              "  barrier(CLK_LOCAL_MEM_FENCE);\n"
              "  dst[get_global_id(0)] = scratch[get_local_id(0)];\n}\n");
    Runtime rt(myriad_test::device_index());
    const std::size_t bytes = rt.device().getInfo<CL_DEVICE_LOCAL_MEM_SIZE>() / 4 * 3 / 4 * 4;
    rt.load_bindings(
        dir.write("fits.xml",
                  "<CustomLayer name=\"Fits\" type=\"MVCL\" version=\"1\">\n"
                  "<Kernel entry=\"fits\"><Source filename=\"fits.cl\"/></Kernel>\n"
                  "<Parameters><Tensor arg-name=\"src\" type=\"input\"/>"
                  "<Tensor arg-name=\"dst\" type=\"output\"/>"
                  "<Data arg-name=\"scratch\" type=\"local_data\" dim=\"input,0\" size=\"" +
                      std::to_string(bytes) +
                      "\"/></Parameters>\n"
                      "<WorkSizes dim=\"input,0\" global=\"8\" local=\"8\"/></CustomLayer>\n"));
    Layer layer = rt.create_layer(LayerSpec{"Fits", {}, {{8}}, {}, {8}, {}});
    const std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8};
    check_close(layer.run({{{8}, Layout::BFYX, in}}).values, {2, 3, 4, 5, 6, 7, 8, 9}, 0, 0);
}
