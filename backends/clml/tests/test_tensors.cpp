// test_tensors.cpp -- interface acquisition, tensor creation/finalisation/size, read/write/copy
// with layout conversion, strides, 5D tensors, fp16 and int8 storage.
#include "clml_test_support.h"

using namespace clml_test;

TEST_CASE("interface versions and table") {
  cl_uint count = 0;
  REQUIRE(clQueryMLInterfaceVersionsQCOM(nullptr, nullptr, 0, &count) == CL_SUCCESS);
  REQUIRE(count >= 1);
  std::vector<cl_int> majors(count), minors(count);
  CHECK(clQueryMLInterfaceVersionsQCOM(majors.data(), minors.data(), count, nullptr) == CL_SUCCESS);
  if (count > 1)
    CHECK(clQueryMLInterfaceVersionsQCOM(majors.data(), minors.data(), count - 1, nullptr) == CL_INVALID_VALUE);
  CHECK(majors.back() == 4);
  CHECK(minors.back() == 0);
  CLMLInterfaceV1QCOM* table = clGetMLInterfaceV1QCOM(1);
  REQUIRE(table != nullptr);
  CHECK(table->majorVersion == 1);
  CHECK(table->minorVersion == 1);
  // Every slot is filled.
  auto* slots = reinterpret_cast<void* const*>(reinterpret_cast<const char*>(table) + 2 * sizeof(cl_int));
  for (int i = 0; i < 38; ++i) CHECK(slots[i] != nullptr);
  CHECK(sizeof(CLMLInterfaceV1QCOM) == 2 * sizeof(cl_int) + 38 * sizeof(void*));
  CLMLInterfaceV1QCOM* none = nullptr;
  CHECK(CL_GET_ML_INTERFACE_QCOM(none, 5, 0) == CL_INVALID_VALUE);
  CHECK(clGetMLInterfaceQCOM(nullptr, 1, 1) == CL_INVALID_VALUE);
}

TEST_CASE("ABI values and layouts") {
  CHECK(CL_ML_OP_NOT_ACCELERATED_QCOM == -1102);
  CHECK(CL_OP_NOT_ACCELERATED_QCOM == -1102);
  CHECK(CL_ML_INVALID_TENSOR_LAYOUT_QCOM == -1103);
  CHECK(CL_SOFTMAX_ALGORITHM_ACCURATE_QCOM == 1);
  CHECK(CL_TENSOR_OP_DIV_QCOM == 5);
  CHECK(sizeof(cl_ml_tensor_desc_qcom) == 13 * 4);
  CHECK(offsetof(cl_ml_tensor_desc_qcom, num_dimensions) == 28);
  CHECK(sizeof(cl_ml_value_qcom) == 8);
  CHECK(offsetof(cl_ml_op_convolution_desc_qcom, flags) == 64);
  CHECK(offsetof(cl_ml_op_pad_desc_qcom, paddings) == 12);
  CHECK(CL_QUEUE_RECORDABLE_QCOM == (1u << 30));
}

TEST_CASE("linear tensor sizes, optimal finalisation and unused tensors") {
  DeviceTensor t;
  create(t, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 2, 3, 4, 5));
  cl_uint size = 0;
  CHECK(api().clGetMLTensorMemorySizeQCOM(env().context, t.tensor, &size) == CL_SUCCESS);
  CHECK(size == 2 * 3 * 4 * 5 * 4);
  DeviceTensor h;
  create(h, make_desc(CL_HALF_FLOAT, CL_TENSOR_LAYOUT_NHWC_QCOM, 1, 3, 2, 2, 4, true));
  CHECK(api().clGetMLTensorMemorySizeQCOM(env().context, h.tensor, &size) == CL_SUCCESS);
  CHECK(size == 3 * 2 * 2 * 4 * 2);
  DeviceTensor o;
  create(o, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 4, 4, 4));
  CHECK(api().clGetMLTensorMemorySizeQCOM(env().context, o.tensor, &size) == CL_INVALID_VALUE);
  // Copy does not finalise.
  DeviceTensor src;
  create(src, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 4, 4, 4));
  src.write(random_values(64));
  cl_int err = CL_SUCCESS;
  cl_mem scratch = clCreateBuffer(env().context, CL_MEM_READ_WRITE, 4096, nullptr, &err);
  CHECK(api().clEnqueueCopyMLTensorDataQCOM(env().queue, src.tensor, src.memory, o.tensor, scratch, 0, nullptr,
                                            nullptr) == CL_INVALID_VALUE);
  CHECK(api().clGetMLTensorMemorySizeQCOM(env().context, o.tensor, &size) == CL_INVALID_VALUE);
  // Using it in an op does.
  cl_ml_op_activation_desc_qcom act{CL_ACTIVATION_RELU, CL_DO_NOT_PROPAGATE_NAN_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &act, src.tensor, nullptr, o.tensor, &op,
                                                  nullptr) == CL_SUCCESS);
  CHECK(api().clGetMLTensorMemorySizeQCOM(env().context, o.tensor, &size) == CL_SUCCESS);
  CHECK(size == 64 * 4);
  CHECK(api().clReleaseMLOpQCOM(op) == CL_SUCCESS);
  CHECK(api().clReleaseMLOpQCOM(op) == CL_INVALID_VALUE);
  clReleaseMemObject(scratch);
  CHECK(unused_tensor() != nullptr);
}

TEST_CASE("write/read round trip with layout conversion") {
  for (cl_channel_type type : {CL_FLOAT, CL_HALF_FLOAT, CL_SIGNED_INT8}) {
    for (cl_tensor_layout_qcom layout : {CL_TENSOR_LAYOUT_NCHW_QCOM, CL_TENSOR_LAYOUT_NHWC_QCOM}) {
      CAPTURE(type);
      CAPTURE(layout);
      DeviceTensor t;
      create(t, make_desc(type, layout, 2, 3, 4, 5));
      std::vector<float> v = quantize(random_values(t.elements(), -50, 50), type);
      t.write(v);
      check_close(t.read(), v, 0);
      check_close(t.read(CL_TENSOR_LAYOUT_NHWC_QCOM), nchw_to_nhwc(v, 2, 3, 4, 5), 0);
      t.write(nchw_to_nhwc(v, 2, 3, 4, 5), CL_TENSOR_LAYOUT_NHWC_QCOM);
      check_close(t.read(), v, 0);
    }
  }
}

TEST_CASE("strided tensors and copies between layouts and types") {
  // NCHW 1x2x3x4 with padded rows: w stride 1, h stride 6, c stride 20, n stride 40 (bytes x4).
  cl_ml_tensor_desc_qcom desc = make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 2, 3, 4);
  desc.stride[0] = 40 * 4;
  desc.stride[1] = 20 * 4;
  desc.stride[2] = 6 * 4;
  desc.stride[3] = 4;
  DeviceTensor s;
  create(s, desc);
  cl_uint size = 0;
  REQUIRE(api().clGetMLTensorMemorySizeQCOM(env().context, s.tensor, &size) == CL_SUCCESS);
  CHECK(size == (20 + 2 * 6 + 3 + 1) * 4);
  std::vector<float> v = random_values(24);
  s.write(v);
  check_close(s.read(), v, 0);
  DeviceTensor nhwc;
  create(nhwc, make_desc(CL_HALF_FLOAT, CL_TENSOR_LAYOUT_NHWC_QCOM, 1, 2, 3, 4));
  nhwc.allocate();
  REQUIRE(api().clEnqueueCopyMLTensorDataQCOM(env().queue, s.tensor, s.memory, nhwc.tensor, nhwc.memory, 0, nullptr,
                                              nullptr) == CL_SUCCESS);
  check_close(nhwc.read(), quantize(v, CL_HALF_FLOAT), 0);
  // Bad strides.
  desc.stride[3] = 3;
  cl_ml_tensor_qcom bad = nullptr;
  CHECK(api().clCreateMLTensorQCOM(env().context, nullptr, &desc, &bad) == CL_INVALID_VALUE);
}

TEST_CASE("5D tensors round trip") {
  DeviceTensor t;
  create(t, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NHWC_QCOM, 1, 3, 2, 4, 5, true));
  std::vector<float> v = random_values(t.elements());
  t.write(v);
  check_close(t.read(), v, 0);
}
