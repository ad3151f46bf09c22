/* VX/vx_api.h: the OpenVX 1.1 core functions the Neural Network extension needs: context,
 * references, log, graph, node, parameter, scalar, LUT, image and object array. */
#ifndef VX_API_H
#define VX_API_H

#include <VX/vx_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Context */
VX_API_ENTRY vx_context VX_API_CALL vxCreateContext(void);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseContext(vx_context* context);
VX_API_ENTRY vx_context VX_API_CALL vxGetContext(vx_reference reference);
VX_API_ENTRY vx_status VX_API_CALL vxQueryContext(vx_context context, vx_enum attribute, void* ptr,
                                                  vx_size size);

/* References */
VX_API_ENTRY vx_status VX_API_CALL vxGetStatus(vx_reference reference);
VX_API_ENTRY vx_status VX_API_CALL vxRetainReference(vx_reference ref);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseReference(vx_reference* ref_ptr);
VX_API_ENTRY vx_status VX_API_CALL vxQueryReference(vx_reference ref, vx_enum attribute, void* ptr,
                                                    vx_size size);
VX_API_ENTRY vx_status VX_API_CALL vxSetReferenceName(vx_reference ref, const vx_char* name);

/* Log */
VX_API_ENTRY void VX_API_CALL vxRegisterLogCallback(vx_context context,
                                                    vx_log_callback_f callback,
                                                    vx_bool reentrant);
VX_API_ENTRY void VX_API_CALL vxAddLogEntry(vx_reference ref, vx_status status,
                                            const char* message, ...);

/* Graph */
VX_API_ENTRY vx_graph VX_API_CALL vxCreateGraph(vx_context context);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseGraph(vx_graph* graph);
VX_API_ENTRY vx_status VX_API_CALL vxVerifyGraph(vx_graph graph);
VX_API_ENTRY vx_status VX_API_CALL vxProcessGraph(vx_graph graph);
VX_API_ENTRY vx_status VX_API_CALL vxScheduleGraph(vx_graph graph);
VX_API_ENTRY vx_status VX_API_CALL vxWaitGraph(vx_graph graph);
VX_API_ENTRY vx_status VX_API_CALL vxQueryGraph(vx_graph graph, vx_enum attribute, void* ptr,
                                                vx_size size);
VX_API_ENTRY vx_bool VX_API_CALL vxIsGraphVerified(vx_graph graph);
VX_API_ENTRY vx_status VX_API_CALL vxAddParameterToGraph(vx_graph graph, vx_parameter parameter);
VX_API_ENTRY vx_status VX_API_CALL vxSetGraphParameterByIndex(vx_graph graph, vx_uint32 index,
                                                              vx_reference value);
VX_API_ENTRY vx_parameter VX_API_CALL vxGetGraphParameterByIndex(vx_graph graph,
                                                                 vx_uint32 index);

/* Node */
VX_API_ENTRY vx_status VX_API_CALL vxReleaseNode(vx_node* node);
VX_API_ENTRY vx_status VX_API_CALL vxRemoveNode(vx_node* node);
VX_API_ENTRY vx_status VX_API_CALL vxQueryNode(vx_node node, vx_enum attribute, void* ptr,
                                               vx_size size);
VX_API_ENTRY vx_status VX_API_CALL vxAssignNodeCallback(vx_node node, vx_nodecomplete_f callback);
VX_API_ENTRY vx_nodecomplete_f VX_API_CALL vxRetrieveNodeCallback(vx_node node);
VX_API_ENTRY vx_status VX_API_CALL vxSetParameterByIndex(vx_node node, vx_uint32 index,
                                                         vx_reference value);

/* Parameter */
VX_API_ENTRY vx_parameter VX_API_CALL vxGetParameterByIndex(vx_node node, vx_uint32 index);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseParameter(vx_parameter* param);
VX_API_ENTRY vx_status VX_API_CALL vxSetParameterByReference(vx_parameter parameter,
                                                             vx_reference value);
VX_API_ENTRY vx_status VX_API_CALL vxQueryParameter(vx_parameter parameter, vx_enum attribute,
                                                    void* ptr, vx_size size);

/* Scalar */
VX_API_ENTRY vx_scalar VX_API_CALL vxCreateScalar(vx_context context, vx_enum data_type,
                                                  const void* ptr);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseScalar(vx_scalar* scalar);
VX_API_ENTRY vx_status VX_API_CALL vxQueryScalar(vx_scalar scalar, vx_enum attribute, void* ptr,
                                                 vx_size size);
VX_API_ENTRY vx_status VX_API_CALL vxCopyScalar(vx_scalar scalar, void* user_ptr, vx_enum usage,
                                                vx_enum user_mem_type);

/* LUT */
VX_API_ENTRY vx_lut VX_API_CALL vxCreateLUT(vx_context context, vx_enum data_type, vx_size count);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseLUT(vx_lut* lut);
VX_API_ENTRY vx_status VX_API_CALL vxQueryLUT(vx_lut lut, vx_enum attribute, void* ptr,
                                              vx_size size);
VX_API_ENTRY vx_status VX_API_CALL vxCopyLUT(vx_lut lut, void* user_ptr, vx_enum usage,
                                             vx_enum user_mem_type);

/* Image (images here are the ones vxCreateImageObjectArrayFromTensor returns) */
VX_API_ENTRY vx_status VX_API_CALL vxReleaseImage(vx_image* image);
VX_API_ENTRY vx_status VX_API_CALL vxQueryImage(vx_image image, vx_enum attribute, void* ptr,
                                                vx_size size);

/* Object array */
VX_API_ENTRY vx_reference VX_API_CALL vxGetObjectArrayItem(vx_object_array arr, vx_uint32 index);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseObjectArray(vx_object_array* arr);
VX_API_ENTRY vx_status VX_API_CALL vxQueryObjectArray(vx_object_array arr, vx_enum attribute,
                                                      void* ptr, vx_size size);

#ifdef __cplusplus
}
#endif

#endif /* VX_API_H */
