// clml_test_support.h -- shared fixture for the CLML tests: one OpenCL context and queue per
// process, the newest interface (V4, which holds every V1 member), tensor helpers, fp16 conversion and result
// comparison.
#pragma once

#include <CL/cl_qcom_ml_ops.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include <doctest/doctest.h>

namespace clml_test {

struct Environment {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  CLMLInterfaceV4QCOM* api = nullptr;
  bool has_fp16 = false;
};

// The process-wide environment (first GPU, else first device of the first platform).
Environment& env();
inline CLMLInterfaceV4QCOM& api() {
  return *env().api;
}

uint16_t float_to_half(float value);
float half_to_float(uint16_t bits);

std::vector<float> random_values(size_t count, float lo = -1.0f, float hi = 1.0f, unsigned seed = 7);

// A tensor plus its backing buffer; both released by the destructor.
struct DeviceTensor {
  cl_ml_tensor_qcom tensor = nullptr;
  cl_mem memory = nullptr;
  cl_ml_tensor_desc_qcom desc{};
  DeviceTensor() = default;
  DeviceTensor(const DeviceTensor&) = delete;
  DeviceTensor& operator=(const DeviceTensor&) = delete;
  ~DeviceTensor();
  size_t elements() const;
  // Allocates the buffer (the tensor must be finalised).
  void allocate();
  // Writes/reads logical NCHW float data converted to the tensor's type.
  void write(const std::vector<float>& nchw, cl_tensor_layout_qcom host_layout = CL_TENSOR_LAYOUT_NCHW_QCOM);
  std::vector<float> read(cl_tensor_layout_qcom host_layout = CL_TENSOR_LAYOUT_NCHW_QCOM);
};

cl_ml_tensor_desc_qcom make_desc(cl_channel_type type, cl_tensor_layout_qcom layout, cl_uint n, cl_uint c, cl_uint h,
                                 cl_uint w, cl_uint d = 0, bool five_d = false);
// Creates the tensor (not yet backed).
void create(DeviceTensor& t, const cl_ml_tensor_desc_qcom& desc);
cl_ml_tensor_qcom unused_tensor();

// Runs an op with the given tensors bound, waits for completion and releases the op.
void run_op(cl_ml_op_qcom op, std::initializer_list<DeviceTensor*> tensors);

// NCHW <-> NHWC conversion of host data (4D).
std::vector<float> nchw_to_nhwc(const std::vector<float>& v, int n, int c, int h, int w);
std::vector<float> nhwc_to_nchw(const std::vector<float>& v, int n, int c, int h, int w);

// Rounds values through the storage type so references see what the device sees.
std::vector<float> quantize(const std::vector<float>& v, cl_channel_type type);

// |got - want| <= tol * max(1, |want|) everywhere; reports the first mismatch.
void check_close(const std::vector<float>& got, const std::vector<float>& want, float tol);

inline cl_ml_value_qcom fp32_value(float v) {
  cl_ml_value_qcom value{};
  value.fp32 = v;
  value.type = CL_FLOAT;
  return value;
}

// Tolerance for the storage type: fp32 value, else the fp16 value.
inline float tolerance(cl_channel_type type, float fp32, float fp16) {
  return type == CL_FLOAT ? fp32 : fp16;
}

// Sets CLML_GEMM_KERNEL (the blocked GEMM kernel's tile, or "register") for the ops created in
// its lifetime.
class ScopedGemmKernel {
 public:
  explicit ScopedGemmKernel(const char* tile) { setenv("CLML_GEMM_KERNEL", tile, 1); }
  ~ScopedGemmKernel() { unsetenv("CLML_GEMM_KERNEL"); }
  ScopedGemmKernel(const ScopedGemmKernel&) = delete;
  ScopedGemmKernel& operator=(const ScopedGemmKernel&) = delete;
};

}  // namespace clml_test
