// recording.cpp -- cl_qcom_recordable_queues emulated on any OpenCL device.
//
// clNewRecordingQCOM(queue) opens a recording on an in-order queue; while it is open, ML ops
// enqueued to that queue are captured (with their tensor memory) instead of run, and the queue
// counts as recordable (clEnqueueMLOpImmutableQCOM is accepted). Client kernels enqueued to it
// with clEnqueueNDRangeKernel are captured too when the loader layer (layer/clml_layer.cpp) is
// active: it hands them to tesseraClmlCaptureKernel, which stores a clone of the kernel (its
// arguments as they were) and the ranges. clEndRecordingQCOM closes the recording.
// clEnqueueRecordingMLOpQCOM / clEnqueueRecordingQCOM replay the dispatches (kernels and ops
// indexed together, in enqueue order) on a normal queue; kernel-argument, SVM-argument, exec-info
// and range updates apply to a fresh clone of the captured kernel, tensor-memory updates to the
// op's bindings, all for that replay only.
#include "recording.h"

#include <array>
#include <atomic>
#include <map>

#include "api_guard.h"
#include "descriptor_set.h"
#include "handle_registry.h"

namespace tessera::clml {

namespace {

// One dispatch: an ML op with its tensor memory, or a client kernel with its ranges.
struct RecordedDispatch {
  OpPtr op;  // set for ML ops
  std::vector<cl_mem> memories;
  std::vector<cl::Buffer> retained;  // keeps the captured memory alive
  cl::Kernel kernel;                 // set for client kernels: a clone taken at capture
  cl_uint work_dim = 0;
  std::array<size_t, 3> offset{}, global{}, local{};
  bool has_local = false;
};

class Recording {
 public:
  cl::Context context;
  cl_command_queue queue = nullptr;
  bool ended = false;
  std::atomic<int> references{1};
  std::mutex mutex;
  std::vector<RecordedDispatch> ops;
};

using RecordingPtr = std::shared_ptr<Recording>;

struct OpenRecordings {
  std::mutex mutex;
  std::map<cl_command_queue, RecordingPtr> by_queue;
};

OpenRecordings& open_recordings() {
  static auto* instance = new OpenRecordings();  // never destroyed: see handle_registry.h
  return *instance;
}

RecordingPtr open_on(cl_command_queue queue) {
  OpenRecordings& open = open_recordings();
  std::lock_guard<std::mutex> lock(open.mutex);
  auto it = open.by_queue.find(queue);
  return it == open.by_queue.end() ? nullptr : it->second;
}

RecordingPtr find_recording(cl_recording_qcom handle) {
  return HandleRegistry<Recording>::instance().find(handle);
}

cl_int check_dispatch_updates(size_t count, const cl_workgroup_qcom* array, size_t dispatches, cl_int null_error) {
  if (count > 0 && array == nullptr) return CL_INVALID_VALUE;
  for (size_t i = 0; i < count; ++i) {
    if (array[i].dispatch_index >= dispatches) return CL_INVALID_KERNEL_ARGS;
    if (array[i].workgroup_size == nullptr) return null_error;
  }
  return CL_SUCCESS;
}

cl_int enqueue_recording(cl_command_queue queue, cl_recording_qcom handle, size_t num_args,
                         const cl_array_arg_qcom* args, size_t num_op_args, const cl_ml_op_array_arg_qcom* op_args,
                         size_t num_svm_args, const cl_array_arg_qcom* svm_args, size_t num_offsets,
                         const cl_offset_qcom* offsets, size_t num_global, const cl_workgroup_qcom* global,
                         size_t num_local, const cl_workgroup_qcom* local, size_t num_non_arg,
                         const cl_array_kernel_exec_info_qcom* non_arg, cl_uint num_events, const cl_event* events,
                         cl_event* event) {
  if (cl_int err = validate_queue(queue); err != CL_SUCCESS) return err;
  if (queue_is_recording(queue)) return CL_INVALID_COMMAND_QUEUE;  // must not be a recordable queue
  RecordingPtr rec = find_recording(handle);
  if (!rec) return CL_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(rec->mutex);
  if (!rec->ended || rec->ops.empty()) return CL_INVALID_OPERATION;
  if (queue_context(queue) != rec->context()) return CL_INVALID_CONTEXT;
  if (cl_int err = validate_wait_list(num_events, events); err != CL_SUCCESS) return err;
  const size_t dispatches = rec->ops.size();
  if (num_op_args > 0 && op_args == nullptr) return CL_INVALID_VALUE;
  for (auto [count, array] : {std::pair{num_args, args}, std::pair{num_svm_args, svm_args}}) {
    if (count > 0 && array == nullptr) return CL_INVALID_VALUE;
    for (size_t i = 0; i < count; ++i) {
      if (array[i].dispatch_index >= dispatches) return CL_INVALID_KERNEL_ARGS;
      if (rec->ops[array[i].dispatch_index].op) return CL_INVALID_ARG_INDEX;  // an ML op has no kernel arguments
    }
  }
  if (num_offsets > 0 && offsets == nullptr) return CL_INVALID_VALUE;
  for (size_t i = 0; i < num_offsets; ++i)
    if (offsets[i].dispatch_index >= dispatches) return CL_INVALID_KERNEL_ARGS;
  if (cl_int err = check_dispatch_updates(num_global, global, dispatches, CL_INVALID_GLOBAL_WORK_SIZE);
      err != CL_SUCCESS)
    return err;
  if (cl_int err = check_dispatch_updates(num_local, local, dispatches, CL_INVALID_WORK_GROUP_SIZE); err != CL_SUCCESS)
    return err;
  if (num_non_arg > 0 && non_arg == nullptr) return CL_INVALID_VALUE;
  for (size_t i = 0; i < num_non_arg; ++i)
    if (non_arg[i].dispatch_index >= dispatches) return CL_INVALID_KERNEL_ARGS;

  // This replay's view of every dispatch, with the updates applied (the recording is unchanged).
  std::vector<RecordedDispatch> plan;
  plan.reserve(dispatches);
  for (const RecordedDispatch& r : rec->ops)
    plan.push_back(
        RecordedDispatch{r.op, r.memories, {}, r.kernel, r.work_dim, r.offset, r.global, r.local, r.has_local});
  // Kernels whose arguments change run as a fresh clone of the captured one.
  auto own_kernel = [&](size_t index, std::vector<bool>& cloned) -> cl_int {
    if (cloned[index]) return CL_SUCCESS;
    cl_int err = CL_SUCCESS;
    cl_kernel clone = clCloneKernel(rec->ops[index].kernel(), &err);
    if (err != CL_SUCCESS) return err;
    plan[index].kernel = cl::Kernel(clone);
    cloned[index] = true;
    return CL_SUCCESS;
  };
  std::vector<bool> cloned(dispatches, false);
  for (size_t i = 0; i < num_args; ++i) {
    const cl_array_arg_qcom& u = args[i];
    if (cl_int err = own_kernel(u.dispatch_index, cloned); err != CL_SUCCESS) return err;
    const cl_int err = clSetKernelArg(plan[u.dispatch_index].kernel(), u.arg_index, u.arg_size, u.arg_value);
    if (err != CL_SUCCESS) return err;
  }
  for (size_t i = 0; i < num_svm_args; ++i) {
    const cl_array_arg_qcom& u = svm_args[i];
    if (cl_int err = own_kernel(u.dispatch_index, cloned); err != CL_SUCCESS) return err;
    const cl_int err = clSetKernelArgSVMPointer(plan[u.dispatch_index].kernel(), u.arg_index, u.arg_value);
    if (err != CL_SUCCESS) return err;
  }
  for (size_t i = 0; i < num_non_arg; ++i) {
    const cl_array_kernel_exec_info_qcom& u = non_arg[i];
    if (rec->ops[u.dispatch_index].op) continue;  // nothing to apply to an ML op
    if (cl_int err = own_kernel(u.dispatch_index, cloned); err != CL_SUCCESS) return err;
    const cl_int err = clSetKernelExecInfo(plan[u.dispatch_index].kernel(), u.param_name, u.size, u.value);
    if (err != CL_SUCCESS) return err;
  }
  // Range updates apply to kernels; for ML ops (whose ranges are their own) they are ignored.
  for (size_t i = 0; i < num_offsets; ++i) {
    RecordedDispatch& d = plan[offsets[i].dispatch_index];
    for (int a = 0; a < 3; ++a) d.offset[a] = offsets[i].offsets[a];
  }
  for (size_t i = 0; i < num_global; ++i) {
    RecordedDispatch& d = plan[global[i].dispatch_index];
    for (cl_uint a = 0; a < d.work_dim; ++a) d.global[a] = global[i].workgroup_size[a];
  }
  for (size_t i = 0; i < num_local; ++i) {
    RecordedDispatch& d = plan[local[i].dispatch_index];
    for (cl_uint a = 0; a < d.work_dim; ++a) d.local[a] = local[i].workgroup_size[a];
    d.has_local = !d.op;
  }
  for (size_t i = 0; i < num_op_args; ++i) {
    const cl_ml_op_array_arg_qcom& update = op_args[i];
    if (update.dispatch_index >= dispatches) return CL_INVALID_KERNEL_ARGS;
    if (update.num_tensors > 0 && update.tensor_descriptors == nullptr) return CL_INVALID_VALUE;
    if (!rec->ops[update.dispatch_index].op) return CL_INVALID_VALUE;  // a kernel has no tensors
    const Op& op = *rec->ops[update.dispatch_index].op;
    for (cl_uint t = 0; t < update.num_tensors; ++t) {
      const cl_ml_tensor_memory_desc_qcom& desc = update.tensor_descriptors[t];
      bool found = false;
      for (size_t slot = 0; slot < op.tensors.size(); ++slot) {
        if (reinterpret_cast<const void*>(desc.tensor) != op.tensors[slot].get()) continue;
        if (validate_buffer(desc.memory, op.infos[slot].bytes(), op.context()) != CL_SUCCESS) return CL_INVALID_VALUE;
        plan[update.dispatch_index].memories[slot] = desc.memory;
        found = true;
      }
      if (!found) return CL_INVALID_VALUE;
    }
  }
  cl::CommandQueue q(queue, true);
  std::vector<cl::Event> wait = to_events(num_events, events);
  cl::Event done;
  for (size_t i = 0; i < dispatches; ++i) {
    const bool first = i == 0, last = i + 1 == dispatches;
    const std::vector<cl::Event>* wait_ptr = first && !wait.empty() ? &wait : nullptr;
    cl::Event* done_ptr = last && event != nullptr ? &done : nullptr;
    const RecordedDispatch& d = plan[i];
    if (d.op) {
      d.op->run(q, d.memories, wait_ptr, done_ptr);
      continue;
    }
    std::vector<cl_event> raw_wait;
    if (wait_ptr)
      for (const cl::Event& e : *wait_ptr) raw_wait.push_back(e());
    cl_event raw_done = nullptr;
    const cl_int err =
        clEnqueueNDRangeKernel(queue, d.kernel(), d.work_dim, d.offset.data(), d.global.data(),
                               d.has_local ? d.local.data() : nullptr, static_cast<cl_uint>(raw_wait.size()),
                               raw_wait.empty() ? nullptr : raw_wait.data(), done_ptr ? &raw_done : nullptr);
    if (err != CL_SUCCESS) return err;
    if (done_ptr) done = cl::Event(raw_done);
  }
  hand_out(done, event);
  return CL_SUCCESS;
}

}  // namespace

bool queue_is_recording(cl_command_queue queue) {
  return open_on(queue) != nullptr;
}

bool capture_op(cl_command_queue queue, const OpPtr& op, const std::vector<cl_mem>& memories) {
  RecordingPtr rec = open_on(queue);
  if (!rec) return false;
  RecordedDispatch entry{op, memories, {}, {}, 0, {}, {}, {}, false};
  for (cl_mem m : memories) entry.retained.emplace_back(m, true);
  std::lock_guard<std::mutex> lock(rec->mutex);
  rec->ops.push_back(std::move(entry));
  return true;
}

cl_int capture_kernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim, const size_t* offset,
                      const size_t* global, const size_t* local, cl_uint num_events, const cl_event* events,
                      cl_event* event, cl_bool* captured) {
  *captured = CL_FALSE;
  if (library_call_depth > 0) return CL_SUCCESS;  // the library's own kernels run as they are
  RecordingPtr rec = open_on(queue);
  if (!rec) return CL_SUCCESS;
  *captured = CL_TRUE;
  return guarded([&]() -> cl_int {
    // As for ML ops on a recordable queue: no wait list, no event.
    if (num_events != 0 || events != nullptr) return CL_INVALID_EVENT_WAIT_LIST;
    if (event != nullptr) return CL_INVALID_VALUE;
    if (kernel == nullptr) return CL_INVALID_KERNEL;
    if (work_dim < 1 || work_dim > 3) return CL_INVALID_WORK_DIMENSION;
    if (global == nullptr) return CL_INVALID_GLOBAL_WORK_SIZE;
    for (cl_uint a = 0; a < work_dim; ++a)
      if (global[a] == 0) return CL_INVALID_GLOBAL_WORK_SIZE;
    cl_int err = CL_SUCCESS;
    cl_kernel clone = clCloneKernel(kernel, &err);
    if (err != CL_SUCCESS) return err;
    RecordedDispatch entry;
    entry.kernel = cl::Kernel(clone);
    entry.work_dim = work_dim;
    for (cl_uint a = 0; a < work_dim; ++a) {
      entry.offset[a] = offset ? offset[a] : 0;
      entry.global[a] = global[a];
      entry.local[a] = local ? local[a] : 0;
    }
    entry.has_local = local != nullptr;
    std::lock_guard<std::mutex> lock(rec->mutex);
    rec->ops.push_back(std::move(entry));
    return CL_SUCCESS;
  });
}

cl_recording_qcom api_new_recording(cl_command_queue queue, cl_int* errcode) {
  cl_recording_qcom result = nullptr;
  cl_int err = guarded([&]() -> cl_int {
    if (cl_int e = validate_queue(queue); e != CL_SUCCESS) return e;
    OpenRecordings& open = open_recordings();
    std::lock_guard<std::mutex> lock(open.mutex);
    if (open.by_queue.count(queue)) return CL_INVALID_OPERATION;  // one open recording per queue
    auto rec = std::make_shared<Recording>();
    rec->context = cl::Context(queue_context(queue), true);
    rec->queue = queue;
    open.by_queue[queue] = rec;
    result = HandleRegistry<Recording>::instance().add<cl_recording_qcom>(rec);
    return CL_SUCCESS;
  });
  if (errcode != nullptr) *errcode = err;
  return err == CL_SUCCESS ? result : nullptr;
}

cl_int api_end_recording(cl_recording_qcom handle) {
  return guarded([&]() -> cl_int {
    RecordingPtr rec = find_recording(handle);
    if (!rec) return CL_INVALID_VALUE;
    OpenRecordings& open = open_recordings();
    std::lock_guard<std::mutex> lock(open.mutex);
    if (rec->ended) return CL_INVALID_OPERATION;
    open.by_queue.erase(rec->queue);
    rec->ended = true;
    return CL_SUCCESS;
  });
}

cl_int api_retain_recording(cl_recording_qcom handle) {
  return guarded([&]() -> cl_int {
    RecordingPtr rec = find_recording(handle);
    if (!rec) return CL_INVALID_VALUE;
    ++rec->references;
    return CL_SUCCESS;
  });
}

cl_int api_release_recording(cl_recording_qcom handle) {
  return guarded([&]() -> cl_int {
    RecordingPtr rec = find_recording(handle);
    if (!rec) return CL_INVALID_VALUE;
    if (--rec->references == 0) {
      {
        OpenRecordings& open = open_recordings();
        std::lock_guard<std::mutex> lock(open.mutex);
        auto it = open.by_queue.find(rec->queue);
        if (it != open.by_queue.end() && it->second == rec) open.by_queue.erase(it);
      }
      HandleRegistry<Recording>::instance().remove(handle);
    }
    return CL_SUCCESS;
  });
}

cl_int api_enqueue_recording_op(cl_command_queue queue, cl_recording_qcom recording, size_t num_args,
                                const cl_array_arg_qcom* args, size_t num_op_args,
                                const cl_ml_op_array_arg_qcom* op_args, size_t num_svm_args,
                                const cl_array_arg_qcom* svm_args, size_t num_offsets, const cl_offset_qcom* offsets,
                                size_t num_global, const cl_workgroup_qcom* global, size_t num_local,
                                const cl_workgroup_qcom* local, size_t num_non_arg,
                                const cl_array_kernel_exec_info_qcom* non_arg, cl_uint num_events,
                                const cl_event* events, cl_event* event) {
  return guarded([&] {
    return enqueue_recording(queue, recording, num_args, args, num_op_args, op_args, num_svm_args, svm_args,
                             num_offsets, offsets, num_global, global, num_local, local, num_non_arg, non_arg,
                             num_events, events, event);
  });
}

}  // namespace tessera::clml
