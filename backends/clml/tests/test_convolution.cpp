// test_convolution.cpp -- convolution in all three modes (regular incl. grouped and dilated,
// depthwise, transposed), 5D, and the three fusions, on the client's shapes (the 256x256 and
// 512x512 images reduced to keep the suite fast), fp32 and fp16.
#include "clml_test_support.h"
#include "reference_ops.h"

using namespace clml_test;

namespace {

struct ConvCase {
  int c, h, w, o, kh, kw, pad, stride;
  bool bias;
  int act;  // -1 none
  int mode = CL_CONVOLUTION_MODE_CONVOLUTION_QCOM;
  int groups = 1;
  int dil = 1;
  int batch = 1;
};

void run_conv(const ConvCase& k, cl_channel_type type,
              cl_tensor_layout_qcom io_layout = CL_TENSOR_LAYOUT_OPTIMAL_QCOM) {
  CAPTURE(k.c);
  CAPTURE(k.h);
  CAPTURE(k.o);
  CAPTURE(k.kh);
  CAPTURE(k.kw);
  CAPTURE(k.mode);
  CAPTURE(type);
  const bool depthwise = k.mode == CL_CONVOLUTION_MODE_DEPTHWISE_QCOM;
  ref::ConvParams p;
  p.n = k.batch, p.c = k.c, p.h = k.h, p.w = k.w, p.o = depthwise ? k.c : k.o, p.kh = k.kh, p.kw = k.kw;
  p.sh = p.sw = k.stride;
  p.pt = p.pl = p.pb = p.pr = k.pad;
  p.dh = p.dw = k.dil;
  p.groups = depthwise ? k.c : k.groups;
  DeviceTensor in, wt, bias, out;
  create(in, make_desc(type, io_layout, p.n, p.c, p.h, p.w));
  create(wt, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, p.o, p.c / p.groups, p.kh, p.kw));
  if (k.bias) create(bias, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.o, 1, 1));
  create(out, make_desc(type, io_layout, p.n, p.o, p.oh(), p.ow()));
  cl_ml_op_convolution_desc_qcom desc{};
  desc.mode = static_cast<cl_convolution_mode_qcom>(k.mode);
  desc.group_count = static_cast<cl_uint>(depthwise ? 1 : k.groups);
  desc.num_dimensions = 4;
  for (int i = 0; i < 2; ++i) {
    desc.input_padding_before[i] = desc.input_padding_after[i] = static_cast<cl_uint>(k.pad);
    desc.filter_stride[i] = static_cast<cl_uint>(k.stride);
    desc.dilation[i] = static_cast<cl_uint>(k.dil);
  }
  desc.arithmetic_mode = type == CL_FLOAT ? CL_ARITHMETIC_MODE_FP32_QCOM : CL_ARITHMETIC_MODE_FP16_QCOM;
  cl_ml_op_qcom op = nullptr;
  if (k.act >= 0) {
    cl_ml_op_activation_desc_qcom act{static_cast<cl_activation_function_qcom>(k.act), CL_PROPAGATE_NAN_QCOM,
                                      desc.arithmetic_mode};
    REQUIRE(api().clCreateMLOpFusedConvolutionActivationForwardQCOM(env().context, nullptr, &desc, &act, in.tensor,
                                                                    wt.tensor, k.bias ? bias.tensor : unused_tensor(),
                                                                    nullptr, out.tensor, &op, nullptr) == CL_SUCCESS);
  } else {
    REQUIRE(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &desc, in.tensor, wt.tensor,
                                                     k.bias ? bias.tensor : unused_tensor(), out.tensor, &op,
                                                     nullptr) == CL_SUCCESS);
  }
  std::vector<float> x = quantize(random_values(in.elements(), -1, 1, 31), type);
  std::vector<float> w = quantize(random_values(wt.elements(), -1, 1, 32), type);
  std::vector<float> b = k.bias ? quantize(random_values(p.o, -1, 1, 33), type) : std::vector<float>{};
  in.write(x);
  wt.write(w);
  if (k.bias) bias.write(b);
  if (k.bias)
    run_op(op, {&in, &wt, &bias, &out});
  else
    run_op(op, {&in, &wt, &out});
  std::vector<float> want = ref::conv2d(p, x, w, b);
  if (k.act >= 0)
    for (float& v : want) v = ref::activate(v, k.act);
  check_close(out.read(), want, tolerance(type, 1e-5f, 1e-1f));
}

const ConvCase kClientCases[] = {
    {14, 10, 10, 4, 3, 3, 1, 1, true, -1},
    {16, 10, 10, 4, 2, 2, 1, 1, false, -1},
    {14, 10, 10, 4, 5, 5, 1, 2, false, -1},
    {6, 64, 64, 4, 5, 5, 1, 1, true, CL_ACTIVATION_RELU},
    {4, 96, 96, 4, 3, 3, 0, 1, false, -1},
    {16, 20, 20, 16, 1, 3, 0, 1, false, CL_ACTIVATION_RELU},
    {64, 20, 20, 64, 3, 1, 0, 1, false, CL_ACTIVATION_RELU},
};

}  // namespace

TEST_CASE("convolution fp32: client shapes") {
  for (const ConvCase& k : kClientCases) run_conv(k, CL_FLOAT);
}

TEST_CASE("convolution fp16: client shapes") {
  for (const ConvCase& k : kClientCases) run_conv(k, CL_HALF_FLOAT);
}

TEST_CASE("convolution: NHWC tensors, grouped, dilated, batch > 1 layouts") {
  run_conv({8, 9, 11, 6, 3, 3, 1, 1, true, -1}, CL_FLOAT, CL_TENSOR_LAYOUT_NHWC_QCOM);
  run_conv({8, 9, 11, 6, 3, 3, 1, 1, true, -1, CL_CONVOLUTION_MODE_CONVOLUTION_QCOM, 2}, CL_FLOAT);
  run_conv({4, 12, 12, 8, 3, 3, 2, 1, false, CL_ACTIVATION_TANH, CL_CONVOLUTION_MODE_CONVOLUTION_QCOM, 1, 2}, CL_FLOAT);
  run_conv({6, 10, 13, 8, 3, 3, 1, 2, true, CL_ACTIVATION_RELU6, CL_CONVOLUTION_MODE_CONVOLUTION_QCOM, 1, 1, 3},
           CL_FLOAT, CL_TENSOR_LAYOUT_NHWC_QCOM);
}

TEST_CASE("depthwise convolution: client shapes") {
  for (cl_channel_type type : {CL_FLOAT, CL_HALF_FLOAT}) {
    run_conv({11, 20, 20, 0, 3, 3, 1, 1, true, -1, CL_CONVOLUTION_MODE_DEPTHWISE_QCOM}, type);
    run_conv({32, 20, 20, 0, 5, 5, 2, 1, false, -1, CL_CONVOLUTION_MODE_DEPTHWISE_QCOM}, type);
    run_conv({128, 8, 8, 0, 3, 3, 2, 2, false, -1, CL_CONVOLUTION_MODE_DEPTHWISE_QCOM}, type);
    run_conv({16, 64, 64, 0, 3, 3, 1, 2, false, -1, CL_CONVOLUTION_MODE_DEPTHWISE_QCOM}, type);
  }
}

TEST_CASE("transposed convolution") {
  for (cl_channel_type type : {CL_FLOAT, CL_HALF_FLOAT}) {
    ref::ConvParams p;
    p.n = 2, p.c = 6, p.h = 5, p.w = 7, p.o = 4, p.kh = 3, p.kw = 3, p.sh = p.sw = 2, p.pt = p.pl = p.pb = p.pr = 1;
    const int OH = (p.h - 1) * 2 - 2 + 3, OW = (p.w - 1) * 2 - 2 + 3;
    DeviceTensor in, wt, out;
    create(in, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, p.n, p.c, p.h, p.w));
    create(wt, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, p.c, p.o, p.kh, p.kw));
    create(out, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, p.n, p.o, OH, OW));
    cl_ml_op_convolution_desc_qcom desc{};
    desc.mode = CL_CONVOLUTION_MODE_TRANSPOSE_QCOM;
    desc.group_count = 1;
    for (int i = 0; i < 2; ++i) {
      desc.input_padding_before[i] = desc.input_padding_after[i] = 1;
      desc.filter_stride[i] = 2;
      desc.dilation[i] = 1;
    }
    desc.arithmetic_mode = CL_ARITHMETIC_MODE_FP32_QCOM;
    cl_ml_op_qcom op = nullptr;
    REQUIRE(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &desc, in.tensor, wt.tensor,
                                                     unused_tensor(), out.tensor, &op, nullptr) == CL_SUCCESS);
    std::vector<float> x = quantize(random_values(in.elements(), -1, 1, 41), type);
    std::vector<float> w = quantize(random_values(wt.elements(), -1, 1, 42), type);
    in.write(x);
    wt.write(w);
    run_op(op, {&in, &wt, &out});
    check_close(out.read(), ref::conv2d_transpose(p, OH, OW, x, w), tolerance(type, 1e-5f, 1e-1f));
  }
}

TEST_CASE("5D convolution") {
  // 3D convolution: input (1, 3, D=4, 5, 6), weights (4, 3, 2, 3, 3), pad 1 in h/w, none in d.
  DeviceTensor in, wt, out;
  create(in, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 3, 5, 6, 4, true));
  create(wt, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 4, 3, 3, 3, 2, true));
  create(out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 4, 5, 6, 3, true));
  cl_ml_op_convolution_desc_qcom desc{};
  desc.mode = CL_CONVOLUTION_MODE_CONVOLUTION_QCOM;
  desc.group_count = 1;
  const cl_uint pads[3] = {0, 1, 1};
  for (int i = 0; i < 3; ++i) {
    desc.input_padding_before[i] = desc.input_padding_after[i] = pads[i];
    desc.filter_stride[i] = 1;
    desc.dilation[i] = 1;
  }
  desc.arithmetic_mode = CL_ARITHMETIC_MODE_FP32_QCOM;
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &desc, in.tensor, wt.tensor, unused_tensor(),
                                                   out.tensor, &op, nullptr) == CL_SUCCESS);
  std::vector<float> x = random_values(in.elements(), -1, 1, 51), w = random_values(wt.elements(), -1, 1, 52);
  in.write(x);
  wt.write(w);
  run_op(op, {&in, &wt, &out});
  // Reference: NCDHW.
  const int D = 4, H = 5, W = 6, OD = 3;
  std::vector<float> want(out.elements());
  for (int o = 0; o < 4; ++o)
    for (int od = 0; od < OD; ++od)
      for (int y = 0; y < H; ++y)
        for (int xx = 0; xx < W; ++xx) {
          double acc = 0;
          for (int c = 0; c < 3; ++c)
            for (int kd = 0; kd < 2; ++kd)
              for (int ky = 0; ky < 3; ++ky)
                for (int kx = 0; kx < 3; ++kx) {
                  const int id = od + kd, iy = y - 1 + ky, ix = xx - 1 + kx;
                  if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                  acc += double(x[((c * D + id) * H + iy) * W + ix]) * w[(((o * 3 + c) * 2 + kd) * 3 + ky) * 3 + kx];
                }
          want[((o * OD + od) * H + y) * W + xx] = float(acc);
        }
  check_close(out.read(), want, 1e-5f);
}

TEST_CASE("fused convolution + batchnorm (+ activation)") {
  for (bool with_act : {false, true}) {
    for (cl_channel_type type : {CL_FLOAT, CL_HALF_FLOAT}) {
      ref::ConvParams p;
      p.n = 1, p.c = 8, p.h = 12, p.w = 12, p.o = 8, p.kh = 3, p.kw = 3, p.pt = p.pl = p.pb = p.pr = 1;
      DeviceTensor in, wt, cb, out, mean, var, scale, bias;
      create(in, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.c, p.h, p.w));
      create(wt, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, p.o, p.c, 3, 3));
      create(out, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.o, p.oh(), p.ow()));
      for (DeviceTensor* t : {&cb, &mean, &var, &scale, &bias})
        create(*t, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.o, 1, 1));
      cl_ml_op_convolution_desc_qcom desc{};
      desc.mode = CL_CONVOLUTION_MODE_CONVOLUTION_QCOM;
      desc.group_count = 1;
      for (int i = 0; i < 2; ++i) {
        desc.input_padding_before[i] = desc.input_padding_after[i] = 1;
        desc.filter_stride[i] = desc.dilation[i] = 1;
      }
      desc.arithmetic_mode = CL_ARITHMETIC_MODE_FP32_QCOM;
      cl_ml_op_batchnorm_desc_qcom bn{CL_BATCHNORM_MODE_SPATIAL_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
      cl_ml_op_activation_desc_qcom act{CL_ACTIVATION_RELU, CL_DO_NOT_PROPAGATE_NAN_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
      cl_ml_op_qcom op = nullptr;
      if (with_act) {
        REQUIRE(api().clCreateMLOpFusedConvolutionBatchNormActivationForwardQCOM(
                    env().context, nullptr, &desc, &bn, &act, in.tensor, wt.tensor, cb.tensor, out.tensor, nullptr,
                    mean.tensor, var.tensor, scale.tensor, bias.tensor, &op, nullptr) == CL_SUCCESS);
      } else {
        REQUIRE(api().clCreateMLOpFusedConvolutionBatchNormForwardQCOM(
                    env().context, nullptr, &desc, &bn, in.tensor, wt.tensor, cb.tensor, out.tensor, mean.tensor,
                    var.tensor, scale.tensor, bias.tensor, &op, nullptr) == CL_SUCCESS);
      }
      std::vector<float> x = quantize(random_values(in.elements(), -1, 1, 61), type);
      std::vector<float> w = quantize(random_values(wt.elements(), -1, 1, 62), type);
      std::vector<float> vb = quantize(random_values(p.o, -1, 1, 63), type);
      std::vector<float> m = quantize(random_values(p.o, -1, 1, 64), type);
      std::vector<float> v = quantize(random_values(p.o, 0.5f, 2, 65), type);
      std::vector<float> g = quantize(random_values(p.o, 0.5f, 1.5f, 66), type);
      std::vector<float> be = quantize(random_values(p.o, -1, 1, 67), type);
      in.write(x);
      wt.write(w);
      cb.write(vb);
      mean.write(m);
      var.write(v);
      scale.write(g);
      bias.write(be);
      run_op(op, {&in, &wt, &cb, &out, &mean, &var, &scale, &bias});
      std::vector<float> want = ref::conv2d(p, x, w, vb);
      for (size_t i = 0; i < want.size(); ++i) {
        const int c = static_cast<int>(i / (p.oh() * p.ow()));
        want[i] = (want[i] - m[c]) / std::sqrt(v[c] + 1e-5f) * g[c] + be[c];
        if (with_act) want[i] = std::max(want[i], 0.0f);
      }
      check_close(out.read(), want, tolerance(type, 1e-5f, 1e-1f));
    }
  }
}
