// half_storage.h -- half kernels on devices without cl_khr_fp16 that keep their buffers in half:
// the arithmetic is promoted to float, while __global and __constant half pointers stay pointers
// to half (a storage type every OpenCL device has) and their element accesses become
// vload_half/vstore_half. Tensors then need no half<->float conversion passes around the kernels.
#pragma once

#include <optional>
#include <string>

namespace myriad {

/// Rewrites comment-free source: `half`/`halfN` become `float`/`floatN` except as the pointee of
/// a __global/__constant pointer; reads and writes through such pointers (`p[i]`, `*p`,
/// `p[i] op= v`, `&p[i]`, vloadN/vstoreN) become vload_half*/vstore_half*; vload_half*/
/// vstore_half* on promoted (local, private) data become plain accesses; async copies between
/// half storage and promoted local memory go to the prelude's converting copies. Returns nullopt
/// when the source uses half in a way this cannot follow (half or address spaces in macros, half
/// in typedefs or structs, pointers to pointers to half, half3 pointers, writes through a half
/// pointer used as a value, the byte-sized cl_khr_extended_async_copies form): the caller then
/// promotes the buffers as well.
std::optional<std::string> promote_half_keep_storage(const std::string& stripped);

/// The prelude's additions for promote_half_keep_storage's output: the Myriad DMA builtins and
/// async_work_group_copy / async_work_group_strided_copy between half storage and float
/// (promoted) local memory, converting each element.
std::string half_storage_prelude();

/// program_text's counterpart for a device without cl_khr_fp16 that keeps half buffers: the
/// prelude (with half_storage_prelude), promote_half_keep_storage's output, DMA companions fused
/// for `entry`; nullopt when promote_half_keep_storage gives up.
std::optional<std::string> program_text_half_storage(const std::string& source_text,
                                                     const std::string& entry);

}  // namespace myriad
