// descriptor_set.cpp -- descriptor set objects and their API entry points.
#include "descriptor_set.h"

#include "api_guard.h"
#include "handle_registry.h"

namespace tessera::clml {

void DescriptorSet::update(const cl_ml_tensor_memory_desc_qcom* descs, uint32_t count) {
  std::lock_guard<std::mutex> lock(mutex_);
  descriptors_.assign(descs, descs + count);
}

cl_int DescriptorSet::resolve(const Op& op, std::vector<cl_mem>& memories) const {
  std::lock_guard<std::mutex> lock(mutex_);
  memories.assign(op.tensors.size(), nullptr);
  for (size_t slot = 0; slot < op.tensors.size(); ++slot) {
    const void* wanted = op.tensors[slot].get();
    for (const auto& d : descriptors_) {
      if (reinterpret_cast<const void*>(d.tensor) == wanted) {
        memories[slot] = d.memory;
        break;
      }
    }
    if (memories[slot] == nullptr) return CL_INVALID_VALUE;
    if (validate_buffer(memories[slot], op.infos[slot].bytes(), op.context()) != CL_SUCCESS) return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

DescriptorSetPtr find_descriptor_set(cl_ml_tensor_mem_desc_set_qcom handle) {
  return HandleRegistry<DescriptorSet>::instance().find(handle);
}

std::vector<cl::Event> to_events(cl_uint count, const cl_event* events) {
  std::vector<cl::Event> out;
  out.reserve(count);
  for (cl_uint i = 0; i < count; ++i) out.emplace_back(events[i], true);
  return out;
}

void hand_out(const cl::Event& event, cl_event* out) {
  if (out == nullptr) return;
  clRetainEvent(event());
  *out = event();
}

cl_int api_create_descriptor_set(cl_ml_tensor_mem_desc_set_qcom* out) {
  return guarded([&]() -> cl_int {
    if (out == nullptr) return CL_INVALID_VALUE;
    *out = HandleRegistry<DescriptorSet>::instance().add<cl_ml_tensor_mem_desc_set_qcom>(
        std::make_shared<DescriptorSet>());
    return CL_SUCCESS;
  });
}

cl_int api_update_descriptor_set(cl_ml_tensor_mem_desc_set_qcom handle, uint32_t count,
                                 cl_ml_tensor_memory_desc_qcom* descs) {
  return guarded([&]() -> cl_int {
    DescriptorSetPtr set = find_descriptor_set(handle);
    if (!set || (count > 0 && descs == nullptr)) return CL_INVALID_VALUE;
    for (uint32_t i = 0; i < count; ++i) {
      TensorPtr tensor = find_tensor(descs[i].tensor);
      if (!tensor) return CL_INVALID_VALUE;
    }
    set->update(descs, count);
    return CL_SUCCESS;
  });
}

cl_int api_release_descriptor_set(cl_ml_tensor_mem_desc_set_qcom handle) {
  return guarded([&]() -> cl_int {
    return HandleRegistry<DescriptorSet>::instance().remove(handle) ? CL_SUCCESS : CL_INVALID_VALUE;
  });
}

}  // namespace tessera::clml
