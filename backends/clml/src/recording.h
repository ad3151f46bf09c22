// recording.h -- emulation of cl_qcom_recordable_queues: capture of enqueued ML ops and (through
// the loader layer) client kernels while a recording is open on a queue, and replay with
// argument, range and tensor-memory updates.
#pragma once

#include <vector>

#include "op.h"

namespace tessera::clml {

// True when a recording is open on `queue` (the queue then counts as recordable).
bool queue_is_recording(cl_command_queue queue);
// Appends an op dispatch to the recording open on `queue`; false when none is open.
bool capture_op(cl_command_queue queue, const OpPtr& op, const std::vector<cl_mem>& memories);

// A client's clEnqueueNDRangeKernel as seen by the loader layer: when a recording is open on
// `queue` (and the call does not come from this library) the kernel is captured -- a clone with
// its current arguments, and the ranges -- and *captured is set; the result is the enqueue's
// status. Otherwise *captured is false and the layer forwards the call to the driver.
cl_int capture_kernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim, const size_t* offset,
                      const size_t* global, const size_t* local, cl_uint num_events, const cl_event* events,
                      cl_event* event, cl_bool* captured);

}  // namespace tessera::clml
