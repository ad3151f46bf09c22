// program_cache.h -- builds each OpenCL C kernel program once per (context, source, options) and
// describes the compute configuration (storage type, fp16 compute) that programs are built for.
#pragma once

#include <string>

#include "cl_config.h"

namespace tessera::clml {

// Storage/compute configuration of one kernel program build.
struct KernelConfig {
  cl_channel_type dtype = CL_FLOAT;  // storage type of the op's tensors
  cl_arithmetic_mode_qcom mode = CL_ARITHMETIC_MODE_FP32_QCOM;
  std::string extra;  // extra -D options (tile sizes, variants)
};

// The first device of a context (where ops run; programs are built for all its devices).
cl::Device context_device(const cl::Context& context);
bool device_has_fp16(const cl::Device& device);

// Build options for a configuration on a device: storage type, whether arithmetic is carried out
// in half (only FP16 mode on devices with cl_khr_fp16) and the accumulator type.
std::string build_options(const KernelConfig& config, const cl::Device& device);

// Returns the built program; `name` identifies the source text (stable across calls).
cl::Program get_program(const cl::Context& context, const char* name, const char* source, const std::string& options);

// Common OpenCL C helpers prepended to every program: typed load/store, activation functions.
extern const char* const kKernelPrelude;

}  // namespace tessera::clml
