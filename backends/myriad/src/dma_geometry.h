// dma_geometry.h -- the DMA transactions' geometry evaluated on the host: what a layer knows of
// a stage's launch when it is created (work sizes, integer scalar arguments), the values of the
// transaction arguments computed from it, and those values written into the program as
// constants, so that the emulated copies compile to straight-line loads and stores.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "c_tokens.h"

namespace myriad {

/// What is fixed for every launch of one stage's kernel.
struct LaunchConstants {
    std::array<std::size_t, 3> global{1, 1, 1};
    std::optional<std::array<std::size_t, 3>> local;  ///< the WorkSizes' local size, where given
    /// Per kernel parameter (signature order): its value where it is an integer scalar argument.
    std::vector<std::optional<std::int64_t>> integer_args;
};

/// In the definition of kernel `kernel` in `text` (comment-free, no preprocessor lines but
/// #pragma), every WorkGroupDmaCreateStrideTransaction / WorkGroupDmaCreate3DTransaction call
/// (also in the deferred form of fused companions) whose geometry arguments (all but the two
/// pointers and the event) the host can evaluate gets them as decimal literals. The host knows:
/// integer literals; parameters of known value (`launch.integer_args`, by position) that the
/// kernel never assigns, increments, addresses or redeclares; `const` integer locals of the
/// kernel's outermost block declared once with a known value (after their declaration); sizeof of
/// scalar and vector types (not size_t); get_local_size, get_global_size, get_num_groups,
/// get_global_offset of a known dimension and get_work_dim; casts to integer types that keep the
/// value; + - * / % << >> & | ^ and unary +; min, max, mul24, mad24. Every intermediate value must
/// lie in [0, 2^31), where int, uint, long and size_t arithmetic agree; anything else (floats,
/// other calls, work-item ids) leaves the call as it is. Returns how many calls were rewritten.
int fold_transaction_geometry(std::string& text, const std::string& kernel,
                              const LaunchConstants& launch);

/// The work-group size and linear local id the prelude's copies use: with a known local size,
/// constants and only the dimensions larger than one; otherwise the builtins' full forms.
struct WorkGroupShape {
    std::string size;       ///< a uint expression
    std::string linear_id;  ///< a uint expression
};
WorkGroupShape work_group_shape(const std::optional<std::array<std::size_t, 3>>& local);

/// Whether a (comment-free) source calls the work-group DMA transactions.
bool uses_dma_transactions(const std::string& stripped);

}  // namespace myriad
