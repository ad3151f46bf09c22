// enqueue.cpp -- clEnqueueMLOpQCOM and clEnqueueMLOpImmutableQCOM.
#include "api_guard.h"
#include "descriptor_set.h"
#include "recording.h"

namespace tessera::clml {

namespace {

cl_int enqueue_op(cl_command_queue queue, cl_ml_op_qcom handle, cl_ml_tensor_mem_desc_set_qcom set_handle,
                  cl_uint num_events, const cl_event* events, cl_event* event, bool immutable) {
  if (cl_int err = validate_queue(queue); err != CL_SUCCESS) return err;
  OpPtr op = find_op(handle);
  if (!op) return CL_INVALID_VALUE;
  DescriptorSetPtr set = find_descriptor_set(set_handle);
  if (!set) return CL_INVALID_VALUE;
  if (cl_int err = validate_wait_list(num_events, events); err != CL_SUCCESS) return err;
  if (queue_context(queue) != op->context()) return CL_INVALID_CONTEXT;
  std::vector<cl_mem> memories;
  if (cl_int err = set->resolve(*op, memories); err != CL_SUCCESS) return err;
  if (queue_is_recording(queue)) {
    if (num_events != 0) return CL_INVALID_EVENT_WAIT_LIST;
    if (event != nullptr) return CL_INVALID_VALUE;
    return capture_op(queue, op, memories) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
  }
  if (immutable) return CL_INVALID_COMMAND_QUEUE;
  cl::CommandQueue q(queue, true);
  std::vector<cl::Event> wait = to_events(num_events, events);
  cl::Event done;
  op->run(q, memories, wait.empty() ? nullptr : &wait, event ? &done : nullptr);
  hand_out(done, event);
  return CL_SUCCESS;
}

}  // namespace

cl_int api_enqueue_op(cl_command_queue queue, cl_ml_op_qcom op, cl_ml_tensor_mem_desc_set_qcom set, cl_uint num_events,
                      const cl_event* events, cl_event* event) {
  return guarded([&] { return enqueue_op(queue, op, set, num_events, events, event, false); });
}

cl_int api_enqueue_op_immutable(cl_command_queue queue, cl_ml_op_qcom op, cl_ml_tensor_mem_desc_set_qcom set,
                                cl_uint num_events, const cl_event* events, cl_event* event) {
  return guarded([&] { return enqueue_op(queue, op, set, num_events, events, event, true); });
}

}  // namespace tessera::clml
