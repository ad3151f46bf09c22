// layer_plan.h -- binding a CustomLayer to one concrete layer (parameters, shapes, layouts):
// every kernel argument resolved and every size evaluated, without touching the device. The
// binding choice tries this on each candidate.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "kernel_source.h"
#include "myriad/runtime.h"

namespace myriad {

enum class ArgKind { input, output, input_buffer, output_buffer, blob, local, scalar };

struct ArgPlan {
    ArgKind kind = ArgKind::scalar;
    KernelArg decl;  ///< the argument as the kernel declares it
    int index = 0;   ///< port or buffer id
    Layout format = Layout::BFYX;
    std::string blob;  ///< blob name (kind blob)
    std::size_t local_bytes = 0;
    ExprValue scalar;  ///< kind scalar
    bool scalar_is_float = false;
};

struct StagePlan {
    const KernelStage* stage = nullptr;
    std::vector<ArgPlan> args;  ///< in kernel signature order
    std::array<std::size_t, 3> global{1, 1, 1};
    std::array<std::size_t, 3> local{1, 1, 1};
    bool has_local = false;
};

struct LayerPlan {
    const CustomLayer* binding = nullptr;
    std::vector<StagePlan> stages;
    std::map<int, std::size_t> buffer_bytes;  ///< input_buffer/output_buffer id -> bytes
    bool layouts_match = true;  ///< every input Tensor's format matches the actual layout
};

/// DType of a kernel element type name ("half", "float", "uchar", ...); throws for others.
DType dtype_of(const std::string& scalar_type, const std::string& layer, const std::string& arg);

/// Same memory order (channel-major BFYX/FYX/BF vs channels-last BYXF/YXF); ANY matches all.
bool same_memory_order(Layout a, Layout b);

/// Resolves `binding` for `spec`; throws tessera::error (naming the layer and argument) when the
/// binding cannot serve it.
LayerPlan plan_layer(const CustomLayer& binding, const LayerSpec& spec);

}  // namespace myriad
