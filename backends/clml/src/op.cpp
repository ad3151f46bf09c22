// op.cpp -- Op execution, OpBuilder (shared creation logic), property parsing, op release.
#include "op.h"

#include <cstdlib>
#include <cstring>

#include "api_guard.h"
#include "copy_kernels.h"
#include "handle_registry.h"
#include "tuning_cache.h"

namespace tessera::clml {

std::string Op::tuning_key(size_t dispatch) const {
  return device.getInfo<CL_DEVICE_NAME>() + "|" + signature + "#" + std::to_string(dispatch);
}

void Op::run(const cl::CommandQueue& queue, const std::vector<cl_mem>& memories, const std::vector<cl::Event>* wait,
             cl::Event* done) {
  std::lock_guard<std::mutex> lock(mutex);
  for (size_t i = 0; i < dispatches.size(); ++i) {
    KernelDispatch& d = dispatches[i];
    for (const auto& [index, slot] : d.tensor_args) {
      cl_mem memory = memories.at(slot);
      cl_int err = clSetKernelArg(d.kernel(), index, sizeof(cl_mem), &memory);
      if (err != CL_SUCCESS) throw cl::Error(err, "clSetKernelArg");
    }
    const bool first = i == 0;
    const bool last = i + 1 == dispatches.size();
    queue.enqueueNDRangeKernel(d.kernel, cl::NullRange, d.global, d.local, first ? wait : nullptr,
                               last ? done : nullptr);
  }
}

OpPtr find_op(cl_ml_op_qcom handle) {
  return HandleRegistry<Op>::instance().find(handle);
}

cl_int parse_op_properties(const cl_ml_op_properties_qcom* list, OpProperties& out) {
  if (list == nullptr) return CL_SUCCESS;
  for (int i = 0; list[i] != 0; i += 2) {
    if (i > 64) return CL_INVALID_VALUE;  // unterminated list
    const intptr_t value = list[i + 1];
    switch (list[i]) {
    case CL_ML_OP_REQUIRE_TUNING_CACHE_HIT_QCOM: out.require_tuning_cache_hit = value != 0; break;
    case CL_ML_OP_TRAINING_COMPATIBLE_QCOM: break;
    case CL_ML_OP_BINARY_OP_UPDATE_PARAMETERS_QCOM: break;
    case CL_ML_OP_BATCH_NORM_OP_EPSILON_QCOM: {
      uint32_t bits = static_cast<uint32_t>(value);
      std::memcpy(&out.batchnorm_epsilon, &bits, sizeof(float));
      break;
    }
    case CL_ML_OP_PAD_OP_CONSTANT_VALUE_QCOM: {
      uint32_t bits = static_cast<uint32_t>(value);
      std::memcpy(&out.pad_constant, &bits, sizeof(float));
      break;
    }
    default: return CL_INVALID_VALUE;
    }
  }
  return CL_SUCCESS;
}

bool ml_value_to_float(const cl_ml_value_qcom& value, float& out) {
  switch (value.type) {
  case 0:  // zero-initialised descriptors that only set fp32
  case CL_FLOAT: out = value.fp32; return true;
  case CL_HALF_FLOAT: {
    const uint16_t h = value.fp16;
    const uint32_t sign = (h & 0x8000u) << 16;
    const int exponent = (h >> 10) & 0x1f;
    uint32_t mantissa = h & 0x3ffu;
    uint32_t bits;
    if (exponent == 0x1f) {
      bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent == 0) {
      if (mantissa == 0) {
        bits = sign;
      } else {
        int e = -1;
        do {
          ++e;
          mantissa <<= 1;
        } while ((mantissa & 0x400u) == 0);
        bits = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | ((mantissa & 0x3ffu) << 13);
      }
    } else {
      bits = sign | static_cast<uint32_t>(exponent - 15 + 127) << 23 | (mantissa << 13);
    }
    std::memcpy(&out, &bits, sizeof(float));
    return true;
  }
  case CL_SIGNED_INT32:
  case CL_SIGNED_INT8: out = static_cast<float>(value.int32); return true;
  default: return false;
  }
}

bool is_valid_arithmetic_mode(cl_arithmetic_mode_qcom mode) {
  return mode >= CL_ARITHMETIC_MODE_FP16_QCOM && mode <= CL_ARITHMETIC_MODE_INT32_QCOM;
}

bool is_valid_op_dimensions(cl_uint num_dimensions, bool five_d) {
  if (num_dimensions == 0) return true;
  if (five_d) return num_dimensions == CL_TENSOR_DIMENSIONS_5D_QCOM || num_dimensions == 3 || num_dimensions == 5;
  return num_dimensions == 2 || num_dimensions == 4;
}

bool is_valid_activation(const cl_ml_op_activation_desc_qcom& desc) {
  return desc.function >= CL_ACTIVATION_RELU && desc.function <= CL_ACTIVATION_LEAKY_RELU &&
         (desc.nan_propagation == CL_DO_NOT_PROPAGATE_NAN_QCOM || desc.nan_propagation == CL_PROPAGATE_NAN_QCOM) &&
         is_valid_arithmetic_mode(desc.arithmetic_mode);
}

bool vector_layout(const TensorInfo& info, int64_t& count, int& stride) {
  count = info.elements();
  stride = 1;
  int non_unit = 0;
  for (int a = 0; a < 5; ++a) {
    if (info.shape[a] > 1) {
      ++non_unit;
      stride = static_cast<int>(info.strides[a]);
    }
  }
  return non_unit <= 1;
}

cl_int8 shape_arg(const TensorInfo& info) {
  cl_int8 v{};
  for (int a = 0; a < 5; ++a) v.s[a] = static_cast<cl_int>(info.shape[a]);
  return v;
}

cl_int8 strides_arg(const TensorInfo& info) {
  cl_int8 v{};
  for (int a = 0; a < 5; ++a) v.s[a] = static_cast<cl_int>(info.strides[a]);
  return v;
}

bool optimal_forced_nchw() {
  static const bool forced = [] {
    const char* value = std::getenv("CLML_OPTIMAL_NCHW");
    return value != nullptr && value[0] == '1';
  }();
  return forced;
}

size_t round_up(size_t value, size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

std::vector<cl::NDRange> local_candidates_1d(size_t global) {
  std::vector<cl::NDRange> out{cl::NullRange};
  for (size_t local : {16, 32, 64, 128, 256})
    if (global % local == 0) out.emplace_back(local);
  return out;
}

// ------------------------------------------------------------------ OpBuilder

cl_int OpBuilder::begin(cl_context context, const cl_ml_op_properties_qcom* properties, const void* desc,
                        cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  if (cl_int err = validate_context(context); err != CL_SUCCESS) return err;
  if (desc == nullptr || out == nullptr) return CL_INVALID_VALUE;
  if (cl_int err = parse_op_properties(properties, properties_); err != CL_SUCCESS) return err;
  if (cache != nullptr && !find_tuning_cache(cache)) return CL_INVALID_VALUE;
  raw_context_ = context;
  out_ = out;
  cache_ = cache;
  op_ = std::make_shared<Op>();
  op_->context = cl::Context(context, true);
  op_->device = context_device(op_->context);
  return CL_SUCCESS;
}

cl_int OpBuilder::require(cl_ml_tensor_qcom handle, TensorPtr& out) const {
  out = find_tensor(handle);
  if (!out || out->unused() || out->context() != raw_context_) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

cl_int OpBuilder::optional(cl_ml_tensor_qcom handle, TensorPtr& out) const {
  out.reset();
  if (handle == nullptr) return CL_SUCCESS;
  TensorPtr tensor = find_tensor(handle);
  if (!tensor || tensor->context() != raw_context_) return CL_INVALID_VALUE;
  if (!tensor->unused()) out = std::move(tensor);
  return CL_SUCCESS;
}

cl_int OpBuilder::same_dtype(std::initializer_list<const TensorPtr*> tensors, cl_channel_type& dtype) const {
  bool first = true;
  for (const TensorPtr* t : tensors) {
    if (!*t) continue;
    const cl_channel_type d = (*t)->logical().dtype;
    if (first)
      dtype = d;
    else if (d != dtype)
      return CL_ML_OP_NOT_ACCELERATED_QCOM;
    first = false;
  }
  return CL_SUCCESS;
}

int OpBuilder::add(const TensorPtr& tensor, cl_tensor_layout_qcom preferred) {
  if (!tensor) return -1;
  op_->tensors.push_back(tensor);
  op_->infos.push_back(tensor->finalize(preferred));
  return static_cast<int>(op_->tensors.size()) - 1;
}

int OpBuilder::add_strided(const TensorPtr& tensor, const Shape5& strides, cl_tensor_layout_qcom tag) {
  if (!tensor) return -1;
  op_->tensors.push_back(tensor);
  op_->infos.push_back(tensor->finalize_strided(strides, tag));
  return static_cast<int>(op_->tensors.size()) - 1;
}

cl_tensor_layout_qcom OpBuilder::follow_layout(const TensorInfo& input) {
  return input.layout == CL_TENSOR_LAYOUT_NHWC_QCOM ? CL_TENSOR_LAYOUT_NHWC_QCOM : CL_TENSOR_LAYOUT_NCHW_QCOM;
}

cl::Kernel OpBuilder::kernel(const char* program_name, const char* source, const char* kernel_name,
                             const KernelConfig& config) {
  cl::Program program = get_program(op_->context, program_name, source, build_options(config, op_->device));
  return cl::Kernel(program, kernel_name);
}

void OpBuilder::bind(KernelDispatch& dispatch, cl_uint index, int slot) {
  if (slot >= 0) {
    dispatch.tensor_args.emplace_back(index, slot);
    return;
  }
  if (op_->owned_buffers.empty()) op_->owned_buffers.emplace_back(op_->context, CL_MEM_READ_WRITE, 64);
  dispatch.kernel.setArg(index, op_->owned_buffers.front());
}

cl::Buffer OpBuilder::add_repack(int slot, const Shape5& strides) {
  const TensorInfo& src = info(slot);
  TensorInfo dst = src;
  dst.strides = strides;
  cl::Buffer scratch(op_->context, CL_MEM_READ_WRITE, dst.bytes());
  op_->owned_buffers.push_back(scratch);
  KernelDispatch d;
  d.kernel = kernel("copy", kCopyKernelSource, "copy_rows", copy_config(src.dtype, src.dtype));
  bind(d, 0, slot);
  d.kernel.setArg(1, 0);
  d.kernel.setArg(2, strides_arg(src));
  d.kernel.setArg(3, scratch);
  d.kernel.setArg(4, 0);
  d.kernel.setArg(5, strides_arg(dst));
  d.kernel.setArg(6, shape_arg(src));
  d.global = rows_range(src.shape);
  add_dispatch(std::move(d));
  return scratch;
}

cl_int OpBuilder::finish(const std::string& signature) {
  op_->signature = signature;
  if (TuningCachePtr cache = find_tuning_cache(cache_)) {
    for (size_t i = 0; i < op_->dispatches.size(); ++i) {
      KernelDispatch& d = op_->dispatches[i];
      if (d.local_candidates.size() <= 1) continue;
      auto local = cache->lookup(op_->tuning_key(i));
      // An entry this kernel cannot run with (a hostile or stale cache) counts as a miss.
      if (local && !local_size_usable(*local, d.global, d.kernel, op_->device)) local.reset();
      if (!local) {
        if (properties_.require_tuning_cache_hit) return CL_INVALID_VALUE;
        continue;
      }
      if (local->empty())
        d.local = cl::NullRange;
      else if (local->size() == 1)
        d.local = cl::NDRange((*local)[0]);
      else if (local->size() == 2)
        d.local = cl::NDRange((*local)[0], (*local)[1]);
      else
        d.local = cl::NDRange((*local)[0], (*local)[1], (*local)[2]);
    }
  } else if (properties_.require_tuning_cache_hit) {
    return CL_INVALID_VALUE;
  }
  *out_ = HandleRegistry<Op>::instance().add<cl_ml_op_qcom>(op_);
  return CL_SUCCESS;
}

cl_int api_release_op(cl_ml_op_qcom handle) {
  return guarded(
      [&]() -> cl_int { return HandleRegistry<Op>::instance().remove(handle) ? CL_SUCCESS : CL_INVALID_VALUE; });
}

}  // namespace tessera::clml
