// clml_test_support.cpp -- implementation of the shared CLML test fixture.
#include "clml_test_support.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace clml_test {

namespace {

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", what, err);
    std::abort();
  }
}

Environment* create_environment() {
  auto* e = new Environment();
  cl_uint count = 0;
  check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  for (cl_device_type type : {cl_device_type{CL_DEVICE_TYPE_GPU}, cl_device_type{CL_DEVICE_TYPE_ALL}}) {
    for (cl_platform_id p : platforms) {
      cl_device_id device = nullptr;
      cl_uint found = 0;
      if (clGetDeviceIDs(p, type, 1, &device, &found) == CL_SUCCESS && found > 0) {
        e->platform = p;
        e->device = device;
        break;
      }
    }
    if (e->device) break;
  }
  if (!e->device) {
    std::fprintf(stderr, "no OpenCL device\n");
    std::abort();
  }
  cl_int err = CL_SUCCESS;
  e->context = clCreateContext(nullptr, 1, &e->device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  e->queue = clCreateCommandQueueWithProperties(e->context, e->device, nullptr, &err);
  check(err, "clCreateCommandQueue");
  cl_uint versions = 0;
  check(clQueryMLInterfaceVersionsQCOM(nullptr, nullptr, 0, &versions), "clQueryMLInterfaceVersionsQCOM");
  std::vector<cl_int> majors(versions), minors(versions);
  check(clQueryMLInterfaceVersionsQCOM(majors.data(), minors.data(), versions, nullptr), "query versions");
  // The newest generation, as clients take it (the last one listed).
  if (majors.back() != 4) {
    std::fprintf(stderr, "newest CLML interface is V%d, expected V4\n", majors.back());
    std::abort();
  }
  check(CL_GET_ML_INTERFACE_QCOM(e->api, majors.back(), minors.back()), "clGetMLInterfaceQCOM");
  size_t size = 0;
  clGetDeviceInfo(e->device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size);
  std::string ext(size, '\0');
  clGetDeviceInfo(e->device, CL_DEVICE_EXTENSIONS, size, ext.data(), nullptr);
  e->has_fp16 = ext.find("cl_khr_fp16") != std::string::npos;
  return e;
}

}  // namespace

Environment& env() {
  static Environment* e = create_environment();
  return *e;
}

uint16_t float_to_half(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow
  if (abs < 0x38800000u) {                                               // subnormal or zero
    float f;
    std::memcpy(&f, &abs, 4);
    const uint32_t m = static_cast<uint32_t>(std::nearbyint(f * 16777216.0f));  // 2^24
    return static_cast<uint16_t>(sign | m);
  }
  uint32_t exp = ((abs >> 23) - 112) << 10;
  uint32_t mant = abs & 0x7fffffu;
  uint32_t h = exp | (mant >> 13);
  const uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}

float half_to_float(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  float out;
  if (exp == 0) {
    out = std::ldexp(static_cast<float>(mant), -24);
    if (sign) out = -out;
    return out;
  }
  uint32_t bits = exp == 31 ? (sign | 0x7f800000u | (mant << 13)) : (sign | ((exp + 112) << 23) | (mant << 13));
  std::memcpy(&out, &bits, 4);
  return out;
}

std::vector<float> random_values(size_t count, float lo, float hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(count);
  for (float& x : v) x = dist(gen);
  return v;
}

DeviceTensor::~DeviceTensor() {
  if (memory) clReleaseMemObject(memory);
  if (tensor) api().clReleaseMLTensorQCOM(tensor);
}

size_t DeviceTensor::elements() const {
  size_t n = size_t{desc.n} * desc.c * desc.h * desc.w;
  if (desc.num_dimensions == CL_TENSOR_DIMENSIONS_5D_QCOM) n *= desc.d;
  return n;
}

void DeviceTensor::allocate() {
  cl_uint size = 0;
  REQUIRE(api().clGetMLTensorMemorySizeQCOM(env().context, tensor, &size) == CL_SUCCESS);
  cl_int err = CL_SUCCESS;
  memory = clCreateBuffer(env().context, CL_MEM_READ_WRITE, size, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
}

namespace {
size_t element_size(cl_channel_type t) {
  return t == CL_FLOAT ? 4 : t == CL_HALF_FLOAT ? 2 : 1;
}
}  // namespace

void DeviceTensor::write(const std::vector<float>& values, cl_tensor_layout_qcom host_layout) {
  if (!memory) allocate();
  REQUIRE(values.size() == elements());
  std::vector<unsigned char> bytes(values.size() * element_size(desc.data_type));
  for (size_t i = 0; i < values.size(); ++i) {
    if (desc.data_type == CL_FLOAT)
      std::memcpy(&bytes[4 * i], &values[i], 4);
    else if (desc.data_type == CL_HALF_FLOAT) {
      uint16_t h = float_to_half(values[i]);
      std::memcpy(&bytes[2 * i], &h, 2);
    } else {
      bytes[i] =
          static_cast<unsigned char>(static_cast<int8_t>(std::clamp(std::nearbyint(values[i]), -128.0f, 127.0f)));
    }
  }
  REQUIRE(api().clEnqueueWriteMLTensorDataQCOM(env().queue, bytes.data(), host_layout, tensor, memory, 0, nullptr,
                                               nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(env().queue) == CL_SUCCESS);
}

std::vector<float> DeviceTensor::read(cl_tensor_layout_qcom host_layout) {
  std::vector<unsigned char> bytes(elements() * element_size(desc.data_type));
  REQUIRE(api().clEnqueueReadMLTensorDataQCOM(env().queue, tensor, memory, bytes.data(), host_layout, 0, nullptr,
                                              nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(env().queue) == CL_SUCCESS);
  std::vector<float> out(elements());
  for (size_t i = 0; i < out.size(); ++i) {
    if (desc.data_type == CL_FLOAT)
      std::memcpy(&out[i], &bytes[4 * i], 4);
    else if (desc.data_type == CL_HALF_FLOAT) {
      uint16_t h;
      std::memcpy(&h, &bytes[2 * i], 2);
      out[i] = half_to_float(h);
    } else {
      out[i] = static_cast<float>(static_cast<int8_t>(bytes[i]));
    }
  }
  return out;
}

cl_ml_tensor_desc_qcom make_desc(cl_channel_type type, cl_tensor_layout_qcom layout, cl_uint n, cl_uint c, cl_uint h,
                                 cl_uint w, cl_uint d, bool five_d) {
  cl_ml_tensor_desc_qcom desc{};
  desc.data_type = type;
  desc.layout = layout;
  desc.n = n;
  desc.c = c;
  desc.h = h;
  desc.w = w;
  desc.d = d;
  desc.num_dimensions = five_d ? CL_TENSOR_DIMENSIONS_5D_QCOM : CL_TENSOR_DIMENSIONS_4D_QCOM;
  return desc;
}

void create(DeviceTensor& t, const cl_ml_tensor_desc_qcom& desc) {
  t.desc = desc;
  REQUIRE(api().clCreateMLTensorQCOM(env().context, nullptr, &desc, &t.tensor) == CL_SUCCESS);
}

cl_ml_tensor_qcom unused_tensor() {
  static cl_ml_tensor_qcom tensor = [] {
    cl_ml_tensor_desc_qcom desc{};
    desc.num_dimensions = CL_TENSOR_UNUSED_QCOM;
    cl_ml_tensor_qcom t = nullptr;
    api().clCreateMLTensorQCOM(env().context, nullptr, &desc, &t);
    return t;
  }();
  return tensor;
}

void run_op(cl_ml_op_qcom op, std::initializer_list<DeviceTensor*> tensors) {
  std::vector<cl_ml_tensor_memory_desc_qcom> descs;
  for (DeviceTensor* t : tensors) {
    if (!t->memory) t->allocate();
    descs.push_back({t->tensor, t->memory});
  }
  cl_ml_tensor_mem_desc_set_qcom set = nullptr;
  REQUIRE(api().clCreateMLTensorMemoryDescriptorSetQCOM(&set) == CL_SUCCESS);
  REQUIRE(api().clUpdateMLTensorMemoryDescriptorSetQCOM(set, static_cast<uint32_t>(descs.size()), descs.data()) ==
          CL_SUCCESS);
  cl_event event = nullptr;
  REQUIRE(api().clEnqueueMLOpQCOM(env().queue, op, set, 0, nullptr, &event) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &event) == CL_SUCCESS);
  clReleaseEvent(event);
  REQUIRE(api().clReleaseMLTensorMemoryDescriptorSetQCOM(set) == CL_SUCCESS);
  REQUIRE(api().clReleaseMLOpQCOM(op) == CL_SUCCESS);
}

std::vector<float> nchw_to_nhwc(const std::vector<float>& v, int n, int c, int h, int w) {
  std::vector<float> out(v.size());
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < c; ++b)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) out[((a * h + y) * w + x) * c + b] = v[((a * c + b) * h + y) * w + x];
  return out;
}

std::vector<float> nhwc_to_nchw(const std::vector<float>& v, int n, int c, int h, int w) {
  std::vector<float> out(v.size());
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < c; ++b)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) out[((a * c + b) * h + y) * w + x] = v[((a * h + y) * w + x) * c + b];
  return out;
}

std::vector<float> quantize(const std::vector<float>& v, cl_channel_type type) {
  if (type == CL_FLOAT) return v;
  std::vector<float> out(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    out[i] =
        type == CL_HALF_FLOAT ? half_to_float(float_to_half(v[i])) : std::clamp(std::nearbyint(v[i]), -128.0f, 127.0f);
  return out;
}

void check_close(const std::vector<float>& got, const std::vector<float>& want, float tol) {
  REQUIRE(got.size() == want.size());
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const bool both_nan = std::isnan(got[i]) && std::isnan(want[i]);
    if (both_nan) continue;
    const float err = std::fabs(got[i] - want[i]);
    if (!(err <= tol * std::max(1.0f, std::fabs(want[i])))) {
      if (bad++ == 0) {
        INFO("first mismatch at " << i << ": got " << got[i] << " want " << want[i] << " tol " << tol);
        CHECK(false);
      }
    }
  }
  CHECK_MESSAGE(bad == 0, bad << " of " << got.size() << " values out of tolerance");
}

}  // namespace clml_test
