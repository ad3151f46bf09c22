// test_half_buffers.cpp -- half kernels with half promoted to float: the __global half buffers
// stay half (no conversion passes around the kernels), the fallback that converts the buffers to
// float for sources the rewriting cannot follow, and half stage buffers. Expected values are
// computed on the host.
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

std::vector<double> grn_reference(const std::vector<float>& in, int C, int HW, double bias) {
    std::vector<double> want(in.size());
    for (int i = 0; i < HW; ++i) {
        double var = bias;
        for (int c = 0; c < C; ++c) var += double(in[c * HW + i]) * in[c * HW + i];
        for (int c = 0; c < C; ++c) want[c * HW + i] = in[c * HW + i] / std::sqrt(var);
    }
    return want;
}

// Reads through a macro, which the half-storage rewriting does not follow.
const char* macro_cl = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define AT(p, i) p[i]
__kernel void twice(__global const half* src, __global half* dst) {
    const int i = get_global_id(0);
    AT(dst, i) = AT(src, i) * (half)2;
}
)";

// Stage 0 keeps 3x in a half stage buffer; stage 1 gives what rounding it to half lost.
const char* stage_cl = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void triple(__global const half* src, __global half* tripled) {
    const int i = get_global_id(0);
    tripled[i] = (float)src[i] * 3.0f;
}
__kernel void lost(__global const half* src, __global const half* tripled, __global half* dst) {
    const int i = get_global_id(0);
    dst[i] = (float)tripled[i] - (float)src[i] * 3.0f;
}
)";

std::string one_stage_xml(const std::string& name, const std::string& entry,
                          const std::string& file) {
    return "<CustomLayer name=\"" + name + "\" type=\"MVCL\" version=\"1\">\n<Kernel entry=\"" +
           entry + "\"><Source filename=\"" + file +
           "\"/></Kernel>\n<Parameters>\n"
           "<Tensor arg-name=\"src\" type=\"input\" port-index=\"0\"/>\n"
           "<Tensor arg-name=\"dst\" type=\"output\" port-index=\"0\"/>\n</Parameters>\n"
           "<WorkSizes dim=\"input,0\" global=\"B*F*Y*X,1,1\"/>\n</CustomLayer>\n";
}

const char* stage_xml = R"(<CustomLayer name="Lost" type="MVCL" version="1">
  <Kernel entry="triple" stage="0"><Source filename="stage.cl"/>
    <Parameters>
      <Tensor arg-name="src" type="input" port-index="0"/>
      <Tensor arg-name="tripled" type="output_buffer" port-index="1" dim="input,0" size="B*F*Y*X*2"/>
    </Parameters>
    <WorkSizes dim="input,0" global="B*F*Y*X,1,1"/>
  </Kernel>
  <Kernel entry="lost" stage="1"><Source filename="stage.cl"/>
    <Parameters>
      <Tensor arg-name="src" type="input" port-index="0"/>
      <Tensor arg-name="tripled" type="input_buffer" port-index="1" dim="input,0" size="B*F*Y*X*2"/>
      <Tensor arg-name="dst" type="output" port-index="0"/>
    </Parameters>
    <WorkSizes dim="input,0" global="B*F*Y*X,1,1"/>
  </Kernel>
</CustomLayer>
)";

}  // namespace

TEST_CASE("half buffers: a shipped layer runs without conversion passes, as the float path does") {
    const Shape shape{1, 6, 5, 7};
    const LayerSpec spec{"GRN", {{"bias", "0.5"}}, {shape}, {}, shape, {}};
    const auto in = to_half(random_values(210, -2, 2, 11));
    const std::vector<double> want = grn_reference(in, 6, 35, 0.5);
    Runtime kept(myriad_test::device_index());
    kept.set_force_half_promotion(true);
    Layer direct = kept.create_layer(spec);
    CHECK(direct.precision() == Precision::fp32_promoted);
    CHECK(direct.conversion_passes() == 0);
    Runtime converted(myriad_test::device_index());
    converted.set_force_half_promotion(true);
    converted.set_keep_half_buffers(false);
    Layer around = converted.create_layer(spec);
    CHECK(around.conversion_passes() == 2);  // half -> float in, float -> half out
    const HostTensor a = direct.run({{shape, Layout::BFYX, in}});
    const HostTensor b = around.run({{shape, Layout::BFYX, in}});
    check_close(a.values, want, 2e-3, 4e-3);
    CHECK(a.values == b.values);  // same float arithmetic, same rounding to half
}

TEST_CASE("half buffers: a source the rewriting cannot follow has its buffers converted") {
    ScratchDir dir("half_buffers_macro");
    dir.write("macro.cl", macro_cl);
    Runtime rt(myriad_test::device_index());
    rt.set_force_half_promotion(true);
    rt.load_bindings(dir.write("macro.xml", one_stage_xml("Twice", "twice", "macro.cl")));
    const Shape shape{1, 2, 3, 4};
    Layer layer = rt.create_layer(LayerSpec{"Twice", {}, {shape}, {}, shape, {}});
    CHECK(layer.conversion_passes() == 2);
    const auto in = to_half(random_values(24, -4, 4, 12));
    std::vector<double> want;
    for (float v : in) want.push_back(2.0 * v);
    check_close(layer.run({{shape, Layout::BFYX, in}}).values, want, 0, 0);
}

TEST_CASE("half buffers: a half stage buffer holds half values between stages") {
    ScratchDir dir("half_buffers_stage");
    dir.write("stage.cl", stage_cl);
    Runtime rt(myriad_test::device_index());
    rt.set_force_half_promotion(true);
    rt.load_bindings(dir.write("stage.xml", stage_xml));
    const Shape shape{1, 1, 8, 16};
    Layer layer = rt.create_layer(LayerSpec{"Lost", {}, {shape}, {}, shape, {}});
    CHECK(layer.conversion_passes() == 0);
    const auto in = to_half(random_values(128, -8, 8, 13));
    std::vector<double> want;
    int nonzero = 0;
    for (float v : in) {
        const float lost = to_half(3.0f * v) - 3.0f * v;  // exact in float
        want.push_back(to_half(lost));
        nonzero += lost != 0.0f;
    }
    CHECK(nonzero > 10);
    check_close(layer.run({{shape, Layout::BFYX, in}}).values, want, 0, 0);
}
