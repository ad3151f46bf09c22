// dma_mirror.h -- the direct path of a kernel fused with its __dma_preload_/__dma_postwrite_
// companions: where each companion transaction is a plain mirror between a __local buffer and a
// global region (the preload's buffers only read by the body, the postwrite's only written), the
// body reads and writes the global regions directly, with no copies and no barriers.
#pragma once

#include <optional>
#include <string>

namespace myriad {

/// The pieces fuse_dma_companions puts into the fused kernel `entry` when the direct path applies.
struct MirrorPath {
    std::string definitions;  ///< OpenCL C functions appended before the fused kernel
    std::string plan;         ///< statements at the top of the fused kernel: the transactions'
                              ///< geometries, recorded without copying
    std::string condition;    ///< true (uniformly in a work group) when every transaction is a
                              ///< mirror at run time and no written region overlaps another
    std::string direct_call;  ///< the statement running the body on the global regions
};

/// The direct path of `text` (comment-free source in which fuse_dma_companions has deferred the
/// companions' transactions and renamed the body to kFusedBodyPrefix + entry), or nullopt where
/// the source does not let it be proven equivalent to the copies: a companion doing anything but
/// WorkGroupDmaCreate{Stride,3D}Transaction calls between a __global pointer parameter and a
/// __local one with work-group-uniform arguments; a body that touches a mirrored buffer other than
/// by reading (preload) or by whole-statement stores (postwrite), that names a __global pointer
/// parameter, or that has a barrier while it stores to a mirror; preprocessor lines besides
/// #pragma. At run time, a transaction of differing line widths, a __local side that is not
/// dense, more than 65535 elements, or a written region overlapping another region takes the
/// copying path.
std::optional<MirrorPath> mirror_path(const std::string& text, const std::string& entry);

}  // namespace myriad
