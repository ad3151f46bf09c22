// test_elementwise.cpp -- activation (all functions), binary (all ops, broadcasting, gamma, B
// unused), fill and batchnorm against host references, in fp32 and fp16.
#include "clml_test_support.h"
#include "reference_ops.h"

#include <limits>

using namespace clml_test;

namespace {
const cl_channel_type kTypes[] = {CL_FLOAT, CL_HALF_FLOAT};
}

TEST_CASE("activation: every function, NCHW and NHWC") {
  for (cl_channel_type type : kTypes) {
    for (int fn = CL_ACTIVATION_RELU; fn <= CL_ACTIVATION_LEAKY_RELU; ++fn) {
      CAPTURE(type);
      CAPTURE(fn);
      const int N = 1, C = 3, H = 5, W = 7;
      DeviceTensor in, param, out;
      create(in, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, N, C, H, W));
      create(out, make_desc(type, CL_TENSOR_LAYOUT_NHWC_QCOM, N, C, H, W));
      std::vector<float> x = quantize(random_values(in.elements(), -8, 8), type);
      in.write(x);
      std::vector<float> slopes = quantize({0.1f, 0.2f, 0.3f}, type);
      const bool with_param = fn == CL_ACTIVATION_PRELU;
      if (with_param) {
        create(param, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, C, 1, 1));
        param.write(slopes);
      }
      cl_ml_op_activation_desc_qcom desc{
          static_cast<cl_activation_function_qcom>(fn), CL_PROPAGATE_NAN_QCOM,
          type == CL_FLOAT ? CL_ARITHMETIC_MODE_FP32_QCOM : CL_ARITHMETIC_MODE_FP16_QCOM};
      cl_ml_op_qcom op = nullptr;
      REQUIRE(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &desc, in.tensor,
                                                      with_param ? param.tensor : nullptr, out.tensor, &op,
                                                      nullptr) == CL_SUCCESS);
      if (with_param)
        run_op(op, {&in, &param, &out});
      else
        run_op(op, {&in, &out});
      std::vector<float> want(x.size());
      for (size_t i = 0; i < x.size(); ++i) {
        const int c = static_cast<int>(i / (H * W)) % C;
        const float p = fn == CL_ACTIVATION_PRELU ? slopes[c] : fn == CL_ACTIVATION_LEAKY_RELU ? 0.01f : 1.0f;
        want[i] = ref::activate(x[i], fn, p);
      }
      check_close(out.read(), want, tolerance(type, 1e-5f, 1e-3f));
    }
  }
}

TEST_CASE("activation: clip (relu6-style) on a large tensor") {
  // The client test clips (1,32,256,256) to [-1,1]; here relu6 on a reduced (1,32,64,64).
  DeviceTensor in, out;
  create(in, make_desc(CL_HALF_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 32, 64, 64));
  create(out, make_desc(CL_HALF_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 32, 64, 64));
  std::vector<float> x = quantize(random_values(in.elements(), -10, 10), CL_HALF_FLOAT);
  in.write(x);
  cl_ml_op_activation_desc_qcom desc{CL_ACTIVATION_RELU6, CL_DO_NOT_PROPAGATE_NAN_QCOM, CL_ARITHMETIC_MODE_FP16_QCOM};
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &desc, in.tensor, nullptr, out.tensor, &op,
                                                  nullptr) == CL_SUCCESS);
  run_op(op, {&in, &out});
  std::vector<float> want(x.size());
  for (size_t i = 0; i < x.size(); ++i) want[i] = ref::activate(x[i], CL_ACTIVATION_RELU6);
  check_close(out.read(), want, 1e-3f);
}

TEST_CASE("binary: all ops with alpha, beta, gamma and broadcasting") {
  for (cl_channel_type type : kTypes) {
    for (int bop = CL_TENSOR_OP_ADD_QCOM; bop <= CL_TENSOR_OP_DIV_QCOM; ++bop) {
      CAPTURE(type);
      CAPTURE(bop);
      const int C = 4, H = 3, W = 5;
      DeviceTensor a, b, c;
      create(a, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, C, H, W));
      create(b, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, C, 1, 1));  // broadcast per channel
      create(c, make_desc(type, CL_TENSOR_LAYOUT_NHWC_QCOM, 1, C, H, W));
      std::vector<float> va = quantize(random_values(a.elements(), 0.5f, 2.0f, 1), type);
      std::vector<float> vb = quantize(random_values(b.elements(), 0.5f, 2.0f, 2), type);
      std::vector<float> vc = quantize(random_values(c.elements(), -1.0f, 1.0f, 3), type);
      a.write(va);
      b.write(vb);
      c.write(vc);
      const float alpha = 1.5f, beta = 0.5f, gamma = 0.25f;
      cl_ml_op_binary_desc_qcom desc{static_cast<cl_binary_op_qcom>(bop), fp32_value(alpha), fp32_value(beta),
                                     fp32_value(gamma), CL_ARITHMETIC_MODE_FP32_QCOM};
      cl_ml_op_qcom op = nullptr;
      REQUIRE(api().clCreateMLOpBinaryQCOM(env().context, nullptr, &desc, a.tensor, b.tensor, c.tensor, &op, nullptr) ==
              CL_SUCCESS);
      run_op(op, {&a, &b, &c});
      std::vector<float> want(va.size());
      for (size_t i = 0; i < va.size(); ++i) {
        const float x = alpha * va[i], y = beta * vb[i / (H * W)];
        float r = bop == 0   ? x + y
                  : bop == 1 ? x - y
                  : bop == 2 ? x * y
                  : bop == 3 ? std::min(x, y)
                  : bop == 4 ? std::max(x, y)
                             : x / y;
        want[i] = r + gamma * vc[i];
      }
      check_close(c.read(), want, tolerance(type, 1e-5f, 1e-2f));
    }
  }
}

TEST_CASE("binary: B unused computes (gamma*C) op (alpha*A)") {
  DeviceTensor a, c;
  create(a, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 2, 3, 4, 4));
  create(c, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 2, 3, 4, 4));
  std::vector<float> va = random_values(a.elements(), -1, 1, 4), vc = random_values(c.elements(), -1, 1, 5);
  a.write(va);
  c.write(vc);
  cl_ml_op_binary_desc_qcom desc{CL_TENSOR_OP_SUB_QCOM, fp32_value(2.0f), fp32_value(1.0f), fp32_value(3.0f),
                                 CL_ARITHMETIC_MODE_FP32_QCOM};
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpBinaryQCOM(env().context, nullptr, &desc, a.tensor, unused_tensor(), c.tensor, &op,
                                       nullptr) == CL_SUCCESS);
  run_op(op, {&a, &c});
  std::vector<float> want(va.size());
  for (size_t i = 0; i < va.size(); ++i) want[i] = 3.0f * vc[i] - 2.0f * va[i];
  check_close(c.read(), want, 1e-5f);
}

TEST_CASE("fill: fp32, fp16, int8 and a 5D tensor") {
  for (cl_channel_type type : {CL_FLOAT, CL_HALF_FLOAT, CL_SIGNED_INT8}) {
    DeviceTensor t;
    create(t, make_desc(type, CL_TENSOR_LAYOUT_NHWC_QCOM, 1, 3, 4, 5, 2, true));
    cl_ml_op_fill_desc_qcom desc{fp32_value(type == CL_SIGNED_INT8 ? -7.0f : 2.5f), CL_ARITHMETIC_MODE_FP32_QCOM};
    cl_ml_op_qcom op = nullptr;
    REQUIRE(api().clCreateMLOpFillQCOM(env().context, nullptr, &desc, t.tensor, &op, nullptr) == CL_SUCCESS);
    run_op(op, {&t});
    check_close(t.read(), std::vector<float>(t.elements(), type == CL_SIGNED_INT8 ? -7.0f : 2.5f), 0);
  }
}

TEST_CASE("batchnorm with epsilon property") {
  for (cl_channel_type type : kTypes) {
    CAPTURE(type);
    const int N = 2, C = 5, H = 6, W = 7;
    DeviceTensor in, mean, var, scale, bias, out;
    create(in, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, N, C, H, W));
    create(out, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, N, C, H, W));
    for (DeviceTensor* t : {&mean, &var, &scale, &bias})
      create(*t, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, C, 1, 1));
    const float eps = 1e-3f;
    uint32_t eps_bits;
    std::memcpy(&eps_bits, &eps, 4);
    cl_ml_op_properties_qcom props[] = {CL_ML_OP_BATCH_NORM_OP_EPSILON_QCOM,
                                        static_cast<cl_ml_op_properties_qcom>(eps_bits), 0};
    cl_ml_op_batchnorm_desc_qcom desc{CL_BATCHNORM_MODE_SPATIAL_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
    cl_ml_op_qcom op = nullptr;
    REQUIRE(api().clCreateMLOpBatchNormForwardQCOM(env().context, props, &desc, in.tensor, mean.tensor, var.tensor,
                                                   scale.tensor, bias.tensor, out.tensor, &op, nullptr) == CL_SUCCESS);
    std::vector<float> x = quantize(random_values(in.elements(), -2, 2), type);
    std::vector<float> m = quantize(random_values(C, -1, 1, 11), type),
                       v = quantize(random_values(C, 0.5f, 2, 12), type);
    std::vector<float> g = quantize(random_values(C, 0.5f, 1.5f, 13), type),
                       b = quantize(random_values(C, -1, 1, 14), type);
    in.write(x);
    mean.write(m);
    var.write(v);
    scale.write(g);
    bias.write(b);
    run_op(op, {&in, &mean, &var, &scale, &bias, &out});
    std::vector<float> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      const int c = static_cast<int>(i / (H * W)) % C;
      want[i] = (x[i] - m[c]) / std::sqrt(v[c] + eps) * g[c] + b[c];
    }
    check_close(out.read(), want, tolerance(type, 1e-5f, 1e-3f));
  }
}

TEST_CASE("int8 storage: relu and saturating binary add") {
  DeviceTensor a, b, c;
  for (DeviceTensor* t : {&a, &b, &c}) create(*t, make_desc(CL_SIGNED_INT8, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 2, 3, 4));
  std::vector<float> va(24), vb(24);
  for (int i = 0; i < 24; ++i) {
    va[i] = static_cast<float>(i * 11 - 128);
    vb[i] = static_cast<float>(100 - i * 3);
  }
  a.write(va);
  b.write(vb);
  cl_ml_op_binary_desc_qcom desc{CL_TENSOR_OP_ADD_QCOM, fp32_value(1), fp32_value(1), fp32_value(0),
                                 CL_ARITHMETIC_MODE_INT32_QCOM};
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpBinaryQCOM(env().context, nullptr, &desc, a.tensor, b.tensor, c.tensor, &op, nullptr) ==
          CL_SUCCESS);
  run_op(op, {&a, &b, &c});
  std::vector<float> want(24);
  for (int i = 0; i < 24; ++i) want[i] = std::min(127.0f, std::max(-128.0f, va[i] + vb[i]));
  check_close(c.read(), want, 0);
  cl_ml_op_activation_desc_qcom act{CL_ACTIVATION_RELU, CL_DO_NOT_PROPAGATE_NAN_QCOM, CL_ARITHMETIC_MODE_INT32_QCOM};
  REQUIRE(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &act, a.tensor, nullptr, b.tensor, &op,
                                                  nullptr) == CL_SUCCESS);
  run_op(op, {&a, &b});
  for (int i = 0; i < 24; ++i) want[i] = std::max(0.0f, va[i]);
  check_close(b.read(), want, 0);
}

TEST_CASE("activation: NaN propagation modes") {
  DeviceTensor in, out;
  create(in, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, 1, 4));
  create(out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, 1, 4));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  in.write({nan, -1.0f, 2.0f, nan});
  for (int mode : {CL_DO_NOT_PROPAGATE_NAN_QCOM, CL_PROPAGATE_NAN_QCOM}) {
    cl_ml_op_activation_desc_qcom act{CL_ACTIVATION_RELU, static_cast<cl_nan_mode_qcom>(mode),
                                      CL_ARITHMETIC_MODE_FP32_QCOM};
    cl_ml_op_qcom op = nullptr;
    REQUIRE(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &act, in.tensor, nullptr, out.tensor, &op,
                                                    nullptr) == CL_SUCCESS);
    run_op(op, {&in, &out});
    std::vector<float> got = out.read();
    CHECK(std::isnan(got[0]) == (mode == CL_PROPAGATE_NAN_QCOM));
    CHECK(got[1] == 0.0f);
    CHECK(got[2] == 2.0f);
  }
}
