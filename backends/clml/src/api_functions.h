// api_functions.h -- the internal implementations behind every slot of the CLML interface tables.
#pragma once

#include "cl_config.h"

namespace tessera::clml {

cl_int api_create_gemm(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_gemm_desc_qcom*, cl_ml_tensor_qcom,
                       cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_transpose(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_transpose_desc_qcom*,
                            cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_fully_connected(cl_context, const cl_ml_op_properties_qcom*,
                                  const cl_ml_op_fully_connected_desc_qcom*, cl_ml_tensor_qcom, cl_ml_tensor_qcom,
                                  cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_convolution(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_convolution_desc_qcom*,
                              cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_tensor_qcom,
                              cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_batchnorm(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_batchnorm_desc_qcom*,
                            cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_tensor_qcom,
                            cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_activation(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_activation_desc_qcom*,
                             cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*,
                             cl_ml_tuningcache_qcom);
cl_int api_create_pooling(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_pooling_desc_qcom*,
                          cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*,
                          cl_ml_tuningcache_qcom);
cl_int api_create_conv_activation(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_convolution_desc_qcom*,
                                  const cl_ml_op_activation_desc_qcom*, cl_ml_tensor_qcom, cl_ml_tensor_qcom,
                                  cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*,
                                  cl_ml_tuningcache_qcom);
cl_int api_create_conv_batchnorm(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_convolution_desc_qcom*,
                                 const cl_ml_op_batchnorm_desc_qcom*, cl_ml_tensor_qcom, cl_ml_tensor_qcom,
                                 cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_tensor_qcom,
                                 cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_conv_batchnorm_activation(cl_context, const cl_ml_op_properties_qcom*,
                                            const cl_ml_op_convolution_desc_qcom*, const cl_ml_op_batchnorm_desc_qcom*,
                                            const cl_ml_op_activation_desc_qcom*, cl_ml_tensor_qcom, cl_ml_tensor_qcom,
                                            cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_tensor_qcom,
                                            cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*,
                                            cl_ml_tuningcache_qcom);
cl_int api_create_binary(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_binary_desc_qcom*,
                         cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*,
                         cl_ml_tuningcache_qcom);
cl_int api_create_softmax(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_softmax_desc_qcom*,
                          cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_fill(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_fill_desc_qcom*, cl_ml_tensor_qcom,
                       cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_concat(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_concat_desc_qcom*,
                         cl_ml_tensor_qcom*, cl_ml_tensor_qcom, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_permute(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_permute_desc_qcom*,
                          cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_reshape(cl_context, const cl_ml_op_properties_qcom*, cl_ml_tensor_qcom, cl_ml_tensor_qcom,
                          cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_depth_to_space(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_depthtospace_desc_qcom*,
                                 cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_depth_to_space_activation(cl_context, const cl_ml_op_properties_qcom*,
                                            const cl_ml_op_depthtospace_desc_qcom*,
                                            const cl_ml_op_activation_desc_qcom*, cl_ml_tensor_qcom, cl_ml_tensor_qcom,
                                            cl_ml_tensor_qcom, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_resize_bilinear(cl_context, const cl_ml_op_properties_qcom*,
                                  const cl_ml_op_resize_bilinear_desc_qcom*, cl_ml_tensor_qcom, cl_ml_tensor_qcom,
                                  cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_pad(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_pad_desc_qcom*, cl_ml_tensor_qcom,
                      cl_ml_tensor_qcom, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_create_tensor(cl_context, const cl_ml_tensor_properties_qcom*, const cl_ml_tensor_desc_qcom*,
                         cl_ml_tensor_qcom*);
// V4: a tensor created with a usage (validated, recorded; layouts do not depend on it).
cl_int api_create_tensor_with_usage(cl_context, const cl_ml_tensor_properties_qcom*, const cl_ml_tensor_desc_qcom*,
                                    cl_ml_tensor_usage_qcom, cl_ml_tensor_qcom*);
// V2: element-wise clip.
cl_int api_create_clip(cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_clip_desc_qcom*, cl_ml_tensor_qcom,
                       cl_ml_tensor_qcom, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
cl_int api_get_tensor_memory_size(cl_context, cl_ml_tensor_qcom, cl_uint*);
cl_int api_release_op(cl_ml_op_qcom);
cl_int api_release_tensor(cl_ml_tensor_qcom);
cl_int api_enqueue_op(cl_command_queue, cl_ml_op_qcom, cl_ml_tensor_mem_desc_set_qcom, cl_uint, const cl_event*,
                      cl_event*);
cl_int api_enqueue_op_immutable(cl_command_queue, cl_ml_op_qcom, cl_ml_tensor_mem_desc_set_qcom, cl_uint,
                                const cl_event*, cl_event*);
cl_int api_enqueue_recording_op(cl_command_queue, cl_recording_qcom, size_t, const cl_array_arg_qcom*, size_t,
                                const cl_ml_op_array_arg_qcom*, size_t, const cl_array_arg_qcom*, size_t,
                                const cl_offset_qcom*, size_t, const cl_workgroup_qcom*, size_t,
                                const cl_workgroup_qcom*, size_t, const cl_array_kernel_exec_info_qcom*, cl_uint,
                                const cl_event*, cl_event*);
cl_int api_read_tensor(cl_command_queue, cl_ml_tensor_qcom, cl_mem, void*, cl_tensor_layout_qcom, cl_uint,
                       const cl_event*, cl_event*);
cl_int api_write_tensor(cl_command_queue, void*, cl_tensor_layout_qcom, cl_ml_tensor_qcom, cl_mem, cl_uint,
                        const cl_event*, cl_event*);
cl_int api_copy_tensor(cl_command_queue, cl_ml_tensor_qcom, cl_mem, cl_ml_tensor_qcom, cl_mem, cl_uint, const cl_event*,
                       cl_event*);
cl_int api_create_tuning_cache(cl_ml_tuningcache_qcom*);
cl_int api_tune_op(cl_command_queue, cl_ml_op_qcom, cl_ml_tensor_mem_desc_set_qcom, cl_ml_tuningcache_qcom, cl_ulong*);
cl_int api_save_tuning_cache(cl_ml_tuningcache_qcom, size_t, unsigned char*, size_t*);
cl_int api_load_tuning_cache(cl_ml_tuningcache_qcom, size_t, unsigned char*);
cl_int api_release_tuning_cache(cl_ml_tuningcache_qcom);
cl_int api_create_descriptor_set(cl_ml_tensor_mem_desc_set_qcom*);
cl_int api_release_descriptor_set(cl_ml_tensor_mem_desc_set_qcom);
cl_int api_update_descriptor_set(cl_ml_tensor_mem_desc_set_qcom, uint32_t, cl_ml_tensor_memory_desc_qcom*);

// Recording (cl_qcom_recordable_queues emulation), exported as clNewRecordingQCOM etc.
cl_recording_qcom api_new_recording(cl_command_queue, cl_int*);
cl_int api_end_recording(cl_recording_qcom);
cl_int api_retain_recording(cl_recording_qcom);
cl_int api_release_recording(cl_recording_qcom);

}  // namespace tessera::clml
