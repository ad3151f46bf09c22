// kernel_source.h -- reading and rewriting Myriad-style OpenCL C kernel sources: comment
// stripping, kernel signatures, half-to-float promotion, the prelude that implements the
// Myriad-only builtins, and fusion of __dma_preload_/__dma_postwrite_ companion kernels.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dma_geometry.h"

namespace myriad {

enum class AddressSpace { private_, global, local, constant };

/// One parameter of a kernel signature.
struct KernelArg {
    std::string name;
    std::string declaration;  ///< the parameter text as written
    AddressSpace space = AddressSpace::private_;
    bool is_pointer = false;
    std::string scalar_type;  ///< element type without vector width: half, float, uchar, int...
    int vector_width = 1;
};

struct KernelSignature {
    std::string name;
    std::vector<KernelArg> args;
    std::size_t name_pos = 0;  ///< offset of the kernel name in the text searched
};

/// The source with comments replaced by spaces (newlines kept, so line numbers stay right).
std::string strip_comments(const std::string& source);

/// The signature of `__kernel ... name(...)` in comment-free source, if present.
std::optional<KernelSignature> find_kernel(const std::string& stripped, const std::string& name);

/// True when the (comment-free) source uses the half type anywhere.
bool uses_half(const std::string& stripped);

/// Rewrites comment-free source so that half becomes float: scalar and vector types,
/// convert_half*, vload_half*/vstore_half* (and the aligned forms), the cl_khr_fp16 pragma.
/// half_* and native_* builtins already take float and stay as written.
std::string promote_half(const std::string& stripped);

/// OpenCL C definitions of the Myriad-only builtins (async_work_group_copy_2D2D/3D3D,
/// WorkGroupDmaCreateStrideTransaction, WorkGroupDmaCreate3DTransaction) for every element type,
/// half included when `native_half`; `promoted` adds the helpers promote_half's output uses.
/// `fused_companions` (the program fuses __dma_preload_/__dma_postwrite_ kernels): the row copies
/// keep sixteen loads in flight per work item instead of eight. `local`: the work-group size every
/// launch of the program uses, which the copies then take as constants.
std::string myriad_prelude(bool native_half, bool promoted, bool fused_companions = false,
                           const std::optional<std::array<std::size_t, 3>>& local = std::nullopt);

/// The name prefix of the body of a kernel fused with its DMA companions.
inline const char* const kFusedBodyPrefix = "__myriad_body_";

/// Whether a program text holds a kernel fused with its DMA companions.
bool has_fused_companions(const std::string& program);

/// When `__dma_preload_<entry>` and/or `__dma_postwrite_<entry>` exist, renames the entry kernel
/// and appends a kernel named `entry` that runs preload, body and postwrite in each work group
/// with the same arguments (and so the same __local buffers). Otherwise returns the text as is.
/// `direct`: where mirror_path (dma_mirror.h) proves the companions to be mirrors, the kernel
/// runs the body on the global regions instead in the work groups whose geometry allows it.
std::string fuse_dma_companions(const std::string& stripped, const std::string& entry,
                                bool direct = false);

/// The launch constants a program text may be specialized on: `launch` where the (comment-free)
/// source calls the work-group DMA transactions and has no preprocessor lines besides #pragma,
/// else none.
const LaunchConstants* dma_launch_constants(const std::string& stripped,
                                            const LaunchConstants* launch);

/// `fused` (fuse_dma_companions' output for `entry`) with the geometry of the transactions in
/// `entry`, its fused body and its companions folded to constants (fold_transaction_geometry).
std::string fold_dma_geometry(std::string fused, const std::string& entry,
                              const LaunchConstants& launch);

/// The program text one stage compiles: the prelude, then `source_text` without comments, half
/// promoted to float when `promote`, DMA companions fused for `entry` (with the direct path
/// where `direct_dma`). `launch` (what every launch of the stage has in common): where the source
/// calls the DMA transactions, their geometry and the copies' work-group size become constants.
std::string program_text(const std::string& source_text, const std::string& entry, bool native_half,
                         bool promote, bool direct_dma = false,
                         const LaunchConstants* launch = nullptr);

}  // namespace myriad
