// api_guard.cpp -- the shared argument checks of api_guard.h.
#include "api_guard.h"

namespace tessera::clml {

bool debug_enabled() {
  static const bool enabled = std::getenv("CLML_DEBUG") != nullptr;
  return enabled;
}

cl_int validate_context(cl_context context) {
  if (context == nullptr) return CL_INVALID_CONTEXT;
  cl_uint refs = 0;
  if (clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs), &refs, nullptr) != CL_SUCCESS)
    return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

cl_int validate_queue(cl_command_queue queue) {
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  cl_command_queue_properties props = 0;
  if (clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof(props), &props, nullptr) != CL_SUCCESS)
    return CL_INVALID_COMMAND_QUEUE;
  if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) return CL_INVALID_COMMAND_QUEUE;
  return CL_SUCCESS;
}

cl_int validate_wait_list(cl_uint count, const cl_event* events) {
  if ((count > 0 && events == nullptr) || (count == 0 && events != nullptr)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < count; ++i)
    if (events[i] == nullptr) return CL_INVALID_EVENT_WAIT_LIST;
  return CL_SUCCESS;
}

cl_context queue_context(cl_command_queue queue) {
  cl_context context = nullptr;
  clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof(context), &context, nullptr);
  return context;
}

}  // namespace tessera::clml
namespace tessera::clml {

cl_int validate_buffer(cl_mem memory, size_t bytes, cl_context context) {
  if (memory == nullptr) return CL_INVALID_MEM_OBJECT;
  cl_mem_object_type type = 0;
  if (clGetMemObjectInfo(memory, CL_MEM_TYPE, sizeof(type), &type, nullptr) != CL_SUCCESS ||
      type != CL_MEM_OBJECT_BUFFER)
    return CL_INVALID_MEM_OBJECT;
  size_t size = 0;
  clGetMemObjectInfo(memory, CL_MEM_SIZE, sizeof(size), &size, nullptr);
  if (size < bytes) return CL_INVALID_MEM_OBJECT;
  cl_context owner = nullptr;
  clGetMemObjectInfo(memory, CL_MEM_CONTEXT, sizeof(owner), &owner, nullptr);
  if (context != nullptr && owner != context) return CL_INVALID_MEM_OBJECT;
  return CL_SUCCESS;
}

}  // namespace tessera::clml
