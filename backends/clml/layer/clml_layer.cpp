// clml_layer.cpp -- OpenCL loader layer for CLML clients on devices without cl_qcom_ml_ops.
//
// Load with OPENCL_LAYERS=/path/to/libtessera_clml_layer.so (ocl-icd >= 2.3 and the Khronos
// loader support layers). The layer forwards every call to the next dispatch table except:
//   clGetDeviceInfo(CL_DEVICE_EXTENSIONS)   appends " cl_qcom_ml_ops cl_qcom_recordable_queues"
//   clCreateCommandQueue[WithProperties]    strips CL_QUEUE_RECORDABLE_QCOM, which the real
//                                           driver would reject; libtessera_clml emulates it.
//   clEnqueueNDRangeKernel                  offered first to libtessera_clml (its exported hook
//                                           tesseraClmlCaptureKernel), which captures kernels
//                                           enqueued to a queue with an open recording.
// With CLML_LAYER_REPORT_GPU=1 in the environment (read when the loader initialises the layer)
// every device also reports itself as a GPU, for clients that only look for GPU devices:
//   clGetDeviceInfo(CL_DEVICE_TYPE)         answers CL_DEVICE_TYPE_GPU
//   clGetDeviceIDs, clCreateContextFromType a type that includes CL_DEVICE_TYPE_GPU selects every
//                                           device (CL_DEVICE_TYPE_ALL); other types are unchanged
// The ML functions themselves live in libtessera_clml, which clients link directly.
#include <CL/cl_icd.h>
#include <CL/cl_layer.h>
#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "CL/cl_qcom_ml_ops.h"

namespace {

constexpr char kExtraExtensions[] = " cl_qcom_ml_ops cl_qcom_recordable_queues";

// The next layer's (or driver's) table and ours; written once by clInitLayer.
cl_icd_dispatch g_next{};
cl_icd_dispatch g_layer{};
// CLML_LAYER_REPORT_GPU=1: devices are reported as GPUs.
bool g_report_gpu = false;

// The type to ask the driver for: every device when the client asks for GPUs and they are
// reported as GPUs.
cl_device_type driver_type(cl_device_type requested) {
  return g_report_gpu && (requested & CL_DEVICE_TYPE_GPU) != 0 ? CL_DEVICE_TYPE_ALL : requested;
}

cl_int CL_API_CALL layer_get_device_ids(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                                        cl_device_id* devices, cl_uint* num_devices) {
  return g_next.clGetDeviceIDs(platform, driver_type(type), num_entries, devices, num_devices);
}

cl_context CL_API_CALL layer_create_context_from_type(const cl_context_properties* properties, cl_device_type type,
                                                      void(CL_CALLBACK* notify)(const char*, const void*, size_t,
                                                                                void*),
                                                      void* user_data, cl_int* err) {
  return g_next.clCreateContextFromType(properties, driver_type(type), notify, user_data, err);
}

cl_int report_device_type(size_t size, void* value, size_t* size_ret) {
  const cl_device_type gpu = CL_DEVICE_TYPE_GPU;
  if (size_ret != nullptr) *size_ret = sizeof(gpu);
  if (value != nullptr) {
    if (size < sizeof(gpu)) return CL_INVALID_VALUE;
    std::memcpy(value, &gpu, sizeof(gpu));
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL layer_get_device_info(cl_device_id device, cl_device_info name, size_t size, void* value,
                                         size_t* size_ret) {
  if (name == CL_DEVICE_TYPE && g_report_gpu) {
    cl_device_type real = 0;  // validates the device
    const cl_int err = g_next.clGetDeviceInfo(device, name, sizeof(real), &real, nullptr);
    return err != CL_SUCCESS ? err : report_device_type(size, value, size_ret);
  }
  if (name != CL_DEVICE_EXTENSIONS) return g_next.clGetDeviceInfo(device, name, size, value, size_ret);
  size_t base_size = 0;
  cl_int err = g_next.clGetDeviceInfo(device, name, 0, nullptr, &base_size);
  if (err != CL_SUCCESS) return err;
  std::vector<char> base(base_size + 1, '\0');
  err = g_next.clGetDeviceInfo(device, name, base_size, base.data(), nullptr);
  if (err != CL_SUCCESS) return err;
  std::string extensions(base.data());
  while (!extensions.empty() && extensions.back() == ' ') extensions.pop_back();
  if (extensions.find("cl_qcom_ml_ops") == std::string::npos) extensions += kExtraExtensions;
  const size_t needed = extensions.size() + 1;
  if (size_ret != nullptr) *size_ret = needed;
  if (value != nullptr) {
    if (size < needed) return CL_INVALID_VALUE;
    std::memcpy(value, extensions.c_str(), needed);
  }
  return CL_SUCCESS;
}

cl_command_queue CL_API_CALL layer_create_queue(cl_context context, cl_device_id device,
                                                cl_command_queue_properties properties, cl_int* err) {
  return g_next.clCreateCommandQueue(context, device,
                                     properties & ~cl_command_queue_properties{CL_QUEUE_RECORDABLE_QCOM}, err);
}

cl_command_queue CL_API_CALL layer_create_queue_with_properties(cl_context context, cl_device_id device,
                                                                const cl_queue_properties* properties, cl_int* err) {
  std::vector<cl_queue_properties> copy;
  if (properties != nullptr) {
    for (size_t i = 0; properties[i] != 0; i += 2) {
      cl_queue_properties v = properties[i + 1];
      if (properties[i] == CL_QUEUE_PROPERTIES) v &= ~cl_queue_properties{CL_QUEUE_RECORDABLE_QCOM};
      copy.push_back(properties[i]);
      copy.push_back(v);
    }
    copy.push_back(0);
  }
  return g_next.clCreateCommandQueueWithProperties(context, device, properties ? copy.data() : nullptr, err);
}

using capture_hook = cl_int(CL_API_CALL*)(cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*,
                                          const size_t*, cl_uint, const cl_event*, cl_event*, cl_bool*);

// libtessera_clml's hook, once it is loaded: visible globally when the client links it, else
// found by its soname when it was loaded locally (e.g. by a plugin opened with RTLD_LOCAL).
capture_hook find_capture_hook() {
  static std::atomic<capture_hook> found{nullptr};
  capture_hook hook = found.load(std::memory_order_acquire);
  if (hook != nullptr) return hook;
  void* symbol = dlsym(RTLD_DEFAULT, "tesseraClmlCaptureKernel");
  if (symbol == nullptr) {
    if (void* library = dlopen("libtessera_clml.so.1", RTLD_LAZY | RTLD_NOLOAD)) {
      symbol = dlsym(library, "tesseraClmlCaptureKernel");
      dlclose(library);  // balances the NOLOAD reference; the library stays loaded
    }
  }
  hook = reinterpret_cast<capture_hook>(symbol);
  if (hook != nullptr) found.store(hook, std::memory_order_release);
  return hook;
}

cl_int CL_API_CALL layer_enqueue_ndrange(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                         const size_t* offset, const size_t* global, const size_t* local,
                                         cl_uint num_events, const cl_event* events, cl_event* event) {
  if (capture_hook hook = find_capture_hook()) {
    cl_bool captured = CL_FALSE;
    const cl_int err = hook(queue, kernel, work_dim, offset, global, local, num_events, events, event, &captured);
    if (captured) return err;
  }
  return g_next.clEnqueueNDRangeKernel(queue, kernel, work_dim, offset, global, local, num_events, events, event);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) cl_int CL_API_CALL clGetLayerInfo(cl_layer_info name, size_t size,
                                                                                    void* value, size_t* size_ret) {
  if (name == CL_LAYER_API_VERSION) {
    const cl_layer_api_version version = CL_LAYER_API_VERSION_100;
    if (size_ret != nullptr) *size_ret = sizeof(version);
    if (value != nullptr) {
      if (size < sizeof(version)) return CL_INVALID_VALUE;
      std::memcpy(value, &version, sizeof(version));
    }
    return CL_SUCCESS;
  }
  if (name == CL_LAYER_NAME) {
    static const char kName[] = "tessera_clml_layer";
    if (size_ret != nullptr) *size_ret = sizeof(kName);
    if (value != nullptr) {
      if (size < sizeof(kName)) return CL_INVALID_VALUE;
      std::memcpy(value, kName, sizeof(kName));
    }
    return CL_SUCCESS;
  }
  return CL_INVALID_VALUE;
}

extern "C" __attribute__((visibility("default"))) cl_int CL_API_CALL
clInitLayer(cl_uint num_entries, const cl_icd_dispatch* target, cl_uint* num_entries_ret,
            const cl_icd_dispatch** layer_dispatch) {
  constexpr cl_uint kEntries = sizeof(cl_icd_dispatch) / sizeof(void*);
  if (target == nullptr || num_entries_ret == nullptr || layer_dispatch == nullptr) return CL_INVALID_VALUE;
  // Copy what the loader provides; entries it does not know stay null.
  std::memcpy(&g_next, target, (num_entries < kEntries ? num_entries : kEntries) * sizeof(void*));
  g_layer = g_next;
  const char* report_gpu = std::getenv("CLML_LAYER_REPORT_GPU");
  g_report_gpu = report_gpu != nullptr && report_gpu[0] == '1';
  if (g_report_gpu) {
    g_layer.clGetDeviceIDs = layer_get_device_ids;
    g_layer.clCreateContextFromType = layer_create_context_from_type;
  }
  g_layer.clGetDeviceInfo = layer_get_device_info;
  g_layer.clCreateCommandQueue = layer_create_queue;
  g_layer.clCreateCommandQueueWithProperties = layer_create_queue_with_properties;
  g_layer.clEnqueueNDRangeKernel = layer_enqueue_ndrange;
  *layer_dispatch = &g_layer;
  *num_entries_ret = kEntries;
  return CL_SUCCESS;
}
