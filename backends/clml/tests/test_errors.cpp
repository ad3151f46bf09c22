// test_errors.cpp -- every V1 function on bad input returns the spec's error code (never crashes).
#include "clml_test_support.h"

using namespace clml_test;

namespace {

struct Fixture {
  DeviceTensor a, b, c, opt;
  Fixture() {
    create(a, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 4, 4, 4));
    create(b, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 4, 4, 4));
    create(c, make_desc(CL_HALF_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 4, 4, 4));
    create(opt, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 4, 4, 4));
    a.allocate();
    b.allocate();
  }
};

cl_ml_tensor_qcom bogus_tensor() {
  return reinterpret_cast<cl_ml_tensor_qcom>(uintptr_t{0x1234});
}
cl_ml_op_qcom bogus_op() {
  return reinterpret_cast<cl_ml_op_qcom>(uintptr_t{0x1234});
}

}  // namespace

TEST_CASE("tensor creation and size errors") {
  cl_ml_tensor_qcom t = nullptr;
  cl_ml_tensor_desc_qcom desc = make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, 1, 1);
  CHECK(api().clCreateMLTensorQCOM(nullptr, nullptr, &desc, &t) == CL_INVALID_CONTEXT);
  CHECK(api().clCreateMLTensorQCOM(env().context, nullptr, nullptr, &t) == CL_INVALID_VALUE);
  CHECK(api().clCreateMLTensorQCOM(env().context, nullptr, &desc, nullptr) == CL_INVALID_VALUE);
  for (auto mutate : std::initializer_list<void (*)(cl_ml_tensor_desc_qcom&)>{
           [](cl_ml_tensor_desc_qcom& d) { d.data_type = CL_UNORM_INT8; },
           [](cl_ml_tensor_desc_qcom& d) { d.layout = static_cast<cl_tensor_layout_qcom>(7); },
           [](cl_ml_tensor_desc_qcom& d) { d.num_dimensions = static_cast<cl_tensor_dimensions_qcom>(9); },
           [](cl_ml_tensor_desc_qcom& d) { d.c = 0; },
           [](cl_ml_tensor_desc_qcom& d) {
             d.num_dimensions = CL_TENSOR_DIMENSIONS_5D_QCOM;
             d.d = 0;
           },
           [](cl_ml_tensor_desc_qcom& d) { d.n = d.c = d.h = d.w = 65536; },
           [](cl_ml_tensor_desc_qcom& d) {
             d.layout = CL_TENSOR_LAYOUT_OPTIMAL_QCOM;
             d.stride[3] = 4;
           },
       }) {
    cl_ml_tensor_desc_qcom bad = desc;
    mutate(bad);
    CHECK(api().clCreateMLTensorQCOM(env().context, nullptr, &bad, &t) == CL_INVALID_VALUE);
  }
  cl_ml_tensor_properties_qcom props[] = {99, 1, 0};
  CHECK(api().clCreateMLTensorQCOM(env().context, props, &desc, &t) == CL_INVALID_VALUE);
  cl_uint size;
  CHECK(api().clGetMLTensorMemorySizeQCOM(env().context, bogus_tensor(), &size) == CL_INVALID_VALUE);
  CHECK(api().clGetMLTensorMemorySizeQCOM(nullptr, bogus_tensor(), &size) == CL_INVALID_CONTEXT);
  CHECK(api().clReleaseMLTensorQCOM(bogus_tensor()) == CL_INVALID_VALUE);
  CHECK(api().clReleaseMLTensorQCOM(nullptr) == CL_INVALID_VALUE);
  CHECK(api().clReleaseMLOpQCOM(bogus_op()) == CL_INVALID_VALUE);
}

TEST_CASE("op creation errors") {
  Fixture f;
  cl_ml_op_qcom op = nullptr;
  cl_ml_op_activation_desc_qcom act{CL_ACTIVATION_RELU, CL_DO_NOT_PROPAGATE_NAN_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
  CHECK(api().clCreateMLOpActivationForwardQCOM(nullptr, nullptr, &act, f.a.tensor, nullptr, f.b.tensor, &op,
                                                nullptr) == CL_INVALID_CONTEXT);
  CHECK(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, nullptr, f.a.tensor, nullptr, f.b.tensor, &op,
                                                nullptr) == CL_INVALID_VALUE);
  CHECK(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &act, bogus_tensor(), nullptr, f.b.tensor, &op,
                                                nullptr) == CL_INVALID_VALUE);
  CHECK(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &act, f.a.tensor, nullptr, unused_tensor(), &op,
                                                nullptr) == CL_INVALID_VALUE);
  cl_ml_op_activation_desc_qcom bad_act{static_cast<cl_activation_function_qcom>(42), CL_DO_NOT_PROPAGATE_NAN_QCOM,
                                        CL_ARITHMETIC_MODE_FP32_QCOM};
  CHECK(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &bad_act, f.a.tensor, nullptr, f.b.tensor, &op,
                                                nullptr) == CL_INVALID_VALUE);
  cl_ml_op_properties_qcom bad_props[] = {77, 0, 0};
  CHECK(api().clCreateMLOpActivationForwardQCOM(env().context, bad_props, &act, f.a.tensor, nullptr, f.b.tensor, &op,
                                                nullptr) == CL_INVALID_VALUE);
  // Mixed storage types: valid but not accelerated.
  CHECK(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &act, f.a.tensor, nullptr, f.c.tensor, &op,
                                                nullptr) == CL_ML_OP_NOT_ACCELERATED_QCOM);
  // PReLU without slopes.
  cl_ml_op_activation_desc_qcom prelu{CL_ACTIVATION_PRELU, CL_DO_NOT_PROPAGATE_NAN_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
  CHECK(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &prelu, f.a.tensor, nullptr, f.b.tensor, &op,
                                                nullptr) == CL_INVALID_VALUE);
  // Gemm: shape mismatch, zero and overflowing sizes.
  cl_ml_op_gemm_desc_qcom gemm{8,
                               8,
                               8,
                               CL_GEMM_TRANSFORM_NONE_QCOM,
                               CL_GEMM_TRANSFORM_NONE_QCOM,
                               fp32_value(1),
                               fp32_value(0),
                               CL_ARITHMETIC_MODE_FP32_QCOM};
  gemm.k = 4;  // A (64 elements) is not m x k
  CHECK(api().clCreateMLOpGemmQCOM(env().context, nullptr, &gemm, f.a.tensor, f.a.tensor, f.b.tensor, &op, nullptr) ==
        CL_INVALID_VALUE);
  gemm.m = gemm.n = gemm.k = 0;
  CHECK(api().clCreateMLOpGemmQCOM(env().context, nullptr, &gemm, f.a.tensor, f.a.tensor, f.b.tensor, &op, nullptr) ==
        CL_INVALID_VALUE);
  // m = k = 2^32 - 1: m * k does not fit int64 (checked, never computed with overflow).
  gemm.m = gemm.k = 0xffffffffu;
  gemm.n = 1;
  CHECK(api().clCreateMLOpGemmQCOM(env().context, nullptr, &gemm, f.a.tensor, f.a.tensor, f.b.tensor, &op, nullptr) ==
        CL_INVALID_VALUE);
  gemm.n = 0xffffffffu;
  CHECK(api().clCreateMLOpGemmQCOM(env().context, nullptr, &gemm, f.a.tensor, f.a.tensor, f.b.tensor, &op, nullptr) ==
        CL_INVALID_VALUE);
  // Transpose: m = n = 2^32 - 1, m * n does not fit int64 (checked, never computed with overflow).
  {
    DeviceTensor linear;
    create(linear, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, 8, 8));
    cl_ml_op_transpose_desc_qcom transpose{8, 8, CL_ARITHMETIC_MODE_FP32_QCOM};
    REQUIRE(api().clCreateMLOpTransposeQCOM(env().context, nullptr, &transpose, linear.tensor, linear.tensor, &op,
                                            nullptr) == CL_SUCCESS);
    CHECK(api().clReleaseMLOpQCOM(op) == CL_SUCCESS);
    transpose.m = transpose.n = 0xffffffffu;
    CHECK(api().clCreateMLOpTransposeQCOM(env().context, nullptr, &transpose, linear.tensor, linear.tensor, &op,
                                          nullptr) == CL_INVALID_VALUE);
  }
  // Convolution: zero stride, wrong output shape, bad mode, bad group count, pooling mask.
  DeviceTensor w;
  create(w, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 4, 4, 3, 3));
  cl_ml_op_convolution_desc_qcom conv{};
  conv.mode = CL_CONVOLUTION_MODE_CONVOLUTION_QCOM;
  conv.group_count = 1;
  conv.input_padding_before[0] = conv.input_padding_before[1] = 1;
  conv.input_padding_after[0] = conv.input_padding_after[1] = 1;
  conv.filter_stride[0] = conv.filter_stride[1] = 1;
  conv.arithmetic_mode = CL_ARITHMETIC_MODE_FP32_QCOM;
  REQUIRE(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &conv, f.a.tensor, w.tensor, nullptr,
                                                   f.b.tensor, &op, nullptr) == CL_SUCCESS);
  CHECK(api().clReleaseMLOpQCOM(op) == CL_SUCCESS);
  cl_ml_op_convolution_desc_qcom bad = conv;
  bad.filter_stride[0] = 0;
  CHECK(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &bad, f.a.tensor, w.tensor, nullptr,
                                                 f.b.tensor, &op, nullptr) == CL_INVALID_VALUE);
  bad = conv;
  bad.input_padding_after[0] = 0;
  CHECK(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &bad, f.a.tensor, w.tensor, nullptr,
                                                 f.b.tensor, &op, nullptr) == CL_INVALID_VALUE);
  bad = conv;
  bad.mode = static_cast<cl_convolution_mode_qcom>(5);
  CHECK(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &bad, f.a.tensor, w.tensor, nullptr,
                                                 f.b.tensor, &op, nullptr) == CL_INVALID_VALUE);
  bad = conv;
  bad.group_count = 3;
  CHECK(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &bad, f.a.tensor, w.tensor, nullptr,
                                                 f.b.tensor, &op, nullptr) == CL_INVALID_VALUE);
  // num_dimensions: 0 (unset), 2 (spatial axes) or 4 (rank) for 4-D tensors; 5-D values and 7 are rejected.
  for (cl_uint dims : {0u, 2u, 4u}) {
    CAPTURE(dims);
    bad = conv;
    bad.num_dimensions = dims;
    REQUIRE(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &bad, f.a.tensor, w.tensor, nullptr,
                                                     f.b.tensor, &op, nullptr) == CL_SUCCESS);
    CHECK(api().clReleaseMLOpQCOM(op) == CL_SUCCESS);
  }
  for (cl_uint dims : {1u, 3u, 5u, 7u, 0xffffffffu}) {
    CAPTURE(dims);
    bad = conv;
    bad.num_dimensions = dims;
    CHECK(api().clCreateMLOpConvolutionForwardQCOM(env().context, nullptr, &bad, f.a.tensor, w.tensor, nullptr,
                                                   f.b.tensor, &op, nullptr) == CL_INVALID_VALUE);
  }
  cl_ml_op_pooling_desc_qcom pool{};
  pool.mode = CL_POOLING_MODE_MAX_QCOM;
  pool.window_size[0] = pool.window_size[1] = 2;
  pool.stride[0] = pool.stride[1] = 2;
  {
    DeviceTensor pooled;
    create(pooled, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 4, 2, 2));
    cl_ml_op_pooling_desc_qcom bad_pool = pool;
    bad_pool.num_dimensions = 4;
    REQUIRE(api().clCreateMLOpPoolingForwardQCOM(env().context, nullptr, &bad_pool, f.a.tensor, nullptr, pooled.tensor,
                                                 &op, nullptr) == CL_SUCCESS);
    CHECK(api().clReleaseMLOpQCOM(op) == CL_SUCCESS);
    bad_pool.num_dimensions = 7;
    CHECK(api().clCreateMLOpPoolingForwardQCOM(env().context, nullptr, &bad_pool, f.a.tensor, nullptr, pooled.tensor,
                                               &op, nullptr) == CL_INVALID_VALUE);
  }
  CHECK(api().clCreateMLOpPoolingForwardQCOM(env().context, nullptr, &pool, f.a.tensor, nullptr, f.b.tensor, &op,
                                             nullptr) == CL_INVALID_VALUE);  // output must be 2x2
  CHECK(api().clCreateMLOpPoolingForwardQCOM(env().context, nullptr, &pool, f.a.tensor, f.b.tensor, f.b.tensor, &op,
                                             nullptr) == CL_ML_OP_NOT_ACCELERATED_QCOM);  // mask
  cl_ml_op_softmax_desc_qcom soft{static_cast<cl_softmax_algorithm_qcom>(0), CL_SOFTMAX_MODE_CHANNEL_QCOM,
                                  CL_ARITHMETIC_MODE_FP32_QCOM};
  CHECK(api().clCreateMLOpSoftmaxQCOM(env().context, nullptr, &soft, f.a.tensor, f.b.tensor, &op, nullptr) ==
        CL_INVALID_VALUE);
  cl_ml_op_concat_desc_qcom cat{1, 2, CL_ARITHMETIC_MODE_FP32_QCOM};
  cl_ml_tensor_qcom list[] = {f.a.tensor, f.a.tensor};
  CHECK(api().clCreateMLOpConcatQCOM(env().context, nullptr, &cat, list, f.b.tensor, &op, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clCreateMLOpConcatQCOM(env().context, nullptr, &cat, nullptr, f.b.tensor, &op, nullptr) ==
        CL_INVALID_VALUE);
  cat.axis = 9;
  CHECK(api().clCreateMLOpConcatQCOM(env().context, nullptr, &cat, list, f.b.tensor, &op, nullptr) == CL_INVALID_VALUE);
  cl_ml_op_permute_desc_qcom perm{4, {0, 1, 1, 2, 0}, CL_ARITHMETIC_MODE_FP32_QCOM};
  CHECK(api().clCreateMLOpPermuteQCOM(env().context, nullptr, &perm, f.a.tensor, f.b.tensor, &op, nullptr) ==
        CL_INVALID_VALUE);
  DeviceTensor small;
  create(small, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, 1, 3));
  CHECK(api().clCreateMLOpReshapeQCOM(env().context, nullptr, f.a.tensor, small.tensor, &op, nullptr) ==
        CL_INVALID_VALUE);
  cl_ml_op_depthtospace_desc_qcom d2s{3, CL_ARITHMETIC_MODE_FP32_QCOM};
  CHECK(api().clCreateMLOpDepthToSpaceQCOM(env().context, nullptr, &d2s, f.a.tensor, f.b.tensor, &op, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(api().clCreateMLOpFusedDepthToSpaceActivationQCOM(env().context, nullptr, &d2s, nullptr, f.a.tensor, nullptr,
                                                          f.b.tensor, &op, nullptr) == CL_INVALID_VALUE);
  cl_ml_op_resize_bilinear_desc_qcom rs{CL_TRUE, CL_TRUE, CL_ARITHMETIC_MODE_FP32_QCOM};
  CHECK(api().clCreateMLOpResizeBilinearQCOM(env().context, nullptr, &rs, f.a.tensor, f.b.tensor, &op, nullptr) ==
        CL_INVALID_VALUE);
  cl_ml_op_pad_desc_qcom pad{};
  pad.pad_mode = CL_PAD_MODE_REFLECT_QCOM;
  pad.paddings[0] = 1;
  CHECK(api().clCreateMLOpPadQCOM(env().context, nullptr, &pad, f.a.tensor, f.b.tensor, &op, nullptr) ==
        CL_INVALID_VALUE);
  cl_ml_op_fill_desc_qcom fill{fp32_value(1), CL_ARITHMETIC_MODE_FP32_QCOM};
  fill.fill_value.type = CL_UNORM_INT8;
  CHECK(api().clCreateMLOpFillQCOM(env().context, nullptr, &fill, f.a.tensor, &op, nullptr) == CL_INVALID_VALUE);
  cl_ml_op_binary_desc_qcom bin{static_cast<cl_binary_op_qcom>(6), fp32_value(1), fp32_value(1), fp32_value(0),
                                CL_ARITHMETIC_MODE_FP32_QCOM};
  CHECK(api().clCreateMLOpBinaryQCOM(env().context, nullptr, &bin, f.a.tensor, f.a.tensor, f.b.tensor, &op, nullptr) ==
        CL_INVALID_VALUE);
  cl_ml_op_batchnorm_desc_qcom bn{static_cast<cl_batchnorm_mode_qcom>(1), CL_ARITHMETIC_MODE_FP32_QCOM};
  CHECK(api().clCreateMLOpBatchNormForwardQCOM(env().context, nullptr, &bn, f.a.tensor, f.a.tensor, f.a.tensor, nullptr,
                                               nullptr, f.b.tensor, &op, nullptr) == CL_INVALID_VALUE);
  cl_ml_op_transpose_desc_qcom tr{3, 5, CL_ARITHMETIC_MODE_FP32_QCOM};
  CHECK(api().clCreateMLOpTransposeQCOM(env().context, nullptr, &tr, f.a.tensor, f.b.tensor, &op, nullptr) ==
        CL_INVALID_VALUE);
  cl_ml_op_fully_connected_desc_qcom fc{7, CL_FC_WEIGHT_TRANSFORM_NONE_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
  CHECK(api().clCreateMLOpFullyConnectedQCOM(env().context, nullptr, &fc, f.a.tensor, f.a.tensor, nullptr, f.b.tensor,
                                             &op, nullptr) == CL_INVALID_VALUE);
  cl_ml_op_batchnorm_desc_qcom good_bn{CL_BATCHNORM_MODE_SPATIAL_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
  CHECK(api().clCreateMLOpFusedConvolutionBatchNormForwardQCOM(env().context, nullptr, &conv, &good_bn, f.a.tensor,
                                                               w.tensor, nullptr, f.b.tensor, nullptr, nullptr, nullptr,
                                                               nullptr, &op, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clCreateMLOpFusedConvolutionBatchNormActivationForwardQCOM(
            env().context, nullptr, &conv, &good_bn, nullptr, f.a.tensor, w.tensor, nullptr, f.b.tensor, nullptr,
            nullptr, nullptr, nullptr, nullptr, &op, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clCreateMLOpFusedConvolutionActivationForwardQCOM(env().context, nullptr, &conv, nullptr, f.a.tensor,
                                                                w.tensor, nullptr, nullptr, f.b.tensor, &op,
                                                                nullptr) == CL_INVALID_VALUE);
  // A bogus tuning cache.
  CHECK(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &act, f.a.tensor, nullptr, f.b.tensor, &op,
                                                reinterpret_cast<cl_ml_tuningcache_qcom>(uintptr_t{8})) ==
        CL_INVALID_VALUE);
}

TEST_CASE("enqueue, read, write, copy and descriptor set errors") {
  Fixture f;
  cl_ml_op_qcom op = nullptr;
  cl_ml_op_activation_desc_qcom act{CL_ACTIVATION_RELU, CL_DO_NOT_PROPAGATE_NAN_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
  REQUIRE(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &act, f.a.tensor, nullptr, f.b.tensor, &op,
                                                  nullptr) == CL_SUCCESS);
  cl_ml_tensor_mem_desc_set_qcom set = nullptr;
  CHECK(api().clCreateMLTensorMemoryDescriptorSetQCOM(nullptr) == CL_INVALID_VALUE);
  REQUIRE(api().clCreateMLTensorMemoryDescriptorSetQCOM(&set) == CL_SUCCESS);
  cl_ml_tensor_memory_desc_qcom only_a[] = {{f.a.tensor, f.a.memory}};
  REQUIRE(api().clUpdateMLTensorMemoryDescriptorSetQCOM(set, 1, only_a) == CL_SUCCESS);
  CHECK(api().clEnqueueMLOpQCOM(env().queue, op, set, 0, nullptr, nullptr) == CL_INVALID_VALUE);  // b missing
  cl_ml_tensor_memory_desc_qcom bad_tensor[] = {{bogus_tensor(), f.a.memory}};
  CHECK(api().clUpdateMLTensorMemoryDescriptorSetQCOM(set, 1, bad_tensor) == CL_INVALID_VALUE);
  CHECK(api().clUpdateMLTensorMemoryDescriptorSetQCOM(set, 1, nullptr) == CL_INVALID_VALUE);
  cl_int err;
  cl_mem tiny = clCreateBuffer(env().context, CL_MEM_READ_WRITE, 4, nullptr, &err);
  cl_ml_tensor_memory_desc_qcom small_mem[] = {{f.a.tensor, f.a.memory}, {f.b.tensor, tiny}};
  REQUIRE(api().clUpdateMLTensorMemoryDescriptorSetQCOM(set, 2, small_mem) == CL_SUCCESS);
  CHECK(api().clEnqueueMLOpQCOM(env().queue, op, set, 0, nullptr, nullptr) == CL_INVALID_VALUE);  // too small
  cl_ml_tensor_memory_desc_qcom full[] = {{f.a.tensor, f.a.memory}, {f.b.tensor, f.b.memory}};
  REQUIRE(api().clUpdateMLTensorMemoryDescriptorSetQCOM(set, 2, full) == CL_SUCCESS);
  CHECK(api().clEnqueueMLOpQCOM(nullptr, op, set, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(api().clEnqueueMLOpQCOM(env().queue, bogus_op(), set, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clEnqueueMLOpQCOM(env().queue, op, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clEnqueueMLOpQCOM(env().queue, op, set, 1, nullptr, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  cl_event none = nullptr;
  CHECK(api().clEnqueueMLOpQCOM(env().queue, op, set, 0, &none, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  CHECK(api().clEnqueueMLOpImmutableQCOM(nullptr, op, set, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  cl_command_queue ooo = nullptr;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  ooo = clCreateCommandQueueWithProperties(env().context, env().device, props, &err);
  if (err == CL_SUCCESS) {
    CHECK(api().clEnqueueMLOpQCOM(ooo, op, set, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
    clReleaseCommandQueue(ooo);
  }
  // Read / write / copy.
  std::vector<float> host(64);
  CHECK(api().clEnqueueReadMLTensorDataQCOM(nullptr, f.a.tensor, f.a.memory, host.data(), CL_TENSOR_LAYOUT_NCHW_QCOM, 0,
                                            nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(api().clEnqueueReadMLTensorDataQCOM(env().queue, bogus_tensor(), f.a.memory, host.data(),
                                            CL_TENSOR_LAYOUT_NCHW_QCOM, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clEnqueueReadMLTensorDataQCOM(env().queue, f.opt.tensor, f.a.memory, host.data(),
                                            CL_TENSOR_LAYOUT_NCHW_QCOM, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clEnqueueReadMLTensorDataQCOM(env().queue, f.a.tensor, nullptr, host.data(), CL_TENSOR_LAYOUT_NCHW_QCOM,
                                            0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(api().clEnqueueReadMLTensorDataQCOM(env().queue, f.a.tensor, tiny, host.data(), CL_TENSOR_LAYOUT_NCHW_QCOM, 0,
                                            nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(api().clEnqueueReadMLTensorDataQCOM(env().queue, f.a.tensor, f.a.memory, nullptr, CL_TENSOR_LAYOUT_NCHW_QCOM, 0,
                                            nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clEnqueueReadMLTensorDataQCOM(env().queue, f.a.tensor, f.a.memory, host.data(),
                                            CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clEnqueueReadMLTensorDataQCOM(env().queue, f.a.tensor, f.a.memory, host.data(),
                                            CL_TENSOR_LAYOUT_NCHW_QCOM, 2, nullptr,
                                            nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  CHECK(api().clEnqueueWriteMLTensorDataQCOM(nullptr, host.data(), CL_TENSOR_LAYOUT_NCHW_QCOM, f.a.tensor, f.a.memory,
                                             0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(api().clEnqueueWriteMLTensorDataQCOM(env().queue, nullptr, CL_TENSOR_LAYOUT_NCHW_QCOM, f.a.tensor, f.a.memory,
                                             0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clEnqueueWriteMLTensorDataQCOM(env().queue, host.data(), static_cast<cl_tensor_layout_qcom>(5),
                                             f.a.tensor, f.a.memory, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clEnqueueWriteMLTensorDataQCOM(env().queue, host.data(), CL_TENSOR_LAYOUT_NCHW_QCOM, f.a.tensor, nullptr,
                                             0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(api().clEnqueueCopyMLTensorDataQCOM(env().queue, f.a.tensor, f.a.memory, f.b.tensor, nullptr, 0, nullptr,
                                            nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(api().clEnqueueCopyMLTensorDataQCOM(env().queue, f.a.tensor, f.a.memory, bogus_tensor(), f.b.memory, 0, nullptr,
                                            nullptr) == CL_INVALID_VALUE);
  DeviceTensor other;
  create(other, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 2, 4, 8));
  other.allocate();
  CHECK(api().clEnqueueCopyMLTensorDataQCOM(env().queue, f.a.tensor, f.a.memory, other.tensor, other.memory, 0, nullptr,
                                            nullptr) == CL_ML_OP_NOT_ACCELERATED_QCOM);
  CHECK(api().clEnqueueCopyMLTensorDataQCOM(nullptr, f.a.tensor, f.a.memory, f.b.tensor, f.b.memory, 0, nullptr,
                                            nullptr) == CL_INVALID_COMMAND_QUEUE);
  // Tuning errors.
  cl_ml_tuningcache_qcom cache = nullptr;
  CHECK(api().clCreateMLTuningCacheQCOM(nullptr) == CL_INVALID_VALUE);
  REQUIRE(api().clCreateMLTuningCacheQCOM(&cache) == CL_SUCCESS);
  CHECK(api().clTuneMLOpQCOM(nullptr, op, set, cache, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(api().clTuneMLOpQCOM(env().queue, bogus_op(), set, cache, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clTuneMLOpQCOM(env().queue, op, set, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clSaveMLTuningCacheQCOM(nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clLoadMLTuningCacheQCOM(
            nullptr, 4, host.data() ? reinterpret_cast<unsigned char*>(host.data()) : nullptr) == CL_INVALID_VALUE);
  CHECK(api().clReleaseMLTuningCacheQCOM(cache) == CL_SUCCESS);
  // Recording errors.
  cl_recording_qcom rec = clNewRecordingQCOM(nullptr, &err);
  CHECK(rec == nullptr);
  CHECK(err == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEndRecordingQCOM(nullptr) == CL_INVALID_VALUE);
  CHECK(clReleaseRecordingQCOM(nullptr) == CL_INVALID_VALUE);
  CHECK(api().clEnqueueRecordingMLOpQCOM(env().queue, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0,
                                         nullptr, 0, nullptr, 0, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(api().clEnqueueRecordingMLOpQCOM(nullptr, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                                         0, nullptr, 0, nullptr, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  // Releases.
  CHECK(api().clReleaseMLTensorMemoryDescriptorSetQCOM(set) == CL_SUCCESS);
  CHECK(api().clReleaseMLTensorMemoryDescriptorSetQCOM(set) == CL_INVALID_VALUE);
  CHECK(api().clReleaseMLOpQCOM(op) == CL_SUCCESS);
  clReleaseMemObject(tiny);
}
