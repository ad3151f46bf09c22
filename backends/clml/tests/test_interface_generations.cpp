// test_interface_generations.cpp -- the later SDK generations as clients of them use the header:
// version macros pasted into names, the `ml`-infixed spellings, interface tables V2 to V4 with
// every earlier member, the V2 clip op and the V4 tensors created with a usage.
#include <algorithm>
#include <type_traits>

#include "clml_test_support.h"
#include "reference_ops.h"

using namespace clml_test;

// How version-dispatching clients build names from the header's major version.
#define CLML_TEST_CAT_I(a, b) a##b
#define CLML_TEST_CAT(a, b) CLML_TEST_CAT_I(a, b)
#define CLML_TEST_NEWEST_INTERFACE CLML_TEST_CAT(CLML_TEST_CAT(CLMLInterfaceV, CL_QCOM_ML_OPS_H_MAJOR_VERSION), QCOM)
#define CLML_TEST_GET_NEWEST CLML_TEST_CAT(CLML_TEST_CAT(clGetMLInterfaceV, CL_QCOM_ML_OPS_H_MAJOR_VERSION), QCOM)

static_assert(CL_QCOM_ML_OPS_H_MAJOR_VERSION == 4, "header describes V4");
static_assert(CL_QCOM_ML_OPS_H_MINOR_VERSION >= 0, "minor version macro");
static_assert(std::is_same_v<CLML_TEST_NEWEST_INTERFACE, CLMLInterfaceV4QCOM>);
static_assert(std::is_same_v<cl_ml_tensor_layout_qcom, cl_tensor_layout_qcom>);
static_assert(std::is_same_v<cl_ml_tensor_dimensions_qcom, cl_tensor_dimensions_qcom>);
static_assert(CL_ML_TENSOR_MAX_SPATIAL_DIMS_QCOM == 3 && CL_TENSOR_MAX_SPATIAL_DIMS_QCOM == 3);
static_assert(CL_ML_TENSOR_MAX_DIMS_QCOM == 5);
static_assert(CL_TENSOR_USAGE_INVALID_QCOM == 0 && CL_TENSOR_USAGE_UNUSED_QCOM == 1 &&
              CL_TENSOR_USAGE_PARAMETER_QCOM == 2 && CL_TENSOR_USAGE_CNN_QCOM == 3 && CL_TENSOR_USAGE_TNN_QCOM == 4);
static_assert(CL_CLIP_BY_VALUE_QCOM == 0);

namespace {

// Same V1 entry points in a later table (members by name). Function pointers are compared in
// double parentheses: doctest cannot print them.
template <class Table>
void check_v1_members(const Table& t, const CLMLInterfaceV1QCOM& v1) {
  CHECK((t.clCreateMLOpGemmQCOM == v1.clCreateMLOpGemmQCOM));
  CHECK((t.clCreateMLOpConvolutionForwardQCOM == v1.clCreateMLOpConvolutionForwardQCOM));
  CHECK((t.clCreateMLOpBinaryQCOM == v1.clCreateMLOpBinaryQCOM));
  CHECK((t.clCreateMLOpReshapeQCOM == v1.clCreateMLOpReshapeQCOM));
  CHECK((t.clCreateMLTensorQCOM == v1.clCreateMLTensorQCOM));
  CHECK((t.clEnqueueMLOpQCOM == v1.clEnqueueMLOpQCOM));
  CHECK((t.clEnqueueCopyMLTensorDataQCOM == v1.clEnqueueCopyMLTensorDataQCOM));
  CHECK((t.clLoadMLTuningCacheQCOM == v1.clLoadMLTuningCacheQCOM));
  CHECK((t.clUpdateMLTensorMemoryDescriptorSetQCOM == v1.clUpdateMLTensorMemoryDescriptorSetQCOM));
  // Every V1 slot, by layout (V1's members open every table).
  auto* slots = reinterpret_cast<void* const*>(reinterpret_cast<const char*>(&t) + 2 * sizeof(cl_int));
  for (int i = 0; i < 38; ++i) CHECK(slots[i] != nullptr);
}

// clamp with NaN kept, as the op documents.
float clip_ref(float x, float lo, float hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

}  // namespace

TEST_CASE("interface generations: versions listed ascending, V2..V4 tables with every earlier member") {
  cl_uint count = 0;
  REQUIRE(clQueryMLInterfaceVersionsQCOM(nullptr, nullptr, 0, &count) == CL_SUCCESS);
  REQUIRE(count == 5);
  std::vector<cl_int> majors(count), minors(count);
  REQUIRE(clQueryMLInterfaceVersionsQCOM(majors.data(), minors.data(), count, nullptr) == CL_SUCCESS);
  CHECK(majors == std::vector<cl_int>{1, 1, 2, 3, 4});
  CHECK(minors == std::vector<cl_int>{0, 1, 0, 0, 0});

  const CLMLInterfaceV1QCOM* v1 = clGetMLInterfaceV1QCOM(1);
  const CLMLInterfaceV2QCOM* v2 = clGetMLInterfaceV2QCOM(0);
  const CLMLInterfaceV3QCOM* v3 = clGetMLInterfaceV3QCOM(0);
  const CLMLInterfaceV4QCOM* v4 = CLML_TEST_GET_NEWEST(0);
  REQUIRE(v1 != nullptr);
  REQUIRE(v2 != nullptr);
  REQUIRE(v3 != nullptr);
  REQUIRE(v4 != nullptr);
  CHECK(v2->majorVersion == 2);
  CHECK(v3->majorVersion == 3);
  CHECK(v4->majorVersion == 4);
  CHECK(v4->minorVersion == 0);
  check_v1_members(*v2, *v1);
  check_v1_members(*v3, *v1);
  check_v1_members(*v4, *v1);
  REQUIRE((v2->clCreateMLOpClipQCOM != nullptr));
  CHECK((v3->clCreateMLOpClipQCOM == v2->clCreateMLOpClipQCOM));
  CHECK((v4->clCreateMLOpClipQCOM == v2->clCreateMLOpClipQCOM));
  CHECK((v4->clCreateMLTensorWithUsageQCOM != nullptr));
  // Minors that are not offered, and generations after V4.
  CHECK(clGetMLInterfaceV2QCOM(1) == nullptr);
  CHECK(clGetMLInterfaceV4QCOM(7) == nullptr);
  CLMLInterfaceV4QCOM* none = nullptr;
  CHECK(CL_GET_ML_INTERFACE_QCOM(none, 5, 0) == CL_INVALID_VALUE);
  CHECK(CL_GET_ML_INTERFACE_QCOM(none, 0, 0) == CL_INVALID_VALUE);
}

TEST_CASE("later spellings: the ml-infixed types describe tensors and host layouts") {
  const cl_ml_tensor_layout_qcom layout = CL_TENSOR_LAYOUT_NCHW_QCOM;
  const cl_ml_tensor_dimensions_qcom dims = CL_TENSOR_DIMENSIONS_4D_QCOM;
  // A descriptor as later clients initialise it, stride as {0}.
  cl_ml_tensor_desc_qcom desc = {CL_FLOAT, layout, 1, 3, 2, 2, 0, dims, {0}};
  cl_uint pads[CL_ML_TENSOR_MAX_SPATIAL_DIMS_QCOM] = {1, 1};
  CHECK(pads[2] == 0);
  DeviceTensor t;
  create(t, desc);
  const std::vector<float> x = random_values(t.elements(), -1, 1, 3);
  t.write(x, layout);
  CHECK(t.read(layout) == x);
}

TEST_CASE("V2 clip: fp32 and fp16, linear and OPTIMAL, NaN kept, the descriptor as clients write it") {
  for (cl_channel_type type : {cl_channel_type{CL_FLOAT}, cl_channel_type{CL_HALF_FLOAT}}) {
    for (cl_ml_tensor_layout_qcom layout : {CL_TENSOR_LAYOUT_NCHW_QCOM, CL_TENSOR_LAYOUT_OPTIMAL_QCOM}) {
      CAPTURE(type);
      CAPTURE(layout);
      const float a_max = 1.0f, a_min = -1.0f;
      const cl_arithmetic_mode_qcom mode =
          type == CL_FLOAT ? CL_ARITHMETIC_MODE_FP32_QCOM : CL_ARITHMETIC_MODE_FP16_QCOM;
      cl_ml_op_clip_desc_qcom clip_desc = {CL_CLIP_BY_VALUE_QCOM, {{a_max}, CL_FLOAT}, {{a_min}, CL_FLOAT}, mode};
      // The client's shape (1, 32, 256, 256) reduced to 64 x 64.
      DeviceTensor in, out;
      create(in, make_desc(type, layout, 1, 32, 64, 64));
      create(out, make_desc(type, layout, 1, 32, 64, 64));
      cl_ml_op_qcom op = nullptr;
      REQUIRE(api().clCreateMLOpClipQCOM(env().context, nullptr, &clip_desc, in.tensor, out.tensor, &op, nullptr) ==
              CL_SUCCESS);
      std::vector<float> x = quantize(random_values(in.elements(), -3, 3, 17), type);
      x[5] = std::nanf("");
      x[6] = -INFINITY;
      x[7] = INFINITY;
      in.write(x);
      run_op(op, {&in, &out});
      std::vector<float> want(x.size());
      std::transform(x.begin(), x.end(), want.begin(), [&](float v) { return clip_ref(v, a_min, a_max); });
      const std::vector<float> got = out.read();
      CHECK(std::isnan(got[5]));
      check_close(got, want, 0.0f);  // a clamp is exact in either storage type
    }
  }
}

TEST_CASE("V2 clip: a conv's channels-last OPTIMAL output stays channels-last through the clip") {
  // conv (1,8,6,6) -> 8 channels 1x1 is channels-last; the clip follows its input's layout.
  DeviceTensor in, wt, mid, out;
  create(in, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 8, 6, 6));
  create(wt, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 8, 8, 1, 1));
  create(mid, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 8, 6, 6));
  create(out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 8, 6, 6));
  cl_ml_op_convolution_desc_qcom conv{};
  conv.mode = CL_CONVOLUTION_MODE_CONVOLUTION_QCOM;
  conv.group_count = 1;
  conv.filter_stride[0] = conv.filter_stride[1] = 1;
  conv.arithmetic_mode = CL_ARITHMETIC_MODE_FP32_QCOM;
  cl_ml_op_qcom conv_op = nullptr, clip_op = nullptr;
  REQUIRE(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &conv, in.tensor, wt.tensor, unused_tensor(),
                                                   mid.tensor, &conv_op, nullptr) == CL_SUCCESS);
  const cl_ml_op_clip_desc_qcom clip{CL_CLIP_BY_VALUE_QCOM, fp32_value(0.5f), fp32_value(-0.25f),
                                     CL_ARITHMETIC_MODE_FP32_QCOM};
  REQUIRE(api().clCreateMLOpClipQCOM(env().context, nullptr, &clip, mid.tensor, out.tensor, &clip_op, nullptr) ==
          CL_SUCCESS);
  const std::vector<float> x = random_values(in.elements(), -1, 1, 21), w = random_values(wt.elements(), -1, 1, 22);
  in.write(x);
  wt.write(w);
  run_op(conv_op, {&in, &wt, &mid});
  run_op(clip_op, {&mid, &out});
  ref::ConvParams p;
  p.n = 1, p.c = 8, p.h = 6, p.w = 6, p.o = 8, p.kh = 1, p.kw = 1;
  std::vector<float> want = ref::conv2d(p, x, w, {});
  for (float& v : want) v = clip_ref(v, -0.25f, 0.5f);
  check_close(out.read(), want, 1e-5f);
}

TEST_CASE("V2 clip: descriptor and tensor errors") {
  DeviceTensor a, b, h, small;
  create(a, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 2, 3, 4));
  create(b, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 2, 3, 4));
  create(h, make_desc(CL_HALF_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 2, 3, 4));
  create(small, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 2, 3, 3));
  const cl_ml_op_clip_desc_qcom good{CL_CLIP_BY_VALUE_QCOM, fp32_value(1), fp32_value(-1),
                                     CL_ARITHMETIC_MODE_FP32_QCOM};
  cl_ml_op_qcom op = nullptr;
  auto create_clip = [&](const cl_ml_op_clip_desc_qcom* d, cl_ml_tensor_qcom in, cl_ml_tensor_qcom out) {
    return api().clCreateMLOpClipQCOM(env().context, nullptr, d, in, out, &op, nullptr);
  };
  CHECK(api().clCreateMLOpClipQCOM(nullptr, nullptr, &good, a.tensor, b.tensor, &op, nullptr) == CL_INVALID_CONTEXT);
  CHECK(create_clip(nullptr, a.tensor, b.tensor) == CL_INVALID_VALUE);
  CHECK(create_clip(&good, a.tensor, small.tensor) == CL_INVALID_VALUE);  // shapes differ
  CHECK(create_clip(&good, a.tensor, unused_tensor()) == CL_INVALID_VALUE);
  CHECK(create_clip(&good, a.tensor, h.tensor) == CL_ML_OP_NOT_ACCELERATED_QCOM);  // storage types differ
  cl_ml_op_clip_desc_qcom bad = good;
  bad.type = static_cast<cl_clip_mode_qcom>(1);
  CHECK(create_clip(&bad, a.tensor, b.tensor) == CL_INVALID_VALUE);
  bad = good;
  bad.min_value = fp32_value(2);  // min > max
  CHECK(create_clip(&bad, a.tensor, b.tensor) == CL_INVALID_VALUE);
  bad = good;
  bad.max_value = fp32_value(std::nanf(""));
  CHECK(create_clip(&bad, a.tensor, b.tensor) == CL_INVALID_VALUE);
  bad = good;
  bad.max_value.type = CL_UNORM_INT8;
  CHECK(create_clip(&bad, a.tensor, b.tensor) == CL_INVALID_VALUE);
  bad = good;
  bad.arithmetic_mode = static_cast<cl_arithmetic_mode_qcom>(9);
  CHECK(create_clip(&bad, a.tensor, b.tensor) == CL_INVALID_VALUE);
  // Bounds given as fp16 values.
  cl_ml_op_clip_desc_qcom half_bounds = good;
  half_bounds.max_value.type = CL_HALF_FLOAT;
  half_bounds.max_value.fp16 = float_to_half(0.5f);
  REQUIRE(create_clip(&half_bounds, a.tensor, b.tensor) == CL_SUCCESS);
  const std::vector<float> x{-2, -1, -0.5f, 0,     0.25f, 0.5f, 0.75f, 1,     2, 3,  -3,    0.4f,
                             5,  -5, 0.6f,  0.49f, -1.5f, 1.5f, 0.1f,  -0.1f, 9, -9, 0.51f, -0.99f};
  a.write(x);
  run_op(op, {&a, &b});
  std::vector<float> want(x.size());
  std::transform(x.begin(), x.end(), want.begin(), [](float v) { return clip_ref(v, -1.0f, 0.5f); });
  check_close(b.read(), want, 0.0f);
}

TEST_CASE("V4 tensors with a usage: every valid usage creates a working tensor, invalid ones are refused") {
  const cl_ml_tensor_desc_qcom desc = make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 4, 2, 2);
  cl_ml_tensor_qcom t = nullptr;
  for (cl_ml_tensor_usage_qcom usage :
       {CL_TENSOR_USAGE_PARAMETER_QCOM, CL_TENSOR_USAGE_CNN_QCOM, CL_TENSOR_USAGE_TNN_QCOM}) {
    CAPTURE(usage);
    DeviceTensor in, out;
    in.desc = out.desc = desc;
    REQUIRE(api().clCreateMLTensorWithUsageQCOM(env().context, nullptr, &desc, usage, &in.tensor) == CL_SUCCESS);
    REQUIRE(api().clCreateMLTensorWithUsageQCOM(env().context, nullptr, &desc, CL_TENSOR_USAGE_CNN_QCOM, &out.tensor) ==
            CL_SUCCESS);
    const cl_ml_op_clip_desc_qcom clip{CL_CLIP_BY_VALUE_QCOM, fp32_value(0.5f), fp32_value(-0.5f),
                                       CL_ARITHMETIC_MODE_FP32_QCOM};
    cl_ml_op_qcom op = nullptr;
    REQUIRE(api().clCreateMLOpClipQCOM(env().context, nullptr, &clip, in.tensor, out.tensor, &op, nullptr) ==
            CL_SUCCESS);
    const std::vector<float> x = random_values(in.elements(), -1, 1, 31);
    in.write(x);
    run_op(op, {&in, &out});
    std::vector<float> want(x.size());
    std::transform(x.begin(), x.end(), want.begin(), [](float v) { return clip_ref(v, -0.5f, 0.5f); });
    check_close(out.read(), want, 0.0f);
  }
  // The unused tensor of later clients: usage UNUSED with an UNUSED descriptor, accepted as a missing bias.
  cl_ml_tensor_desc_qcom unused_desc{};
  unused_desc.num_dimensions = CL_TENSOR_UNUSED_QCOM;
  REQUIRE(api().clCreateMLTensorWithUsageQCOM(env().context, nullptr, &unused_desc, CL_TENSOR_USAGE_UNUSED_QCOM, &t) ==
          CL_SUCCESS);
  CHECK(api().clReleaseMLTensorQCOM(t) == CL_SUCCESS);
  for (cl_ml_tensor_usage_qcom usage : {CL_TENSOR_USAGE_INVALID_QCOM, static_cast<cl_ml_tensor_usage_qcom>(5),
                                        static_cast<cl_ml_tensor_usage_qcom>(-1)})
    CHECK(api().clCreateMLTensorWithUsageQCOM(env().context, nullptr, &desc, usage, &t) == CL_INVALID_VALUE);
  CHECK(api().clCreateMLTensorWithUsageQCOM(nullptr, nullptr, &desc, CL_TENSOR_USAGE_CNN_QCOM, &t) ==
        CL_INVALID_CONTEXT);
  CHECK(api().clCreateMLTensorWithUsageQCOM(env().context, nullptr, nullptr, CL_TENSOR_USAGE_CNN_QCOM, &t) ==
        CL_INVALID_VALUE);
  cl_ml_tensor_desc_qcom bad = desc;
  bad.c = 0;
  CHECK(api().clCreateMLTensorWithUsageQCOM(env().context, nullptr, &bad, CL_TENSOR_USAGE_CNN_QCOM, &t) ==
        CL_INVALID_VALUE);
}
