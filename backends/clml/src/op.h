// op.h -- the ML op object (a list of kernel dispatches whose tensor arguments are bound at
// enqueue time) and OpBuilder, the helper every op family's creator uses.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cl_config.h"
#include "program_cache.h"
#include "tensor.h"

namespace tessera::clml {

class TuningCache;

struct KernelDispatch {
  cl::Kernel kernel;
  std::vector<std::pair<cl_uint, int>> tensor_args;  // (kernel argument index, op tensor slot)
  cl::NDRange global;
  cl::NDRange local;                          // cl::NullRange: implementation's choice
  std::vector<cl::NDRange> local_candidates;  // what tuning tries
};

class Op {
 public:
  cl::Context context;
  cl::Device device;
  std::string signature;           // identifies the op configuration for tuning
  std::vector<TensorPtr> tensors;  // slots; unused tensors are not stored
  std::vector<TensorInfo> infos;
  std::vector<KernelDispatch> dispatches;
  std::vector<cl::Buffer> owned_buffers;  // placeholders for absent optional tensors, scratch
  std::mutex mutex;                       // kernel arguments are set per enqueue

  std::string tuning_key(size_t dispatch) const;
  // Sets the tensor arguments from `memories` (one per slot) and enqueues every dispatch.
  void run(const cl::CommandQueue& queue, const std::vector<cl_mem>& memories, const std::vector<cl::Event>* wait,
           cl::Event* done);
};

using OpPtr = std::shared_ptr<Op>;
OpPtr find_op(cl_ml_op_qcom handle);

// Creation-time properties (zero-terminated intptr_t key/value list).
struct OpProperties {
  bool require_tuning_cache_hit = false;
  float batchnorm_epsilon = 1e-5f;
  float pad_constant = 0.0f;
};
cl_int parse_op_properties(const cl_ml_op_properties_qcom* list, OpProperties& out);

// Converts a cl_ml_value_qcom to float; false for an unknown type tag.
bool ml_value_to_float(const cl_ml_value_qcom& value, float& out);
bool is_valid_arithmetic_mode(cl_arithmetic_mode_qcom mode);
// The num_dimensions field of convolution and pooling descriptors ("reserved" in the spec): 0
// (unset) or a value that describes the tensors: for 4-D tensors 2 (spatial axes) or 4 (rank),
// for 5-D ones CL_TENSOR_DIMENSIONS_5D_QCOM, 3 or 5. Anything else is rejected.
bool is_valid_op_dimensions(cl_uint num_dimensions, bool five_d);
bool is_valid_activation(const cl_ml_op_activation_desc_qcom& desc);

// A per-channel parameter tensor: at most one axis larger than 1. Gives its element count and
// the element stride between consecutive values; false when it is not such a vector.
bool vector_layout(const TensorInfo& info, int64_t& count, int& stride);

cl_int8 shape_arg(const TensorInfo& info);
cl_int8 strides_arg(const TensorInfo& info);

// Builds one op: validation of the common arguments, tensors, kernels, dispatches, tuning.
class OpBuilder {
 public:
  // Checks context, descriptor presence and properties.
  cl_int begin(cl_context context, const cl_ml_op_properties_qcom* properties, const void* desc, cl_ml_op_qcom* out,
               cl_ml_tuningcache_qcom cache);
  // Looks up a required tensor (must be live, used, same context).
  cl_int require(cl_ml_tensor_qcom handle, TensorPtr& out) const;
  // Looks up an optional tensor: NULL or UNUSED gives an empty pointer.
  cl_int optional(cl_ml_tensor_qcom handle, TensorPtr& out) const;
  // All used tensors must share the storage type (returns it through dtype).
  cl_int same_dtype(std::initializer_list<const TensorPtr*> tensors, cl_channel_type& dtype) const;

  // Finalises a tensor and records it as a slot; returns the slot (-1 for an empty pointer).
  int add(const TensorPtr& tensor, cl_tensor_layout_qcom preferred = CL_TENSOR_LAYOUT_NCHW_QCOM);
  // As add(), finalising an OPTIMAL tensor to explicit strides.
  int add_strided(const TensorPtr& tensor, const Shape5& strides, cl_tensor_layout_qcom tag);
  // The layout an element-wise op gives its OPTIMAL outputs: that of its (finalised) input, so
  // the layout a convolution chose carries through the ops that follow it.
  static cl_tensor_layout_qcom follow_layout(const TensorInfo& input);
  const TensorInfo& info(int slot) const { return op_->infos.at(slot); }

  cl::Kernel kernel(const char* program_name, const char* source, const char* kernel_name, const KernelConfig& config);
  // Binds a slot's buffer to kernel argument `index` (a placeholder buffer when slot < 0).
  void bind(KernelDispatch& dispatch, cl_uint index, int slot);
  void add_dispatch(KernelDispatch dispatch) { op_->dispatches.push_back(std::move(dispatch)); }
  // Adds a dispatch copying a slot's tensor into an op-owned scratch buffer laid out with
  // `strides` (same shape and storage type) and returns that buffer: how an op whose kernel wants
  // another layout than a tensor already has (a linear client tensor, or an OPTIMAL one another
  // op finalised) reads it. Runs before the dispatches added after it.
  cl::Buffer add_repack(int slot, const Shape5& strides);

  Op& op() { return *op_; }
  const OpProperties& properties() const { return properties_; }
  const cl::Device& device() const { return op_->device; }
  // Applies the tuning cache, registers the op, returns its handle through `out`.
  cl_int finish(const std::string& signature);

 private:
  cl_context raw_context_ = nullptr;
  cl_ml_op_qcom* out_ = nullptr;
  cl_ml_tuningcache_qcom cache_ = nullptr;
  OpProperties properties_;
  std::shared_ptr<Op> op_;
};

// CLML_OPTIMAL_NCHW=1 in the environment: every op finalises OPTIMAL tensors as packed NCHW and
// uses its NCHW kernels (the layout before per-op choices; for comparisons and debugging).
bool optimal_forced_nchw();

// Default local sizes tried by tuning for a 1D/2D/3D range.
std::vector<cl::NDRange> local_candidates_1d(size_t global);
size_t round_up(size_t value, size_t multiple);

}  // namespace tessera::clml
