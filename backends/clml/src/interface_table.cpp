// interface_table.cpp -- the exported C entry points: version query, the V1 interface table and
// the recordable-queue functions.
#include "api_functions.h"
#include "recording.h"

#define TESSERA_CLML_EXPORT extern "C" __attribute__((visibility("default")))

namespace tessera::clml {
namespace {

// Minor versions offered for major 1 (ascending); every one uses the same V1 table layout.
constexpr cl_int kMinorVersions[] = {0, 1};

template <cl_int Minor>
constexpr CLMLInterfaceV1QCOM make_v1_table() {
  return CLMLInterfaceV1QCOM{
      1,
      Minor,
      api_create_gemm,
      api_create_transpose,
      api_create_fully_connected,
      api_create_convolution,
      api_create_batchnorm,
      api_create_activation,
      api_create_pooling,
      api_create_conv_activation,
      api_create_conv_batchnorm,
      api_create_conv_batchnorm_activation,
      api_create_binary,
      api_create_softmax,
      api_create_fill,
      api_create_concat,
      api_create_permute,
      api_create_reshape,
      api_create_depth_to_space,
      api_create_depth_to_space_activation,
      api_create_resize_bilinear,
      api_create_pad,
      api_create_tensor,
      api_get_tensor_memory_size,
      api_release_op,
      api_release_tensor,
      api_enqueue_op,
      api_enqueue_op_immutable,
      api_enqueue_recording_op,
      api_read_tensor,
      api_write_tensor,
      api_copy_tensor,
      api_create_tuning_cache,
      api_tune_op,
      api_save_tuning_cache,
      api_load_tuning_cache,
      api_release_tuning_cache,
      api_create_descriptor_set,
      api_release_descriptor_set,
      api_update_descriptor_set,
  };
}

const CLMLInterfaceV1QCOM kInterfaceV1_0 = make_v1_table<0>();
const CLMLInterfaceV1QCOM kInterfaceV1_1 = make_v1_table<1>();

}  // namespace
}  // namespace tessera::clml

using namespace tessera::clml;

TESSERA_CLML_EXPORT cl_int CL_API_CALL clQueryMLInterfaceVersionsQCOM(cl_int* majors, cl_int* minors, cl_uint count,
                                                                      cl_uint* count_ret) {
  constexpr cl_uint available = sizeof(kMinorVersions) / sizeof(kMinorVersions[0]);
  if (count_ret != nullptr) *count_ret = available;
  if (count == 0)
    return count_ret != nullptr || (majors == nullptr && minors == nullptr) ? CL_SUCCESS : CL_INVALID_VALUE;
  if (count < available) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < available; ++i) {
    if (majors != nullptr) majors[i] = 1;
    if (minors != nullptr) minors[i] = kMinorVersions[i];
  }
  return CL_SUCCESS;
}

TESSERA_CLML_EXPORT cl_int CL_API_CALL clGetMLInterfaceQCOM(void* interface_out, cl_int major, cl_int minor) {
  if (interface_out == nullptr || major != 1) return CL_INVALID_VALUE;
  const CLMLInterfaceV1QCOM* table = nullptr;
  if (minor == 0)
    table = &kInterfaceV1_0;
  else if (minor == 1)
    table = &kInterfaceV1_1;
  else
    return CL_INVALID_VALUE;
  *static_cast<const CLMLInterfaceV1QCOM**>(interface_out) = table;
  return CL_SUCCESS;
}

TESSERA_CLML_EXPORT cl_recording_qcom CL_API_CALL clNewRecordingQCOM(cl_command_queue queue, cl_int* err) {
  return api_new_recording(queue, err);
}
TESSERA_CLML_EXPORT cl_int CL_API_CALL clEndRecordingQCOM(cl_recording_qcom recording) {
  return api_end_recording(recording);
}
TESSERA_CLML_EXPORT cl_int CL_API_CALL clRetainRecordingQCOM(cl_recording_qcom recording) {
  return api_retain_recording(recording);
}
TESSERA_CLML_EXPORT cl_int CL_API_CALL clReleaseRecordingQCOM(cl_recording_qcom recording) {
  return api_release_recording(recording);
}
TESSERA_CLML_EXPORT cl_int CL_API_CALL clEnqueueRecordingQCOM(
    cl_command_queue queue, cl_recording_qcom recording, size_t num_args, const cl_array_arg_qcom* args,
    size_t num_svm_args, const cl_array_arg_qcom* svm_args, size_t num_offsets, const cl_offset_qcom* offsets,
    size_t num_global, const cl_workgroup_qcom* global, size_t num_local, const cl_workgroup_qcom* local,
    size_t num_non_arg, const cl_array_kernel_exec_info_qcom* non_arg, cl_uint num_events, const cl_event* events,
    cl_event* event) {
  return api_enqueue_recording_op(queue, recording, num_args, args, 0, nullptr, num_svm_args, svm_args, num_offsets,
                                  offsets, num_global, global, num_local, local, num_non_arg, non_arg, num_events,
                                  events, event);
}

// Not part of CLML: the hook through which the loader layer (layer/clml_layer.cpp) hands over a
// client's clEnqueueNDRangeKernel, so that kernels enqueued to a recording queue are captured.
TESSERA_CLML_EXPORT cl_int CL_API_CALL tesseraClmlCaptureKernel(cl_command_queue queue, cl_kernel kernel,
                                                                cl_uint work_dim, const size_t* offset,
                                                                const size_t* global, const size_t* local,
                                                                cl_uint num_events, const cl_event* events,
                                                                cl_event* event, cl_bool* captured) {
  return tessera::clml::capture_kernel(queue, kernel, work_dim, offset, global, local, num_events, events, event,
                                       captured);
}
