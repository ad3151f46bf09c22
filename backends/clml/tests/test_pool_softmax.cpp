// test_pool_softmax.cpp -- pooling in all five modes (client shapes, the 147x147 one reduced)
// and softmax in its three modes, fp32 and fp16.
#include "clml_test_support.h"
#include "reference_ops.h"

using namespace clml_test;

namespace {

void pool_case(cl_channel_type type, int mode, int c, int h, int w, int k, int s, int pt, int pl, int pb, int pr) {
  CAPTURE(mode);
  CAPTURE(c);
  CAPTURE(h);
  CAPTURE(type);
  const bool global = mode >= CL_POOLING_MODE_GLOBAL_MAX_QCOM;
  const int OH = global ? 1 : (h + pt + pb - k) / s + 1, OW = global ? 1 : (w + pl + pr - k) / s + 1;
  DeviceTensor in, out;
  create(in, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, c, h, w));
  create(out, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, c, OH, OW));
  cl_ml_op_pooling_desc_qcom desc{};
  desc.mode = static_cast<cl_pooling_mode_qcom>(mode);
  desc.num_dimensions = 4;
  desc.input_padding_before[0] = pt, desc.input_padding_before[1] = pl;
  desc.input_padding_after[0] = pb, desc.input_padding_after[1] = pr;
  desc.stride[0] = desc.stride[1] = s;
  desc.window_size[0] = desc.window_size[1] = k;
  desc.arithmetic_mode = CL_ARITHMETIC_MODE_FP32_QCOM;
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpPoolingForwardQCOM(env().context, nullptr, &desc, in.tensor, nullptr, out.tensor, &op,
                                               nullptr) == CL_SUCCESS);
  std::vector<float> x = quantize(random_values(in.elements(), -4, 4), type);
  in.write(x);
  run_op(op, {&in, &out});
  std::vector<float> want;
  if (global)
    want = ref::pool2d(1, c, h, w, h, w, 1, 1, 0, 0, 0, 0, mode == 3 ? 0 : 2, 1, 1, x);
  else
    want = ref::pool2d(1, c, h, w, k, k, s, s, pt, pl, pb, pr, mode, OH, OW, x);
  check_close(out.read(), want, tolerance(type, 1e-5f, 1e-2f));
}

}  // namespace

TEST_CASE("pooling: client shapes and all modes") {
  for (cl_channel_type type : {CL_FLOAT, CL_HALF_FLOAT}) {
    pool_case(type, CL_POOLING_MODE_MAX_QCOM, 64, 49, 49, 3, 2, 0, 0, 0, 0);  // (1,64,147,147) reduced
    pool_case(type, CL_POOLING_MODE_MAX_QCOM, 192, 71, 71, 3, 2, 0, 0, 0, 0);
    pool_case(type, CL_POOLING_MODE_AVERAGE_EXCLUDE_PADDING_QCOM, 192, 35, 35, 3, 1, 0, 0, 1, 1);
    pool_case(type, CL_POOLING_MODE_AVERAGE_INCLUDE_PADDING_QCOM, 8, 10, 9, 3, 2, 1, 1, 1, 1);
    pool_case(type, CL_POOLING_MODE_AVERAGE_EXCLUDE_PADDING_QCOM, 8, 10, 9, 3, 2, 1, 1, 1, 1);
    pool_case(type, CL_POOLING_MODE_GLOBAL_MAX_QCOM, 16, 7, 7, 0, 1, 0, 0, 0, 0);
    pool_case(type, CL_POOLING_MODE_GLOBAL_AVERAGE_QCOM, 16, 7, 7, 0, 1, 0, 0, 0, 0);
  }
}

TEST_CASE("softmax: instance, channel and spatial modes") {
  struct Shape {
    int n, c, h, w;
  };
  for (cl_channel_type type : {CL_FLOAT, CL_HALF_FLOAT}) {
    for (int mode = CL_SOFTMAX_MODE_INSTANCE_QCOM; mode <= CL_SOFTMAX_MODE_SPATIAL_QCOM; ++mode) {
      for (Shape s : {Shape{1, 5, 1, 1}, Shape{1, 1000, 1, 1}, Shape{2, 3, 4, 5}}) {
        CAPTURE(mode);
        CAPTURE(s.c);
        DeviceTensor in, out;
        create(in, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, s.n, s.c, s.h, s.w));
        create(out, make_desc(type, CL_TENSOR_LAYOUT_NCHW_QCOM, s.n, s.c, s.h, s.w));
        cl_ml_op_softmax_desc_qcom desc{CL_SOFTMAX_ALGORITHM_ACCURATE_QCOM, static_cast<cl_softmax_mode_qcom>(mode),
                                        CL_ARITHMETIC_MODE_FP32_QCOM};
        cl_ml_op_qcom op = nullptr;
        REQUIRE(api().clCreateMLOpSoftmaxQCOM(env().context, nullptr, &desc, in.tensor, out.tensor, &op, nullptr) ==
                CL_SUCCESS);
        std::vector<float> x = quantize(random_values(in.elements(), -3, 3), type);
        in.write(x);
        run_op(op, {&in, &out});
        const int HW = s.h * s.w;
        auto key = [&](size_t i) {  // group id of element i
          const size_t n = i / (size_t(s.c) * HW), rest = i % HW;
          if (mode == CL_SOFTMAX_MODE_INSTANCE_QCOM) return n;
          if (mode == CL_SOFTMAX_MODE_CHANNEL_QCOM) return n * HW + rest;
          return i / HW;
        };
        std::vector<double> mx(x.size(), -1e30), sum(x.size(), 0);
        for (size_t i = 0; i < x.size(); ++i) mx[key(i)] = std::max(mx[key(i)], double(x[i]));
        for (size_t i = 0; i < x.size(); ++i) sum[key(i)] += std::exp(x[i] - mx[key(i)]);
        std::vector<float> want(x.size());
        for (size_t i = 0; i < x.size(); ++i) want[i] = float(std::exp(x[i] - mx[key(i)]) / sum[key(i)]);
        check_close(out.read(), want, tolerance(type, 1e-5f, 1e-3f));
      }
    }
  }
}
