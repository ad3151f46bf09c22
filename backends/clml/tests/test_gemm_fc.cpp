// test_gemm_fc.cpp -- gemm (the blocked GPU kernel forced onto this device, tiled and fallback paths,
// transposes, alpha/beta), transpose and fully connected (the client's dense shapes, bias, weight
// transform) against host references.
#include "clml_test_support.h"
#include "reference_ops.h"

using namespace clml_test;

namespace {

void gemm_case(cl_channel_type type, int m, int n, int k, bool ta, bool tb, float alpha, float beta, float tol) {
  CAPTURE(m);
  CAPTURE(n);
  CAPTURE(k);
  CAPTURE(ta);
  CAPTURE(tb);
  DeviceTensor a, b, c;
  create(a, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, ta ? k : m, ta ? m : k));
  create(b, make_desc(type, CL_TENSOR_LAYOUT_NHWC_QCOM, 1, 1, tb ? n : k, tb ? k : n));
  create(c, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, m, 1, n));
  std::vector<float> va = quantize(random_values(a.elements(), -1, 1, 1), type);
  std::vector<float> vb = quantize(random_values(b.elements(), -1, 1, 2), type);
  std::vector<float> vc = quantize(random_values(c.elements(), -1, 1, 3), type);
  a.write(va);
  b.write(vb);
  c.write(vc);
  cl_ml_op_gemm_desc_qcom desc{static_cast<cl_uint>(m),
                               static_cast<cl_uint>(n),
                               static_cast<cl_uint>(k),
                               ta ? CL_GEMM_TRANSFORM_TRANSPOSE_QCOM : CL_GEMM_TRANSFORM_NONE_QCOM,
                               tb ? CL_GEMM_TRANSFORM_TRANSPOSE_QCOM : CL_GEMM_TRANSFORM_NONE_QCOM,
                               fp32_value(alpha),
                               fp32_value(beta),
                               CL_ARITHMETIC_MODE_FP32_QCOM};
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpGemmQCOM(env().context, nullptr, &desc, a.tensor, b.tensor, c.tensor, &op, nullptr) ==
          CL_SUCCESS);
  run_op(op, {&a, &b, &c});
  check_close(c.read(), ref::gemm(m, n, k, ta, tb, alpha, beta, va, vb, vc), tol);
}

}  // namespace

TEST_CASE("gemm fp32: tiled and fallback shapes, all transposes") {
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      gemm_case(CL_FLOAT, 64, 32, 48, ta, tb, 1.0f, 0.0f, 1e-5f);
      gemm_case(CL_FLOAT, 13, 7, 9, ta, tb, 0.5f, 2.0f, 1e-5f);
    }
  gemm_case(CL_FLOAT, 128, 128, 128, false, false, 1.0f, 1.0f, 1e-5f);
}

// The GPU kernel, forced onto this device: tile multiples (several K steps through both local
// buffers) and ragged shapes (the bounds-checked variant), every transpose, alpha and beta.
TEST_CASE("gemm fp32: blocked kernel tiles, exact and ragged shapes, all transposes") {
  for (const char* tile : {"128x128x8_8x8", "64x64x16_8x8", "32x64x16_4x4"}) {
    CAPTURE(tile);
    const ScopedGemmKernel scoped(tile);
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        if (ta == tb) gemm_case(CL_FLOAT, 256, 128, 48, ta, tb, 1.0f, 0.0f, 1e-5f);
        gemm_case(CL_FLOAT, 131, 70, 37, ta, tb, 0.5f, 2.0f, 1e-5f);
      }
  }
}

TEST_CASE("gemm fp16") {
  gemm_case(CL_HALF_FLOAT, 32, 64, 16, false, true, 1.0f, 0.0f, 1e-2f);
  gemm_case(CL_HALF_FLOAT, 5, 6, 7, true, false, 1.0f, 0.5f, 1e-2f);
}

TEST_CASE("transpose") {
  for (cl_channel_type type : {CL_FLOAT, CL_HALF_FLOAT}) {
    const int m = 13, n = 21;
    DeviceTensor in, out;
    create(in, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, m, n));
    create(out, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, n, m));
    std::vector<float> v = quantize(random_values(in.elements()), type);
    in.write(v);
    cl_ml_op_transpose_desc_qcom desc{m, n, CL_ARITHMETIC_MODE_FP32_QCOM};
    cl_ml_op_qcom op = nullptr;
    REQUIRE(api().clCreateMLOpTransposeQCOM(env().context, nullptr, &desc, in.tensor, out.tensor, &op, nullptr) ==
            CL_SUCCESS);
    run_op(op, {&in, &out});
    std::vector<float> want(v.size());
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) want[j * m + i] = v[i * n + j];
    check_close(out.read(), want, 0);
  }
}

namespace {

// Dense (batch x k) x (units x k)^T (+ bias), the client's shapes.
void dense_case(cl_channel_type type, int batch, int k, int units, bool with_bias, bool transposed_weight) {
  CAPTURE(batch);
  CAPTURE(k);
  CAPTURE(units);
  DeviceTensor in, weight, bias, out;
  create(in, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, batch, k, 1, 1));
  create(weight, transposed_weight ? make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 1, units, k)
                                   : make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 1, k, units));
  if (with_bias) create(bias, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 1, 1, units));
  create(out, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, batch, units, 1, 1));
  cl_ml_op_fully_connected_desc_qcom desc{
      1, transposed_weight ? CL_FC_WEIGHT_TRANSFORM_TRANSPOSE_QCOM : CL_FC_WEIGHT_TRANSFORM_NONE_QCOM,
      CL_ARITHMETIC_MODE_FP32_QCOM};
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpFullyConnectedQCOM(env().context, nullptr, &desc, in.tensor, weight.tensor,
                                               with_bias ? bias.tensor : unused_tensor(), out.tensor, &op,
                                               nullptr) == CL_SUCCESS);
  std::vector<float> x = quantize(random_values(in.elements(), -1, 1, 21), type);
  std::vector<float> w = quantize(random_values(weight.elements(), -1, 1, 22), type);
  std::vector<float> bv = quantize(random_values(units, -1, 1, 23), type);
  in.write(x);
  weight.write(w);
  if (with_bias) bias.write(bv);
  if (with_bias)
    run_op(op, {&in, &weight, &bias, &out});
  else
    run_op(op, {&in, &weight, &out});
  std::vector<float> want = ref::gemm(batch, units, k, false, transposed_weight, 1.0f, 0.0f, x, w, {});
  if (with_bias)
    for (int i = 0; i < batch; ++i)
      for (int j = 0; j < units; ++j) want[i * units + j] += bv[j];
  check_close(out.read(), want, tolerance(type, 1e-5f, 1e-2f));
}

}  // namespace

TEST_CASE("fully connected: client dense shapes") {
  dense_case(CL_FLOAT, 5, 16, 32, false, true);
  dense_case(CL_FLOAT, 320, 64, 320, false, true);
  dense_case(CL_FLOAT, 1, 256, 100, false, true);
  dense_case(CL_FLOAT, 1, 512, 512, true, true);
  dense_case(CL_FLOAT, 3, 24, 10, true, false);
  dense_case(CL_HALF_FLOAT, 5, 16, 32, true, true);
  dense_case(CL_HALF_FLOAT, 1, 512, 512, true, true);
}

TEST_CASE("gemm fp16 and fully connected with bias: blocked kernel") {
  const ScopedGemmKernel scoped("64x64x16_4x4");
  gemm_case(CL_HALF_FLOAT, 64, 128, 32, false, true, 1.0f, 0.5f, 1e-2f);
  gemm_case(CL_HALF_FLOAT, 67, 65, 19, true, false, 1.0f, 0.0f, 1e-2f);
  dense_case(CL_FLOAT, 320, 64, 320, true, true);
  dense_case(CL_FLOAT, 64, 64, 128, true, false);
}

TEST_CASE("gemm on OPTIMAL tensors: flatten (a reshape that finalised its output) -> dense") {
  for (cl_channel_type type : {cl_channel_type{CL_FLOAT}, cl_channel_type{CL_HALF_FLOAT}}) {
    CAPTURE(type);
    // What code generators emit for flatten + dense: x (1,16,2,2) -> flat (1,64,1,1) OPTIMAL,
    // then y (1,10) = flat (1 x 64) * W^T with W (10 x 64).
    DeviceTensor x, flat, w, y;
    create(x, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 16, 2, 2));
    create(flat, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 64, 1, 1));
    create(w, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 10, 64, 1, 1));
    create(y, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 10, 1, 1));
    cl_ml_op_qcom reshape = nullptr, dense = nullptr;
    REQUIRE(api().clCreateMLOpReshapeQCOM(env().context, nullptr, x.tensor, flat.tensor, &reshape, nullptr) ==
            CL_SUCCESS);
    const cl_arithmetic_mode_qcom mode = type == CL_FLOAT ? CL_ARITHMETIC_MODE_FP32_QCOM : CL_ARITHMETIC_MODE_FP16_QCOM;
    const cl_ml_op_gemm_desc_qcom desc{
        1, 10, 64, CL_GEMM_TRANSFORM_NONE_QCOM, CL_GEMM_TRANSFORM_TRANSPOSE_QCOM, fp32_value(1), fp32_value(0), mode};
    REQUIRE(api().clCreateMLOpGemmQCOM(env().context, nullptr, &desc, flat.tensor, w.tensor, y.tensor, &dense,
                                       nullptr) == CL_SUCCESS);
    const std::vector<float> vx = quantize(random_values(x.elements(), -1, 1, 61), type);
    const std::vector<float> vw = quantize(random_values(w.elements(), -1, 1, 62), type);
    x.write(vx);
    w.write(vw);
    run_op(reshape, {&x, &flat});
    run_op(dense, {&flat, &w, &y});
    check_close(y.read(), ref::gemm(1, 10, 64, false, true, 1, 0, vx, vw, {}), tolerance(type, 1e-5f, 1e-2f));
  }
}

TEST_CASE("gemm on OPTIMAL tensors: an input a convolution laid out channels-last is read in NCHW order") {
  // conv 1x1 (1,8,2,2) -> (1,8,2,2) chooses channels-last; the gemm views the same tensor as a
  // 2 x 16 matrix of its logical NCHW elements.
  DeviceTensor in, wt, conv_out, b, c;
  create(in, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 8, 2, 2));
  create(wt, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 8, 8, 1, 1));
  create(conv_out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 8, 2, 2));
  create(b, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 1, 16, 3));
  create(c, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 1, 2, 3));
  cl_ml_op_convolution_desc_qcom conv{};
  conv.mode = CL_CONVOLUTION_MODE_CONVOLUTION_QCOM;
  conv.group_count = 1;
  conv.filter_stride[0] = conv.filter_stride[1] = 1;
  conv.arithmetic_mode = CL_ARITHMETIC_MODE_FP32_QCOM;
  cl_ml_op_qcom conv_op = nullptr, gemm_op = nullptr;
  REQUIRE(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &conv, in.tensor, wt.tensor, unused_tensor(),
                                                   conv_out.tensor, &conv_op, nullptr) == CL_SUCCESS);
  const cl_ml_op_gemm_desc_qcom desc{2,
                                     3,
                                     16,
                                     CL_GEMM_TRANSFORM_NONE_QCOM,
                                     CL_GEMM_TRANSFORM_NONE_QCOM,
                                     fp32_value(1),
                                     fp32_value(0),
                                     CL_ARITHMETIC_MODE_FP32_QCOM};
  REQUIRE(api().clCreateMLOpGemmQCOM(env().context, nullptr, &desc, conv_out.tensor, b.tensor, c.tensor, &gemm_op,
                                     nullptr) == CL_SUCCESS);
  const std::vector<float> vx = random_values(in.elements(), -1, 1, 71), vw = random_values(wt.elements(), -1, 1, 72);
  const std::vector<float> vb = random_values(b.elements(), -1, 1, 73);
  in.write(vx);
  wt.write(vw);
  b.write(vb);
  run_op(conv_op, {&in, &wt, &conv_out});
  run_op(gemm_op, {&conv_out, &b, &c});
  ref::ConvParams p;
  p.n = 1, p.c = 8, p.h = 2, p.w = 2, p.o = 8, p.kh = 1, p.kw = 1;
  const std::vector<float> conv_ref = ref::conv2d(p, vx, vw, {});
  check_close(c.read(), ref::gemm(2, 3, 16, false, false, 1, 0, conv_ref, vb, {}), 1e-5f);
}
