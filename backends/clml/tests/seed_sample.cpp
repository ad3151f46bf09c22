// seed_sample.cpp -- the sample code of the cl_qcom_ml_ops v1.1 spec ("Sample Code" section),
// wrapped in a main() and checked against a host reference. Corrections to the sample:
//  1. clGeMLTensorMemorySizeQCOM -> clGetMLTensorMemorySizeQCOM (typo).
//  2. clWaitForEvents(queue, opEvent) -> clWaitForEvents(1, &opEvent) (wrong arguments).
//  3. extensionIntf->clReleaseMLDescriptorSet -> clReleaseMLTensorMemoryDescriptorSetQCOM (no such slot).
//  4. extensionIntf->clReleaseMLOpQCOM(op) -> clReleaseMLOpQCOM(op_conv) (undeclared name).
//  5. filter stride {1, 1} -> {2, 2}: with 3x3 filters and padding 1, a 224x224 input gives the
//     declared 112x112 output only with stride 2.
//  6. Declarations the sample assumes: deviceId, queue, the tensor handles, CHECK_TRUE,
//     readInputData/readWeightData (deterministic fp16 data here), and the opEvent release.
//  7. The descriptor array type cl_ml_tensor_memory_desc_qcom is kept (the header also provides
//     the spec's other spelling cl_tensor_memory_desc_qcom).
// With --require-extension the program fails unless CL_DEVICE_EXTENSIONS lists cl_qcom_ml_ops,
// as real clients do (run it with OPENCL_LAYERS pointing at libtessera_clml_layer.so).
#include <CL/cl_qcom_ml_ops.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK_TRUE(cond)                                                            \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

namespace {

uint16_t to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u, abs = x & 0x7fffffffu;
  if (abs < 0x38800000u) return static_cast<uint16_t>(sign);  // tiny values flush to zero here
  uint32_t h = (((abs >> 23) - 112) << 10) | ((abs & 0x7fffffu) >> 13);
  const uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}

float from_half(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (exp == 0) return (sign ? -1.0f : 1.0f) * std::ldexp(static_cast<float>(mant), -24);
  uint32_t bits = sign | ((exp + 112) << 23) | (mant << 13);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

std::vector<uint16_t> g_input(3 * 224 * 224), g_weight(32 * 3 * 3 * 3);

char* readInputData() {
  for (size_t i = 0; i < g_input.size(); ++i) g_input[i] = to_half(static_cast<float>((i * 37) % 101) / 101.0f - 0.5f);
  return reinterpret_cast<char*>(g_input.data());
}

char* readWeightData() {
  for (size_t i = 0; i < g_weight.size(); ++i) g_weight[i] = to_half(static_cast<float>((i * 13) % 29) / 29.0f - 0.5f);
  return reinterpret_cast<char*>(g_weight.data());
}

}  // namespace

int main(int argc, char** argv) {
  const bool require_extension = argc > 1 && std::string(argv[1]) == "--require-extension";
  cl_platform_id platform;
  CHECK_TRUE(clGetPlatformIDs(1, &platform, nullptr) == CL_SUCCESS);
  cl_device_id deviceId;
  CHECK_TRUE(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &deviceId, nullptr) == CL_SUCCESS);
  size_t ext_size = 0;
  clGetDeviceInfo(deviceId, CL_DEVICE_EXTENSIONS, 0, nullptr, &ext_size);
  std::string extensions(ext_size, '\0');
  clGetDeviceInfo(deviceId, CL_DEVICE_EXTENSIONS, ext_size, extensions.data(), nullptr);
  const bool advertised = extensions.find("cl_qcom_ml_ops") != std::string::npos;
  char name[256] = {0};
  clGetDeviceInfo(deviceId, CL_DEVICE_NAME, sizeof(name) - 1, name, nullptr);
  std::printf("device: %s; cl_khr_fp16: %s\n", name,
              extensions.find("cl_khr_fp16") != std::string::npos ? "yes" : "no");
  std::printf("cl_qcom_ml_ops advertised: %s\n", advertised ? "yes" : "no");
  if (require_extension) {
    CHECK_TRUE(advertised);
    // Clients that see cl_qcom_recordable_queues create recordable queues; the layer accepts them.
    cl_int qerr = CL_SUCCESS;
    cl_context qctx = clCreateContext(NULL, 1, &deviceId, NULL, NULL, &qerr);
    CHECK_TRUE(qerr == CL_SUCCESS);
    cl_queue_properties qprops[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_RECORDABLE_QCOM, 0};
    cl_command_queue rq = clCreateCommandQueueWithProperties(qctx, deviceId, qprops, &qerr);
    CHECK_TRUE(qerr == CL_SUCCESS);
    cl_recording_qcom rec = clNewRecordingQCOM(rq, &qerr);
    CHECK_TRUE(qerr == CL_SUCCESS);
    CHECK_TRUE(clEndRecordingQCOM(rec) == CL_SUCCESS);
    CHECK_TRUE(clReleaseRecordingQCOM(rec) == CL_SUCCESS);
    clReleaseCommandQueue(rq);
    clReleaseContext(qctx);
    std::printf("recordable queue accepted through the layer\n");
  }

  // ---- the spec's sample, corrected ----
  CLMLInterfaceV1QCOM* extensionIntf = NULL;
  cl_int err = CL_SUCCESS;
  static const cl_uint MAX_VERSIONS = 256;
  cl_int majorVersions[MAX_VERSIONS];
  cl_int minorVersions[MAX_VERSIONS];
  cl_uint numVersions = 0;

  // Create a CL Context
  cl_context context = clCreateContext(NULL, 1, &deviceId, NULL, NULL, &err);
  CHECK_TRUE(err == CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, deviceId, NULL, &err);
  CHECK_TRUE(err == CL_SUCCESS);

  err = clQueryMLInterfaceVersionsQCOM(NULL, NULL, 0, &numVersions);
  CHECK_TRUE(err == CL_SUCCESS);

  err = clQueryMLInterfaceVersionsQCOM(majorVersions, minorVersions, numVersions, NULL);
  CHECK_TRUE(err == CL_SUCCESS);

  // Look for and retrieve Extension Interface V1

  for (cl_uint i = 0; i < numVersions; ++i) {
    if (majorVersions[i] == 1) {
      err = CL_GET_ML_INTERFACE_QCOM(extensionIntf, majorVersions[i], minorVersions[i]);
      CHECK_TRUE(err == CL_SUCCESS);
    }
  }
  CHECK_TRUE(extensionIntf != NULL);

  cl_ml_tensor_qcom input, weight, output, bias;

  // Create the input tensor
  cl_ml_tensor_desc_qcom input_desc = {
      CL_HALF_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 3, 224, 224, 0, CL_TENSOR_DIMENSIONS_4D_QCOM, {}};
  err = extensionIntf->clCreateMLTensorQCOM(context, NULL, &input_desc, &input);
  CHECK_TRUE(err == CL_SUCCESS);

  // Create the weight tensor

  cl_ml_tensor_desc_qcom weight_desc = {
      CL_HALF_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 32, 3, 3, 3, 0, CL_TENSOR_DIMENSIONS_4D_QCOM, {}};
  err = extensionIntf->clCreateMLTensorQCOM(context, NULL, &weight_desc, &weight);
  CHECK_TRUE(err == CL_SUCCESS);

  // Create the output tensor

  cl_ml_tensor_desc_qcom output_desc = {
      CL_HALF_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, 32, 112, 112, 0, CL_TENSOR_DIMENSIONS_4D_QCOM, {}};
  err = extensionIntf->clCreateMLTensorQCOM(context, NULL, &output_desc, &output);
  CHECK_TRUE(err == CL_SUCCESS);

  // Create the bias tensor. This is an empty tensor

  cl_ml_tensor_desc_qcom desc = {};
  desc.num_dimensions = CL_TENSOR_UNUSED_QCOM;
  err = extensionIntf->clCreateMLTensorQCOM(context, NULL, &desc, &bias);
  CHECK_TRUE(err == CL_SUCCESS);

  // Create the Convolution Op

  cl_ml_op_convolution_desc_qcom convDesc = {CL_CONVOLUTION_MODE_CONVOLUTION_QCOM,
                                             1,  // group count
                                             4,  // num dimensions
                                             {1, 1},
                                             {1, 1},  // spatial padding
                                             {2, 2},  // filter stride (correction 5)
                                             {1, 1},  // dilation
                                             0,       // flags
                                             CL_ARITHMETIC_MODE_FP16_QCOM};

  cl_ml_op_qcom op_conv;
  err = extensionIntf->clCreateMLOpConvolutionForwardQCOM(context, NULL, &convDesc, input, weight, bias, output,
                                                          &op_conv, NULL);
  CHECK_TRUE(err == CL_SUCCESS);

  // Query the tensor sizes and allocate backing buffers for input, output and weight tensors.
  // since the bias tensor is empty it does not need a backing buffer

  cl_mem inputMem, outputMem, weightMem;
  cl_uint size = 0;

  err = extensionIntf->clGetMLTensorMemorySizeQCOM(context, input, &size);  // correction 1
  CHECK_TRUE(err == CL_SUCCESS);
  inputMem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, NULL, &err);
  CHECK_TRUE(err == CL_SUCCESS);

  err = extensionIntf->clGetMLTensorMemorySizeQCOM(context, output, &size);
  CHECK_TRUE(err == CL_SUCCESS);
  outputMem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, NULL, &err);
  CHECK_TRUE(err == CL_SUCCESS);

  err = extensionIntf->clGetMLTensorMemorySizeQCOM(context, weight, &size);
  CHECK_TRUE(err == CL_SUCCESS);
  weightMem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, NULL, &err);
  CHECK_TRUE(err == CL_SUCCESS);

  // upload data to input and  weight tensors

  char* inputTensorData = readInputData();
  err = extensionIntf->clEnqueueWriteMLTensorDataQCOM(queue, inputTensorData, CL_TENSOR_LAYOUT_NCHW_QCOM, input,
                                                      inputMem, 0, NULL, NULL);
  CHECK_TRUE(err == CL_SUCCESS);

  char* weightTensorData = readWeightData();
  err = extensionIntf->clEnqueueWriteMLTensorDataQCOM(queue, weightTensorData, CL_TENSOR_LAYOUT_NCHW_QCOM, weight,
                                                      weightMem, 0, NULL, NULL);
  CHECK_TRUE(err == CL_SUCCESS);

  // set up tensor memory descriptor. The bias tensor is not included since
  // it is an empty tensor

  cl_ml_tensor_memory_desc_qcom descArray[] = {// {tensor, memory}
                                               {input, inputMem},
                                               {weight, weightMem},
                                               {output, outputMem}};

  cl_ml_tensor_mem_desc_set_qcom descriptorSet;
  err = extensionIntf->clCreateMLTensorMemoryDescriptorSetQCOM(&descriptorSet);
  CHECK_TRUE(err == CL_SUCCESS);

  err = extensionIntf->clUpdateMLTensorMemoryDescriptorSetQCOM(descriptorSet, sizeof(descArray) / sizeof(descArray[0]),
                                                               descArray);
  CHECK_TRUE(err == CL_SUCCESS);

  // enqueue the ML Op

  cl_event opEvent;
  err = extensionIntf->clEnqueueMLOpQCOM(queue, op_conv, descriptorSet, 0, NULL, &opEvent);
  CHECK_TRUE(err == CL_SUCCESS);

  clWaitForEvents(1, &opEvent);  // correction 2
  clReleaseEvent(opEvent);       // correction 6

  // ---- check the result (not part of the sample) ----
  std::vector<uint16_t> result(32 * 112 * 112);
  err = extensionIntf->clEnqueueReadMLTensorDataQCOM(queue, output, outputMem, result.data(),
                                                     CL_TENSOR_LAYOUT_NCHW_QCOM, 0, NULL, NULL);
  CHECK_TRUE(err == CL_SUCCESS);
  CHECK_TRUE(clFinish(queue) == CL_SUCCESS);
  double worst = 0;
  for (int o = 0; o < 32; ++o)
    for (int y = 0; y < 112; ++y)
      for (int x = 0; x < 112; ++x) {
        double acc = 0;
        for (int c = 0; c < 3; ++c)
          for (int ky = 0; ky < 3; ++ky)
            for (int kx = 0; kx < 3; ++kx) {
              const int iy = 2 * y - 1 + ky, ix = 2 * x - 1 + kx;
              if (iy < 0 || iy >= 224 || ix < 0 || ix >= 224) continue;
              acc += double(from_half(g_input[(c * 224 + iy) * 224 + ix])) *
                     from_half(g_weight[((o * 3 + c) * 3 + ky) * 3 + kx]);
            }
        worst = std::max(worst, std::fabs(acc - from_half(result[(o * 112 + y) * 112 + x])));
      }
  std::printf("sample convolution: max abs error vs host reference %.5f\n", worst);
  CHECK_TRUE(worst < 1e-1);

  err = extensionIntf->clReleaseMLTensorMemoryDescriptorSetQCOM(descriptorSet);  // correction 3
  CHECK_TRUE(err == CL_SUCCESS);

  // release resources
  clReleaseMemObject(inputMem);
  clReleaseMemObject(outputMem);
  clReleaseMemObject(weightMem);

  extensionIntf->clReleaseMLTensorQCOM(output);
  extensionIntf->clReleaseMLTensorQCOM(weight);
  extensionIntf->clReleaseMLTensorQCOM(bias);
  extensionIntf->clReleaseMLTensorQCOM(input);
  extensionIntf->clReleaseMLOpQCOM(op_conv);  // correction 4
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  std::printf("seed sample: OK\n");
  return 0;
}
