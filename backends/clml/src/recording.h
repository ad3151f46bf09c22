// recording.h -- emulation of cl_qcom_recordable_queues for ML ops: capture of enqueued ops
// while a recording is open on a queue, and replay with argument updates.
#pragma once

#include <vector>

#include "op.h"

namespace tessera::clml {

// True when a recording is open on `queue` (the queue then counts as recordable).
bool queue_is_recording(cl_command_queue queue);
// Appends an op dispatch to the recording open on `queue`; false when none is open.
bool capture_op(cl_command_queue queue, const OpPtr& op, const std::vector<cl_mem>& memories);

}  // namespace tessera::clml
