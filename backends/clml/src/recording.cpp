// recording.cpp -- cl_qcom_recordable_queues emulated for ML ops on any OpenCL device.
//
// clNewRecordingQCOM(queue) opens a recording on an in-order queue; while it is open, ML ops
// enqueued to that queue are captured (with their tensor memory) instead of run, and the queue
// counts as recordable (clEnqueueMLOpImmutableQCOM is accepted). clEndRecordingQCOM closes it.
// clEnqueueRecordingMLOpQCOM / clEnqueueRecordingQCOM replay the captured ops on a normal queue,
// optionally with replacement tensor memory per dispatch. Plain OpenCL kernels enqueued by the
// client are not captured (that would need a loader layer that intercepts clEnqueueNDRangeKernel),
// so kernel-argument updates always refer to ML-op dispatches and are rejected.
#include "recording.h"

#include <atomic>
#include <map>

#include "api_guard.h"
#include "descriptor_set.h"
#include "handle_registry.h"

namespace tessera::clml {

namespace {

struct RecordedOp {
  OpPtr op;
  std::vector<cl_mem> memories;
  std::vector<cl::Buffer> retained;  // keeps the captured memory alive
};

class Recording {
 public:
  cl::Context context;
  cl_command_queue queue = nullptr;
  bool ended = false;
  std::atomic<int> references{1};
  std::mutex mutex;
  std::vector<RecordedOp> ops;
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
  for (auto [count, array] : {std::pair{num_args, args}, std::pair{num_svm_args, svm_args}}) {
    if (count > 0 && array == nullptr) return CL_INVALID_VALUE;
    for (size_t i = 0; i < count; ++i) {
      if (array[i].dispatch_index >= dispatches) return CL_INVALID_KERNEL_ARGS;
      return CL_INVALID_ARG_INDEX;  // every dispatch is an ML op: no kernel arguments to update
    }
  }
  if (num_offsets > 0 && offsets == nullptr) return CL_INVALID_VALUE;
  for (size_t i = 0; i < num_offsets; ++i)
    if (offsets[i].dispatch_index >= dispatches) return CL_INVALID_KERNEL_ARGS;
  if (cl_int err = check_dispatch_updates(num_global, global, dispatches, CL_INVALID_GLOBAL_WORK_SIZE);
      err != CL_SUCCESS)
    return err;
  if (cl_int err = check_dispatch_updates(num_local, local, dispatches, CL_INVALID_WORK_GROUP_SIZE);
      err != CL_SUCCESS)
    return err;
  if (num_non_arg > 0 && non_arg == nullptr) return CL_INVALID_VALUE;
  for (size_t i = 0; i < num_non_arg; ++i)
    if (non_arg[i].dispatch_index >= dispatches) return CL_INVALID_KERNEL_ARGS;

  // Memory per dispatch, with the updates applied (visible to this replay only).
  std::vector<std::vector<cl_mem>> memories;
  for (const RecordedOp& r : rec->ops) memories.push_back(r.memories);
  if (num_op_args > 0 && op_args == nullptr) return CL_INVALID_VALUE;
  for (size_t i = 0; i < num_op_args; ++i) {
    const cl_ml_op_array_arg_qcom& update = op_args[i];
    if (update.dispatch_index >= dispatches) return CL_INVALID_KERNEL_ARGS;
    if (update.num_tensors > 0 && update.tensor_descriptors == nullptr) return CL_INVALID_VALUE;
    const Op& op = *rec->ops[update.dispatch_index].op;
    for (cl_uint t = 0; t < update.num_tensors; ++t) {
      const cl_ml_tensor_memory_desc_qcom& desc = update.tensor_descriptors[t];
      bool found = false;
      for (size_t slot = 0; slot < op.tensors.size(); ++slot) {
        if (reinterpret_cast<const void*>(desc.tensor) != op.tensors[slot].get()) continue;
        if (validate_buffer(desc.memory, op.infos[slot].bytes(), op.context()) != CL_SUCCESS)
          return CL_INVALID_VALUE;
        memories[update.dispatch_index][slot] = desc.memory;
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
    rec->ops[i].op->run(q, memories[i], first && !wait.empty() ? &wait : nullptr,
                        last && event != nullptr ? &done : nullptr);
  }
  hand_out(done, event);
  return CL_SUCCESS;
}

}  // namespace

bool queue_is_recording(cl_command_queue queue) { return open_on(queue) != nullptr; }

bool capture_op(cl_command_queue queue, const OpPtr& op, const std::vector<cl_mem>& memories) {
  RecordingPtr rec = open_on(queue);
  if (!rec) return false;
  RecordedOp entry{op, memories, {}};
  for (cl_mem m : memories) entry.retained.emplace_back(m, true);
  std::lock_guard<std::mutex> lock(rec->mutex);
  rec->ops.push_back(std::move(entry));
  return true;
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
