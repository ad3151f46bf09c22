// test_optimal_layout.cpp -- the per-op OPTIMAL layout: convolutions that take the channels-last
// kernel finalise OPTIMAL activations NHWC (and OPTIMAL weights output-channels-innermost),
// element-wise ops and pooling keep their input's layout, and Read/Write/Copy convert it; ops that
// want NCHW (fully connected) or NHWC (the channels-last convolution given NCHW tensors) repack.
// Every result is compared with the host reference.
#include "clml_test_support.h"
#include "reference_ops.h"

using namespace clml_test;

namespace {

cl_ml_op_convolution_desc_qcom conv_desc(int pad, int stride) {
  cl_ml_op_convolution_desc_qcom desc{};
  desc.mode = CL_CONVOLUTION_MODE_CONVOLUTION_QCOM;
  desc.group_count = 1;
  desc.num_dimensions = 4;
  for (int i = 0; i < 2; ++i) {
    desc.input_padding_before[i] = desc.input_padding_after[i] = static_cast<cl_uint>(pad);
    desc.filter_stride[i] = static_cast<cl_uint>(stride);
    desc.dilation[i] = 1;
  }
  desc.arithmetic_mode = CL_ARITHMETIC_MODE_FP32_QCOM;
  return desc;
}

// Raw bytes of a backed tensor as floats (the physical layout, whatever it is).
std::vector<float> raw_floats(const DeviceTensor& t) {
  std::vector<float> out(t.elements());
  REQUIRE(clEnqueueReadBuffer(env().queue, t.memory, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  return out;
}

ref::ConvParams params(int n, int c, int h, int w, int o, int k, int pad, int stride) {
  ref::ConvParams p;
  p.n = n, p.c = c, p.h = h, p.w = w, p.o = o, p.kh = p.kw = k;
  p.sh = p.sw = stride;
  p.pt = p.pl = p.pb = p.pr = pad;
  return p;
}

}  // namespace

TEST_CASE("OPTIMAL channels-last: conv output is NHWC in memory and converts on read, write and copy") {
  const ref::ConvParams p = params(1, 8, 9, 11, 16, 3, 1, 1);
  DeviceTensor in, wt, out, linear;
  create(in, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.c, p.h, p.w));
  create(wt, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, p.o, p.c, 3, 3));
  create(out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.o, p.oh(), p.ow()));
  create(linear, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, p.o, p.oh(), p.ow()));
  const cl_ml_op_convolution_desc_qcom desc = conv_desc(1, 1);
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &desc, in.tensor, wt.tensor, unused_tensor(),
                                                   out.tensor, &op, nullptr) == CL_SUCCESS);
  // OPTIMAL NHWC is packed: the size is the plain one.
  cl_uint size = 0;
  REQUIRE(api().clGetMLTensorMemorySizeQCOM(env().context, out.tensor, &size) == CL_SUCCESS);
  CHECK(size == out.elements() * 4);
  const std::vector<float> x = random_values(in.elements(), -1, 1, 301);
  const std::vector<float> w = random_values(wt.elements(), -1, 1, 302);
  in.write(nchw_to_nhwc(x, 1, p.c, p.h, p.w),
           CL_TENSOR_LAYOUT_NHWC_QCOM);  // host NHWC into OPTIMAL
  wt.write(w);
  run_op(op, {&in, &wt, &out});
  const std::vector<float> want = ref::conv2d(p, x, w, {});
  const std::vector<float> want_nhwc = nchw_to_nhwc(want, 1, p.o, p.oh(), p.ow());
  check_close(out.read(), want, 1e-5f);
  check_close(out.read(CL_TENSOR_LAYOUT_NHWC_QCOM), want_nhwc, 1e-5f);
  // The layout chosen: the input was written NHWC through the OPTIMAL tensor, the output is NHWC.
  check_close(raw_floats(in), nchw_to_nhwc(x, 1, p.c, p.h, p.w), 0.0f);
  check_close(raw_floats(out), want_nhwc, 1e-5f);
  // Copy OPTIMAL (NHWC) -> linear NCHW converts.
  linear.allocate();
  REQUIRE(api().clEnqueueCopyMLTensorDataQCOM(env().queue, out.tensor, out.memory, linear.tensor, linear.memory, 0,
                                              nullptr, nullptr) == CL_SUCCESS);
  check_close(raw_floats(linear), want, 1e-5f);
  // And back: linear NCHW -> OPTIMAL after overwriting it.
  const std::vector<float> y = random_values(linear.elements(), -1, 1, 303);
  linear.write(y);
  REQUIRE(api().clEnqueueCopyMLTensorDataQCOM(env().queue, linear.tensor, linear.memory, out.tensor, out.memory, 0,
                                              nullptr, nullptr) == CL_SUCCESS);
  check_close(out.read(), y, 0.0f);
  check_close(raw_floats(out), nchw_to_nhwc(y, 1, p.o, p.oh(), p.ow()), 0.0f);
}

TEST_CASE("OPTIMAL channels-last: conv, relu, max pool and binary add keep NHWC between ops") {
  const ref::ConvParams p = params(1, 4, 8, 8, 8, 3, 1, 1);
  DeviceTensor in, wt, conv_out, act_out, pool_out, sum;
  create(in, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.c, p.h, p.w));
  create(wt, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, p.o, p.c, 3,
                       3));  // client weights: repacked
  create(conv_out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.o, 8, 8));
  create(act_out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.o, 8, 8));
  create(pool_out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.o, 4, 4));
  create(sum, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.o, 4, 4));
  const cl_ml_op_convolution_desc_qcom cd = conv_desc(1, 1);
  cl_ml_op_qcom conv = nullptr, act = nullptr, pool = nullptr, add = nullptr;
  REQUIRE(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &cd, in.tensor, wt.tensor, unused_tensor(),
                                                   conv_out.tensor, &conv, nullptr) == CL_SUCCESS);
  const cl_ml_op_activation_desc_qcom ad{CL_ACTIVATION_RELU, CL_PROPAGATE_NAN_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
  REQUIRE(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &ad, conv_out.tensor, nullptr, act_out.tensor,
                                                  &act, nullptr) == CL_SUCCESS);
  cl_ml_op_pooling_desc_qcom pd{};
  pd.mode = CL_POOLING_MODE_MAX_QCOM;
  pd.num_dimensions = 4;
  for (int i = 0; i < 2; ++i) pd.stride[i] = pd.window_size[i] = 2;
  pd.nan_propagation = CL_PROPAGATE_NAN_QCOM;
  pd.arithmetic_mode = CL_ARITHMETIC_MODE_FP32_QCOM;
  REQUIRE(api().clCreateMLOpPoolingForwardQCOM(env().context, nullptr, &pd, act_out.tensor, nullptr, pool_out.tensor,
                                               &pool, nullptr) == CL_SUCCESS);
  cl_ml_op_binary_desc_qcom bd{};
  bd.binary_op = CL_TENSOR_OP_ADD_QCOM;
  bd.alpha = fp32_value(1.0f);
  bd.beta = fp32_value(2.0f);
  bd.gamma = fp32_value(0.0f);
  bd.arithmetic_mode = CL_ARITHMETIC_MODE_FP32_QCOM;
  REQUIRE(api().clCreateMLOpBinaryQCOM(env().context, nullptr, &bd, pool_out.tensor, pool_out.tensor, sum.tensor, &add,
                                       nullptr) == CL_SUCCESS);
  const std::vector<float> x = random_values(in.elements(), -1, 1, 311);
  const std::vector<float> w = random_values(wt.elements(), -1, 1, 312);
  in.write(x);
  wt.write(w);
  run_op(conv, {&in, &wt, &conv_out});
  run_op(act, {&conv_out, &act_out});
  run_op(pool, {&act_out, &pool_out});
  run_op(add, {&pool_out, &sum});
  std::vector<float> relu = ref::conv2d(p, x, w, {});
  for (float& v : relu) v = std::max(v, 0.0f);
  const std::vector<float> want_pool = ref::pool2d(1, p.o, 8, 8, 2, 2, 2, 2, 0, 0, 0, 0, 0, 4, 4, relu);
  std::vector<float> want_sum = want_pool;
  for (float& v : want_sum) v *= 3.0f;
  check_close(raw_floats(act_out), nchw_to_nhwc(relu, 1, 8, 8, 8), 1e-5f);
  check_close(raw_floats(pool_out), nchw_to_nhwc(want_pool, 1, 8, 4, 4), 1e-5f);
  check_close(sum.read(), want_sum, 1e-5f);
}

TEST_CASE(
    "OPTIMAL channels-last: linear NCHW client tensors, batch 2, stride 2, bias and relu, fp32 and "
    "fp16") {
  for (cl_channel_type type : {CL_FLOAT, CL_HALF_FLOAT}) {
    CAPTURE(type);
    const ref::ConvParams p = params(2, 12, 11, 10, 16, 3, 1, 2);
    DeviceTensor in, wt, bias, out;
    create(in, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, 2, p.c, p.h, p.w));
    create(wt, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, p.o, p.c, 3, 3));
    create(bias, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, p.o, 1, 1));
    create(out, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, 2, p.o, p.oh(), p.ow()));
    cl_ml_op_convolution_desc_qcom cd = conv_desc(1, 2);
    cd.arithmetic_mode = type == CL_FLOAT ? CL_ARITHMETIC_MODE_FP32_QCOM : CL_ARITHMETIC_MODE_FP16_ACC32_QCOM;
    const cl_ml_op_activation_desc_qcom ad{CL_ACTIVATION_RELU, CL_PROPAGATE_NAN_QCOM, cd.arithmetic_mode};
    cl_ml_op_qcom op = nullptr;
    REQUIRE(api().clCreateMLOpFusedConvolutionActivationForwardQCOM(env().context, nullptr, &cd, &ad, in.tensor,
                                                                    wt.tensor, bias.tensor, nullptr, out.tensor, &op,
                                                                    nullptr) == CL_SUCCESS);
    const std::vector<float> x = quantize(random_values(in.elements(), -1, 1, 321), type);
    const std::vector<float> w = quantize(random_values(wt.elements(), -1, 1, 322), type);
    const std::vector<float> b = quantize(random_values(p.o, -1, 1, 323), type);
    in.write(x);
    wt.write(w);
    bias.write(b);
    run_op(op, {&in, &wt, &bias, &out});
    std::vector<float> want = ref::conv2d(p, x, w, b);
    for (float& v : want) v = std::max(v, 0.0f);
    check_close(out.read(), want, tolerance(type, 1e-5f, 1e-1f));
  }
}

TEST_CASE("OPTIMAL channels-last: fully connected reads a conv's NHWC output through an NCHW repack") {
  const ref::ConvParams p = params(1, 4, 5, 6, 8, 3, 1, 1);
  DeviceTensor in, wt, mid, fw, out;
  create(in, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.c, p.h, p.w));
  create(wt, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, p.o, p.c, 3, 3));
  create(mid, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.o, 5, 6));
  const int k = p.o * 5 * 6, n = 8;
  create(fw, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, n, k, 1, 1));
  create(out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, n, 1, 1));
  const cl_ml_op_convolution_desc_qcom cd = conv_desc(1, 1);
  cl_ml_op_qcom conv = nullptr, fc = nullptr;
  REQUIRE(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &cd, in.tensor, wt.tensor, unused_tensor(),
                                                   mid.tensor, &conv, nullptr) == CL_SUCCESS);
  const cl_ml_op_fully_connected_desc_qcom fd{1, CL_FC_WEIGHT_TRANSFORM_TRANSPOSE_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
  REQUIRE(api().clCreateMLOpFullyConnectedQCOM(env().context, nullptr, &fd, mid.tensor, fw.tensor, nullptr, out.tensor,
                                               &fc, nullptr) == CL_SUCCESS);
  const std::vector<float> x = random_values(in.elements(), -1, 1, 331);
  const std::vector<float> w = random_values(wt.elements(), -1, 1, 332);
  const std::vector<float> f = random_values(fw.elements(), -1, 1, 333);
  in.write(x);
  wt.write(w);
  fw.write(f);
  run_op(conv, {&in, &wt, &mid});
  run_op(fc, {&mid, &fw, &out});
  const std::vector<float> feature = ref::conv2d(p, x, w, {});
  std::vector<float> want(n, 0.0f);
  for (int j = 0; j < n; ++j) {
    double acc = 0;
    for (int i = 0; i < k; ++i) acc += double(feature[i]) * f[size_t(j) * k + i];
    want[j] = float(acc);
  }
  check_close(raw_floats(mid), nchw_to_nhwc(feature, 1, p.o, 5, 6), 1e-5f);
  check_close(out.read(), want, 1e-4f);
}

TEST_CASE("OPTIMAL channels-last: a depthwise conv reads a conv's NHWC output through an NCHW repack") {
  const ref::ConvParams p = params(1, 4, 7, 9, 8, 3, 1, 1);
  ref::ConvParams dw = params(1, 8, 7, 9, 8, 3, 1, 1);
  dw.groups = 8;
  DeviceTensor in, wt, mid, dwt, out;
  create(in, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.c, p.h, p.w));
  create(wt, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, p.o, p.c, 3, 3));
  create(mid, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, p.o, 7, 9));
  create(dwt, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 8, 1, 3, 3));
  create(out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 8, 7, 9));
  const cl_ml_op_convolution_desc_qcom cd = conv_desc(1, 1);
  cl_ml_op_convolution_desc_qcom dd = conv_desc(1, 1);
  dd.mode = CL_CONVOLUTION_MODE_DEPTHWISE_QCOM;
  cl_ml_op_qcom conv = nullptr, depthwise = nullptr;
  REQUIRE(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &cd, in.tensor, wt.tensor, unused_tensor(),
                                                   mid.tensor, &conv, nullptr) == CL_SUCCESS);
  REQUIRE(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &dd, mid.tensor, dwt.tensor, unused_tensor(),
                                                   out.tensor, &depthwise, nullptr) == CL_SUCCESS);
  const std::vector<float> x = random_values(in.elements(), -1, 1, 341);
  const std::vector<float> w = random_values(wt.elements(), -1, 1, 342);
  const std::vector<float> wd = random_values(dwt.elements(), -1, 1, 343);
  in.write(x);
  wt.write(w);
  dwt.write(wd);
  run_op(conv, {&in, &wt, &mid});
  run_op(depthwise, {&mid, &dwt, &out});
  const std::vector<float> feature = ref::conv2d(p, x, w, {});
  check_close(raw_floats(mid), nchw_to_nhwc(feature, 1, 8, 7, 9), 1e-5f);
  check_close(out.read(), ref::conv2d(dw, feature, wd, {}), 1e-5f);
  check_close(raw_floats(out), ref::conv2d(dw, feature, wd, {}), 1e-5f);  // depthwise output: NCHW
}
