// tensor_io.cpp -- clEnqueueRead/Write/CopyMLTensorDataQCOM: host data in packed NCHW or NHWC
// order, converted on the device to and from the tensor's physical layout.
#include "api_guard.h"
#include "copy_kernels.h"
#include "descriptor_set.h"

namespace tessera::clml {

namespace {

bool is_linear_layout(cl_tensor_layout_qcom layout) {
  return layout == CL_TENSOR_LAYOUT_NCHW_QCOM || layout == CL_TENSOR_LAYOUT_NHWC_QCOM;
}

// Common checks of read and write; fills `info` and `queue_ctx`.
cl_int check_transfer(cl_command_queue queue, cl_ml_tensor_qcom handle, cl_mem memory, const void* host,
                      cl_tensor_layout_qcom layout, cl_uint num_events, const cl_event* events, TensorInfo& info) {
  if (cl_int err = validate_queue(queue); err != CL_SUCCESS) return err;
  TensorPtr tensor = find_tensor(handle);
  if (!tensor || tensor->unused() || !tensor->finalized()) return CL_INVALID_VALUE;
  if (host == nullptr || !is_linear_layout(layout)) return CL_INVALID_VALUE;
  info = tensor->info();
  if (tensor->context() != queue_context(queue)) return CL_INVALID_CONTEXT;
  if (cl_int err = validate_buffer(memory, info.bytes(), tensor->context()); err != CL_SUCCESS) return err;
  return validate_wait_list(num_events, events);
}

cl_int read_tensor(cl_command_queue queue, cl_ml_tensor_qcom handle, cl_mem memory, void* host,
                   cl_tensor_layout_qcom layout, cl_uint num_events, const cl_event* events, cl_event* event) {
  TensorInfo info;
  if (cl_int err = check_transfer(queue, handle, memory, host, layout, num_events, events, info); err != CL_SUCCESS)
    return err;
  cl::CommandQueue q(queue, true);
  cl::Context context(queue_context(queue), true);
  std::vector<cl::Event> wait = to_events(num_events, events);
  const Shape5 host_strides = packed_strides(info.shape, layout);
  const size_t bytes = static_cast<size_t>(info.elements()) * info.element_size();
  cl::Event done;
  cl::Event* done_ptr = event ? &done : nullptr;
  if (same_memory_order(info.shape, host_strides, info.strides)) {
    cl::Buffer buffer(memory, true);
    q.enqueueReadBuffer(buffer, CL_FALSE, 0, bytes, host, wait.empty() ? nullptr : &wait, done_ptr);
  } else {
    cl::Buffer staging(context, CL_MEM_READ_WRITE, bytes);
    enqueue_strided_copy(q, context, memory, info.dtype, 0, info.strides, staging(), info.dtype, 0, host_strides,
                         info.shape, wait.empty() ? nullptr : &wait, nullptr);
    q.enqueueReadBuffer(staging, CL_FALSE, 0, bytes, host, nullptr, done_ptr);
  }
  hand_out(done, event);
  return CL_SUCCESS;
}

cl_int write_tensor(cl_command_queue queue, void* host, cl_tensor_layout_qcom layout, cl_ml_tensor_qcom handle,
                    cl_mem memory, cl_uint num_events, const cl_event* events, cl_event* event) {
  TensorInfo info;
  if (cl_int err = check_transfer(queue, handle, memory, host, layout, num_events, events, info); err != CL_SUCCESS)
    return err;
  cl::CommandQueue q(queue, true);
  cl::Context context(queue_context(queue), true);
  std::vector<cl::Event> wait = to_events(num_events, events);
  const Shape5 host_strides = packed_strides(info.shape, layout);
  const size_t bytes = static_cast<size_t>(info.elements()) * info.element_size();
  cl::Event done;
  cl::Event* done_ptr = event ? &done : nullptr;
  if (same_memory_order(info.shape, host_strides, info.strides)) {
    cl::Buffer buffer(memory, true);
    q.enqueueWriteBuffer(buffer, CL_FALSE, 0, bytes, host, wait.empty() ? nullptr : &wait, done_ptr);
  } else {
    cl::Buffer staging(context, CL_MEM_READ_WRITE, bytes);
    q.enqueueWriteBuffer(staging, CL_FALSE, 0, bytes, host, wait.empty() ? nullptr : &wait, nullptr);
    enqueue_strided_copy(q, context, staging(), info.dtype, 0, host_strides, memory, info.dtype, 0, info.strides,
                         info.shape, nullptr, done_ptr);
  }
  hand_out(done, event);
  return CL_SUCCESS;
}

cl_int copy_tensor(cl_command_queue queue, cl_ml_tensor_qcom src_handle, cl_mem src_memory,
                   cl_ml_tensor_qcom dst_handle, cl_mem dst_memory, cl_uint num_events, const cl_event* events,
                   cl_event* event) {
  if (cl_int err = validate_queue(queue); err != CL_SUCCESS) return err;
  TensorPtr src = find_tensor(src_handle);
  TensorPtr dst = find_tensor(dst_handle);
  // Copy does not finalise: both tensors must already have a layout.
  if (!src || src->unused() || !src->finalized()) return CL_INVALID_VALUE;
  if (!dst || dst->unused() || !dst->finalized()) return CL_INVALID_VALUE;
  const TensorInfo si = src->info();
  const TensorInfo di = dst->info();
  cl_context context_raw = queue_context(queue);
  if (src->context() != context_raw || dst->context() != context_raw) return CL_INVALID_CONTEXT;
  if (cl_int err = validate_buffer(src_memory, si.bytes(), context_raw); err != CL_SUCCESS) return err;
  if (cl_int err = validate_buffer(dst_memory, di.bytes(), context_raw); err != CL_SUCCESS) return err;
  if (cl_int err = validate_wait_list(num_events, events); err != CL_SUCCESS) return err;
  if (!si.same_shape(di)) return CL_ML_OP_NOT_ACCELERATED_QCOM;
  cl::CommandQueue q(queue, true);
  cl::Context context(context_raw, true);
  std::vector<cl::Event> wait = to_events(num_events, events);
  cl::Event done;
  cl::Event* done_ptr = event ? &done : nullptr;
  if (si.dtype == di.dtype && same_memory_order(si.shape, si.strides, di.strides) && si.bytes() == di.bytes()) {
    cl::Buffer s(src_memory, true), d(dst_memory, true);
    q.enqueueCopyBuffer(s, d, 0, 0, si.bytes(), wait.empty() ? nullptr : &wait, done_ptr);
  } else {
    enqueue_strided_copy(q, context, src_memory, si.dtype, 0, si.strides, dst_memory, di.dtype, 0, di.strides, si.shape,
                         wait.empty() ? nullptr : &wait, done_ptr);
  }
  hand_out(done, event);
  return CL_SUCCESS;
}

}  // namespace

cl_int api_read_tensor(cl_command_queue queue, cl_ml_tensor_qcom src, cl_mem src_memory, void* dst,
                       cl_tensor_layout_qcom layout, cl_uint num_events, const cl_event* events, cl_event* event) {
  return guarded([&] { return read_tensor(queue, src, src_memory, dst, layout, num_events, events, event); });
}

cl_int api_write_tensor(cl_command_queue queue, void* src, cl_tensor_layout_qcom layout, cl_ml_tensor_qcom dst,
                        cl_mem dst_memory, cl_uint num_events, const cl_event* events, cl_event* event) {
  return guarded([&] { return write_tensor(queue, src, layout, dst, dst_memory, num_events, events, event); });
}

cl_int api_copy_tensor(cl_command_queue queue, cl_ml_tensor_qcom src, cl_mem src_memory, cl_ml_tensor_qcom dst,
                       cl_mem dst_memory, cl_uint num_events, const cl_event* events, cl_event* event) {
  return guarded([&] { return copy_tensor(queue, src, src_memory, dst, dst_memory, num_events, events, event); });
}

}  // namespace tessera::clml
