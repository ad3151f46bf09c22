// device_context.hpp: the OpenCL device a qcom-ml backend runs on (chosen by index over all
// devices of all platforms), its context and its queues, plus the device list for devices().
#pragma once

#include <CL/cl_qcom_ml_ops.h>

#include <mutex>
#include <string>
#include <vector>

#include "handles.hpp"

namespace tessera::plugins::qcom_ml {

/// One OpenCL device as devices() reports it.
struct device_entry {
    cl_platform_id platform = nullptr;
    cl_device_id id = nullptr;
    std::string name;
    std::string kind;     ///< "gpu", "cpu" or "accelerator"
    std::string details;  ///< platform, driver, extensions of interest
    bool has_fp16 = false;
    bool has_recordable_queues = false;
};

/// Every OpenCL device of every platform, in platform order.
std::vector<device_entry> list_devices();

class device_context {
  public:
    /// Opens device `index` of list_devices(); throws not_found when there is no such device.
    explicit device_context(int index);

    cl_context context() const { return context_.get(); }
    cl_command_queue queue() const { return queue_.get(); }
    /// The queue recordings are made on (CL_QUEUE_RECORDABLE_QCOM where the device lists
    /// cl_qcom_recordable_queues); replays go to queue().
    cl_command_queue record_queue() const { return record_queue_.get(); }
    const device_entry& device() const { return device_; }
    /// Serialises command sequences on the queues (one backend may serve several graphs).
    std::mutex& queue_mutex() const { return mutex_; }

  private:
    device_entry device_;
    context_handle context_;
    queue_handle queue_;
    queue_handle record_queue_;
    mutable std::mutex mutex_;
};

}  // namespace tessera::plugins::qcom_ml
