// descriptor_set.h -- tensor memory descriptor sets: which cl_mem backs which tensor for an enqueue.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "op.h"

namespace tessera::clml {

class DescriptorSet {
 public:
  void update(const cl_ml_tensor_memory_desc_qcom* descs, uint32_t count);
  // The memory for every slot of `op`, validated; CL_INVALID_VALUE when one is missing or bad.
  cl_int resolve(const Op& op, std::vector<cl_mem>& memories) const;

 private:
  mutable std::mutex mutex_;
  std::vector<cl_ml_tensor_memory_desc_qcom> descriptors_;
};

using DescriptorSetPtr = std::shared_ptr<DescriptorSet>;
DescriptorSetPtr find_descriptor_set(cl_ml_tensor_mem_desc_set_qcom handle);

// Converts a client wait list (already validated) to retained CLHPP events.
std::vector<cl::Event> to_events(cl_uint count, const cl_event* events);
// Hands a CLHPP event to the client (retained once for the client).
void hand_out(const cl::Event& event, cl_event* out);

}  // namespace tessera::clml
