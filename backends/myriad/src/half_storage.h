// half_storage.h -- half kernels on devices without cl_khr_fp16 that keep their buffers in half:
// the arithmetic is promoted to float, while __global, __constant and __local half pointers and
// __local half arrays stay half (a storage type every OpenCL device has) and their element
// accesses become vload_half/vstore_half. Tensors then need no half<->float conversion passes
// around the kernels, and __local buffers keep the size the bindings give them.
#pragma once

#include <optional>
#include <string>

#include "dma_geometry.h"

namespace myriad {

/// Rewrites comment-free source: `half`/`halfN` become `float`/`floatN` except as the pointee of
/// a __global/__constant/__local pointer, the element of a __local array and in sizeof(half);
/// reads and writes through those (`p[i]`, `*p`, `p[i] op= v`, `&p[i]`, vloadN/vstoreN) become
/// vload_half*/vstore_half*; vload_half*/vstore_half* on promoted (private) data become plain
/// accesses; async copies of half data go to the prelude's ushort forms. Returns nullopt when the
/// source uses half in a way this cannot follow (half or address spaces in macros, half in
/// typedefs or structs, pointers to pointers to half, half3 pointers, writes through a half
/// pointer used as a value): the caller then promotes the buffers as well.
std::optional<std::string> promote_half_keep_storage(const std::string& stripped);

/// The prelude's additions for promote_half_keep_storage's output: the Myriad DMA builtins and
/// async_work_group_copy / async_work_group_strided_copy on half pointers, as ushort copies.
std::string half_storage_prelude();

/// program_text's counterpart for a device without cl_khr_fp16 that keeps half buffers: the
/// prelude (with half_storage_prelude), promote_half_keep_storage's output, DMA companions fused
/// for `entry` (with the direct path where `direct_dma`), the DMA geometry folded as program_text
/// does with `launch`; nullopt when promote_half_keep_storage gives up.
std::optional<std::string> program_text_half_storage(const std::string& source_text,
                                                     const std::string& entry,
                                                     bool direct_dma = false,
                                                     const LaunchConstants* launch = nullptr);

}  // namespace myriad
