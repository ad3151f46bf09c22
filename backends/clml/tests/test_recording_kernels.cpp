// test_recording_kernels.cpp -- recordings that mix client kernels (captured through the loader
// layer's clEnqueueNDRangeKernel hook) with ML ops: capture instead of execution, dispatch
// indices shared by kernels and ops, per-replay kernel-argument, global-size and tensor-memory
// updates, and the error codes of the spec. Results are hand-computed.
#include <string>

#include "clml_test_support.h"

using namespace clml_test;

namespace {

constexpr size_t kCount = 64;  // tensors 1x4x4x4

const char* const kClientSource = R"CLC(
kernel void ramp(global float* dst, float scale) { int i = get_global_id(0); dst[i] = scale * (float)(i + 1); }
kernel void add_const(global float* buf, float c) { buf[get_global_id(0)] += c; }
)CLC";

struct ClientKernels {
  cl_program program = nullptr;
  cl_kernel ramp = nullptr, add = nullptr;
  ClientKernels() {
    cl_int err = CL_SUCCESS;
    const char* source = kClientSource;
    program = clCreateProgramWithSource(env().context, 1, &source, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clBuildProgram(program, 1, &env().device, "", nullptr, nullptr) == CL_SUCCESS);
    ramp = clCreateKernel(program, "ramp", &err);
    REQUIRE(err == CL_SUCCESS);
    add = clCreateKernel(program, "add_const", &err);
    REQUIRE(err == CL_SUCCESS);
  }
  ~ClientKernels() {
    clReleaseKernel(ramp);
    clReleaseKernel(add);
    clReleaseProgram(program);
  }
};

std::vector<float> read_buffer(cl_mem m) {
  std::vector<float> out(kCount);
  REQUIRE(clEnqueueReadBuffer(env().queue, m, CL_TRUE, 0, kCount * 4, out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  return out;
}

// relu(scale * (i + 1)) + c for i < limit, without "+ c" beyond it.
std::vector<float> expected(float scale, float c, size_t limit = kCount) {
  std::vector<float> out(kCount);
  for (size_t i = 0; i < kCount; ++i) out[i] = std::max(scale * float(i + 1), 0.0f) + (i < limit ? c : 0.0f);
  return out;
}

cl_int replay(cl_recording_qcom rec, size_t num_args, const cl_array_arg_qcom* args, size_t num_op_args = 0,
              const cl_ml_op_array_arg_qcom* op_args = nullptr, size_t num_global = 0,
              const cl_workgroup_qcom* global = nullptr) {
  return api().clEnqueueRecordingMLOpQCOM(env().queue, rec, num_args, args, num_op_args, op_args, 0, nullptr, 0,
                                          nullptr, num_global, global, 0, nullptr, 0, nullptr, 0, nullptr, nullptr);
}

}  // namespace

TEST_CASE("recording with client kernels and an ML op: captured, replayed in order, updated per replay") {
  size_t size = 0;
  REQUIRE(clGetDeviceInfo(env().device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size) == CL_SUCCESS);
  std::string extensions(size, '\0');
  REQUIRE(clGetDeviceInfo(env().device, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr) == CL_SUCCESS);
  REQUIRE(extensions.find("cl_qcom_recordable_queues") != std::string::npos);  // the layer is active

  ClientKernels k;
  DeviceTensor a, b, b2;
  create(a, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 4, 4, 4));
  create(b, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 4, 4, 4));
  a.write(std::vector<float>(kCount, 7.0f));
  b.write(std::vector<float>(kCount, 9.0f));
  cl_int err = CL_SUCCESS;
  b2.memory = clCreateBuffer(env().context, CL_MEM_READ_WRITE, kCount * 4, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_ml_op_qcom relu = nullptr;
  const cl_ml_op_activation_desc_qcom act{CL_ACTIVATION_RELU, CL_PROPAGATE_NAN_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
  REQUIRE(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &act, a.tensor, nullptr, b.tensor, &relu,
                                                  nullptr) == CL_SUCCESS);
  cl_ml_tensor_mem_desc_set_qcom set = nullptr;
  REQUIRE(api().clCreateMLTensorMemoryDescriptorSetQCOM(&set) == CL_SUCCESS);
  cl_ml_tensor_memory_desc_qcom descs[] = {{a.tensor, a.memory}, {b.tensor, b.memory}};
  REQUIRE(api().clUpdateMLTensorMemoryDescriptorSetQCOM(set, 2, descs) == CL_SUCCESS);

  // Dispatch 0: ramp(a, -1) ; dispatch 1: relu a -> b ; dispatch 2: add_const(b, 5).
  const float minus_one = -1.0f, five = 5.0f;
  REQUIRE(clSetKernelArg(k.ramp, 0, sizeof(cl_mem), &a.memory) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k.ramp, 1, sizeof(float), &minus_one) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k.add, 0, sizeof(cl_mem), &b.memory) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k.add, 1, sizeof(float), &five) == CL_SUCCESS);
  cl_recording_qcom rec = clNewRecordingQCOM(env().queue, &err);
  REQUIRE(err == CL_SUCCESS);
  const size_t global = kCount;
  REQUIRE(clEnqueueNDRangeKernel(env().queue, k.ramp, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(api().clEnqueueMLOpQCOM(env().queue, relu, set, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(env().queue, k.add, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  cl_event event = nullptr;
  CHECK(clEnqueueNDRangeKernel(env().queue, k.add, 1, nullptr, &global, nullptr, 0, nullptr,
                               &event) == CL_INVALID_VALUE);  // no events on a recordable queue
  REQUIRE(clEndRecordingQCOM(rec) == CL_SUCCESS);
  REQUIRE(clFinish(env().queue) == CL_SUCCESS);
  CHECK(read_buffer(a.memory) == std::vector<float>(kCount, 7.0f));  // captured, not run
  CHECK(read_buffer(b.memory) == std::vector<float>(kCount, 9.0f));

  // The recording holds the arguments as they were at capture.
  const float ten = 10.0f;
  REQUIRE(clSetKernelArg(k.add, 1, sizeof(float), &ten) == CL_SUCCESS);
  REQUIRE(replay(rec, 0, nullptr) == CL_SUCCESS);
  check_close(read_buffer(b.memory), expected(-1.0f, 5.0f), 0.0f);

  // Kernel-argument updates (dispatches 0 and 2), a global-size update (dispatch 2 covers half)
  // and a tensor-memory update of the op (dispatch 1 writes b2; dispatch 2 then reads b2).
  const float two = 2.0f, half = 0.5f;
  const cl_array_arg_qcom args[] = {
      {0, 1, sizeof(float), &two}, {2, 1, sizeof(float), &half}, {2, 0, sizeof(cl_mem), &b2.memory}};
  cl_ml_tensor_memory_desc_qcom out2{b.tensor, b2.memory};
  const cl_ml_op_array_arg_qcom op_args[] = {{1, &out2, 1}};
  const size_t half_range = kCount / 2;
  const cl_workgroup_qcom globals[] = {{2, &half_range}};
  REQUIRE(replay(rec, 3, args, 1, op_args, 1, globals) == CL_SUCCESS);
  check_close(read_buffer(b2.memory), expected(2.0f, 0.5f, kCount / 2), 0.0f);
  check_close(read_buffer(b.memory), expected(-1.0f, 5.0f), 0.0f);  // untouched by that replay

  // Updates are not kept: the next replay runs the recording as captured.
  REQUIRE(replay(rec, 0, nullptr) == CL_SUCCESS);
  std::vector<float> ramp(kCount);
  for (size_t i = 0; i < kCount; ++i) ramp[i] = -float(i + 1);
  check_close(read_buffer(a.memory), ramp, 0.0f);
  check_close(read_buffer(b.memory), expected(-1.0f, 5.0f), 0.0f);

  // Errors: a bad argument index of a kernel, a kernel argument of the op, a dispatch past the
  // end.
  const cl_array_arg_qcom bad_index[] = {{0, 7, sizeof(float), &two}};
  CHECK(replay(rec, 1, bad_index) == CL_INVALID_ARG_INDEX);
  const cl_array_arg_qcom op_arg[] = {{1, 0, sizeof(float), &two}};
  CHECK(replay(rec, 1, op_arg) == CL_INVALID_ARG_INDEX);
  const cl_array_arg_qcom past_end[] = {{3, 0, sizeof(float), &two}};
  CHECK(replay(rec, 1, past_end) == CL_INVALID_KERNEL_ARGS);
  const cl_ml_op_array_arg_qcom op_args_on_kernel[] = {{0, &out2, 1}};
  CHECK(replay(rec, 0, nullptr, 1, op_args_on_kernel) == CL_INVALID_VALUE);
  REQUIRE(clFinish(env().queue) == CL_SUCCESS);

  // Without an open recording the layer passes kernels straight to the driver.
  REQUIRE(clEnqueueNDRangeKernel(env().queue, k.add, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  check_close(read_buffer(b.memory), expected(-1.0f, 15.0f), 0.0f);

  REQUIRE(clReleaseRecordingQCOM(rec) == CL_SUCCESS);
  REQUIRE(api().clReleaseMLTensorMemoryDescriptorSetQCOM(set) == CL_SUCCESS);
  REQUIRE(api().clReleaseMLOpQCOM(relu) == CL_SUCCESS);
}
