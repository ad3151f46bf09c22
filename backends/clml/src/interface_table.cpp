// interface_table.cpp -- the exported C entry points: version query, the interface tables V1 (minors
// 0 and 1) to V4 and the recordable-queue functions.
#include "api_functions.h"
#include "recording.h"

#define TESSERA_CLML_EXPORT extern "C" __attribute__((visibility("default")))

namespace tessera::clml {
namespace {

// Fills the V1 members, which every generation's table starts with.
template <class Table>
constexpr void fill_v1_members(Table& t, cl_int major, cl_int minor) {
  t.majorVersion = major;
  t.minorVersion = minor;
  t.clCreateMLOpGemmQCOM = api_create_gemm;
  t.clCreateMLOpTransposeQCOM = api_create_transpose;
  t.clCreateMLOpFullyConnectedQCOM = api_create_fully_connected;
  t.clCreateMLOpConvolutionForwardQCOM = api_create_convolution;
  t.clCreateMLOpBatchNormForwardQCOM = api_create_batchnorm;
  t.clCreateMLOpActivationForwardQCOM = api_create_activation;
  t.clCreateMLOpPoolingForwardQCOM = api_create_pooling;
  t.clCreateMLOpFusedConvolutionActivationForwardQCOM = api_create_conv_activation;
  t.clCreateMLOpFusedConvolutionBatchNormForwardQCOM = api_create_conv_batchnorm;
  t.clCreateMLOpFusedConvolutionBatchNormActivationForwardQCOM = api_create_conv_batchnorm_activation;
  t.clCreateMLOpBinaryQCOM = api_create_binary;
  t.clCreateMLOpSoftmaxQCOM = api_create_softmax;
  t.clCreateMLOpFillQCOM = api_create_fill;
  t.clCreateMLOpConcatQCOM = api_create_concat;
  t.clCreateMLOpPermuteQCOM = api_create_permute;
  t.clCreateMLOpReshapeQCOM = api_create_reshape;
  t.clCreateMLOpDepthToSpaceQCOM = api_create_depth_to_space;
  t.clCreateMLOpFusedDepthToSpaceActivationQCOM = api_create_depth_to_space_activation;
  t.clCreateMLOpResizeBilinearQCOM = api_create_resize_bilinear;
  t.clCreateMLOpPadQCOM = api_create_pad;
  t.clCreateMLTensorQCOM = api_create_tensor;
  t.clGetMLTensorMemorySizeQCOM = api_get_tensor_memory_size;
  t.clReleaseMLOpQCOM = api_release_op;
  t.clReleaseMLTensorQCOM = api_release_tensor;
  t.clEnqueueMLOpQCOM = api_enqueue_op;
  t.clEnqueueMLOpImmutableQCOM = api_enqueue_op_immutable;
  t.clEnqueueRecordingMLOpQCOM = api_enqueue_recording_op;
  t.clEnqueueReadMLTensorDataQCOM = api_read_tensor;
  t.clEnqueueWriteMLTensorDataQCOM = api_write_tensor;
  t.clEnqueueCopyMLTensorDataQCOM = api_copy_tensor;
  t.clCreateMLTuningCacheQCOM = api_create_tuning_cache;
  t.clTuneMLOpQCOM = api_tune_op;
  t.clSaveMLTuningCacheQCOM = api_save_tuning_cache;
  t.clLoadMLTuningCacheQCOM = api_load_tuning_cache;
  t.clReleaseMLTuningCacheQCOM = api_release_tuning_cache;
  t.clCreateMLTensorMemoryDescriptorSetQCOM = api_create_descriptor_set;
  t.clReleaseMLTensorMemoryDescriptorSetQCOM = api_release_descriptor_set;
  t.clUpdateMLTensorMemoryDescriptorSetQCOM = api_update_descriptor_set;
}

template <cl_int Minor>
constexpr CLMLInterfaceV1QCOM make_v1_table() {
  CLMLInterfaceV1QCOM t{};
  fill_v1_members(t, 1, Minor);
  return t;
}

// V2 and V3 (same members): V1 plus the clip op.
template <class Table, cl_int Major>
constexpr Table make_clip_table() {
  Table t{};
  fill_v1_members(t, Major, 0);
  t.clCreateMLOpClipQCOM = api_create_clip;
  return t;
}

constexpr CLMLInterfaceV4QCOM make_v4_table() {
  CLMLInterfaceV4QCOM t{};
  fill_v1_members(t, 4, 0);
  t.clCreateMLOpClipQCOM = api_create_clip;
  t.clCreateMLTensorWithUsageQCOM = api_create_tensor_with_usage;
  return t;
}

const CLMLInterfaceV1QCOM kInterfaceV1_0 = make_v1_table<0>();
const CLMLInterfaceV1QCOM kInterfaceV1_1 = make_v1_table<1>();
const CLMLInterfaceV2QCOM kInterfaceV2_0 = make_clip_table<CLMLInterfaceV2QCOM, 2>();
const CLMLInterfaceV3QCOM kInterfaceV3_0 = make_clip_table<CLMLInterfaceV3QCOM, 3>();
const CLMLInterfaceV4QCOM kInterfaceV4_0 = make_v4_table();

// Every (major, minor) offered, ascending, with its table.
struct OfferedVersion {
  cl_int major;
  cl_int minor;
  const void* table;
};
const OfferedVersion kOffered[] = {
    {1, 0, &kInterfaceV1_0}, {1, 1, &kInterfaceV1_1}, {2, 0, &kInterfaceV2_0},
    {3, 0, &kInterfaceV3_0}, {4, 0, &kInterfaceV4_0},
};

}  // namespace
}  // namespace tessera::clml

using namespace tessera::clml;

TESSERA_CLML_EXPORT cl_int CL_API_CALL clQueryMLInterfaceVersionsQCOM(cl_int* majors, cl_int* minors, cl_uint count,
                                                                      cl_uint* count_ret) {
  constexpr cl_uint available = sizeof(kOffered) / sizeof(kOffered[0]);
  if (count_ret != nullptr) *count_ret = available;
  if (count == 0)
    return count_ret != nullptr || (majors == nullptr && minors == nullptr) ? CL_SUCCESS : CL_INVALID_VALUE;
  if (count < available) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < available; ++i) {
    if (majors != nullptr) majors[i] = kOffered[i].major;
    if (minors != nullptr) minors[i] = kOffered[i].minor;
  }
  return CL_SUCCESS;
}

TESSERA_CLML_EXPORT cl_int CL_API_CALL clGetMLInterfaceQCOM(void* interface_out, cl_int major, cl_int minor) {
  if (interface_out == nullptr) return CL_INVALID_VALUE;
  for (const OfferedVersion& offered : kOffered) {
    if (offered.major == major && offered.minor == minor) {
      *static_cast<const void**>(interface_out) = offered.table;
      return CL_SUCCESS;
    }
  }
  return CL_INVALID_VALUE;
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
