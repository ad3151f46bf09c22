// runtime_state.h -- what a Runtime shares with the Layers it creates: the OpenCL objects, the
// loaded bindings (stable addresses) and the compiled-program cache.
#pragma once

#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "myriad/runtime.h"

namespace myriad {

struct Runtime::State {
    cl::Context context;
    cl::Device device;
    cl::CommandQueue queue;
    bool has_fp16 = false;
    bool nv_compiler_options = false;  ///< cl_nv_compiler_options: -cl-nv-maxrregcount exists
    bool force_promotion = false;
    bool keep_half_buffers = true;
    bool dma_direct = false;                  ///< Runtime::set_dma_direct
    bool dma_host_geometry = true;            ///< Runtime::set_dma_host_geometry
    std::deque<CustomLayer> user_layers;      ///< searched first, in load order
    std::deque<CustomLayer> standard_layers;  ///< the shipped ones, searched last
    std::mutex programs_mutex;
    std::map<std::string, cl::Program> programs;  ///< by full source text
    std::set<std::string> failed_programs;        ///< sources try_program could not build

    /// The build options of a program: on NVIDIA's driver a kernel fused with its DMA
    /// companions is capped at 32 registers, so that a full SM's 2048 work items stay resident
    /// (the fused GRN of bench_myriad used 48 and ran 1.24x the plain kernel's time on an H100,
    /// capped with sixteen loads in flight 1.15x); otherwise none.
    std::string build_options(const std::string& source) const;
    /// Builds (or reuses) a program; build failures name the layer and kernel.
    cl::Program program(const std::string& source, const std::string& layer,
                        const std::string& entry);
    /// Builds (or reuses) a program; nullopt when it does not build.
    std::optional<cl::Program> try_program(const std::string& source);
    /// The kernel that converts a tensor between dtypes and memory orders.
    cl::Kernel converter(DType from, DType to);
};

}  // namespace myriad
