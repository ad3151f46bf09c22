// test_layer_report_gpu.cpp -- clml_layer_gpu_tests: the loader layer with CLML_LAYER_REPORT_GPU=1
// (both set by main before the first OpenCL call) lets a client that only asks for
// CL_DEVICE_TYPE_GPU devices find a CPU device (PoCL) and run CLML ops on it.
#include <doctest/doctest.h>

#include <CL/cl_qcom_ml_ops.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct GpuDevice {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
};

// The first device any platform lists for CL_DEVICE_TYPE_GPU, as such clients look for one.
GpuDevice first_gpu() {
  cl_uint count = 0;
  REQUIRE(clGetPlatformIDs(0, nullptr, &count) == CL_SUCCESS);
  std::vector<cl_platform_id> platforms(count);
  REQUIRE(clGetPlatformIDs(count, platforms.data(), nullptr) == CL_SUCCESS);
  for (cl_platform_id p : platforms) {
    cl_device_id device = nullptr;
    cl_uint found = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &device, &found) == CL_SUCCESS && found > 0) return {p, device};
  }
  return {};
}

}  // namespace

TEST_CASE("CLML_LAYER_REPORT_GPU=1: GPU-only clients find the device and run CLML ops on it") {
  const GpuDevice gpu = first_gpu();
  REQUIRE(gpu.device != nullptr);
  cl_device_type type = 0;
  REQUIRE(clGetDeviceInfo(gpu.device, CL_DEVICE_TYPE, sizeof(type), &type, nullptr) == CL_SUCCESS);
  CHECK(type == CL_DEVICE_TYPE_GPU);
  size_t size = 0;
  CHECK(clGetDeviceInfo(gpu.device, CL_DEVICE_TYPE, 0, nullptr, &size) == CL_SUCCESS);
  CHECK(size == sizeof(cl_device_type));
  CHECK(clGetDeviceInfo(gpu.device, CL_DEVICE_TYPE, 1, &type, nullptr) == CL_INVALID_VALUE);
  REQUIRE(clGetDeviceInfo(gpu.device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size) == CL_SUCCESS);
  std::string extensions(size, '\0');
  REQUIRE(clGetDeviceInfo(gpu.device, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr) == CL_SUCCESS);
  CHECK(extensions.find("cl_qcom_ml_ops") != std::string::npos);

  // A context made from the GPU type.
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(gpu.platform), 0};
  cl_int err = CL_SUCCESS;
  cl_context by_type = clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clReleaseContext(by_type) == CL_SUCCESS);

  // A CLML op (V4 interface) on the device: clip 16 values to [-0.5, 0.5].
  cl_context context = clCreateContext(nullptr, 1, &gpu.device, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, gpu.device, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CLMLInterfaceV4QCOM* api = clGetMLInterfaceV4QCOM(0);
  REQUIRE(api != nullptr);
  cl_ml_tensor_desc_qcom desc{};
  desc.data_type = CL_FLOAT;
  desc.layout = CL_TENSOR_LAYOUT_OPTIMAL_QCOM;
  desc.n = desc.h = 1;
  desc.c = 4;
  desc.w = 4;
  desc.num_dimensions = CL_TENSOR_DIMENSIONS_4D_QCOM;
  cl_ml_tensor_qcom in = nullptr, out = nullptr;
  REQUIRE(api->clCreateMLTensorWithUsageQCOM(context, nullptr, &desc, CL_TENSOR_USAGE_CNN_QCOM, &in) == CL_SUCCESS);
  REQUIRE(api->clCreateMLTensorWithUsageQCOM(context, nullptr, &desc, CL_TENSOR_USAGE_CNN_QCOM, &out) == CL_SUCCESS);
  const cl_ml_op_clip_desc_qcom clip = {
      CL_CLIP_BY_VALUE_QCOM, {{0.5f}, CL_FLOAT}, {{-0.5f}, CL_FLOAT}, CL_ARITHMETIC_MODE_FP32_QCOM};
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api->clCreateMLOpClipQCOM(context, nullptr, &clip, in, out, &op, nullptr) == CL_SUCCESS);
  cl_uint bytes = 0;
  REQUIRE(api->clGetMLTensorMemorySizeQCOM(context, in, &bytes) == CL_SUCCESS);
  REQUIRE(bytes == 16 * sizeof(float));
  cl_mem in_mem = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem out_mem = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<float> x(16), want(16), got(16);
  for (int i = 0; i < 16; ++i) {
    x[i] = -1.0f + 0.13f * static_cast<float>(i);
    want[i] = x[i] < -0.5f ? -0.5f : (x[i] > 0.5f ? 0.5f : x[i]);
  }
  REQUIRE(api->clEnqueueWriteMLTensorDataQCOM(queue, x.data(), CL_TENSOR_LAYOUT_NCHW_QCOM, in, in_mem, 0, nullptr,
                                              nullptr) == CL_SUCCESS);
  cl_ml_tensor_mem_desc_set_qcom set = nullptr;
  REQUIRE(api->clCreateMLTensorMemoryDescriptorSetQCOM(&set) == CL_SUCCESS);
  cl_ml_tensor_memory_desc_qcom descs[] = {{in, in_mem}, {out, out_mem}};
  REQUIRE(api->clUpdateMLTensorMemoryDescriptorSetQCOM(set, 2, descs) == CL_SUCCESS);
  REQUIRE(api->clEnqueueMLOpQCOM(queue, op, set, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(api->clEnqueueReadMLTensorDataQCOM(queue, out, out_mem, got.data(), CL_TENSOR_LAYOUT_NCHW_QCOM, 0, nullptr,
                                             nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(queue) == CL_SUCCESS);
  CHECK(got == want);
  CHECK(api->clReleaseMLTensorMemoryDescriptorSetQCOM(set) == CL_SUCCESS);
  CHECK(api->clReleaseMLOpQCOM(op) == CL_SUCCESS);
  CHECK(api->clReleaseMLTensorQCOM(in) == CL_SUCCESS);
  CHECK(api->clReleaseMLTensorQCOM(out) == CL_SUCCESS);
  clReleaseMemObject(in_mem);
  clReleaseMemObject(out_mem);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

int main(int argc, char** argv) {
  setenv("OPENCL_LAYERS", CLML_LAYER_PATH, 1);
  setenv("CLML_LAYER_REPORT_GPU", "1", 1);
  doctest::Context context(argc, argv);
  return context.run();
}
