// dma_prelude.h -- OpenCL C of the Myriad copy builtins for one pair of pointer types: the
// manual-DMA work-group transactions (WorkGroupDmaCreateStrideTransaction,
// WorkGroupDmaCreate3DTransaction, each also in a deferred form for __dma_preload_/__dma_postwrite_
// companions) and the Myriad form of async_work_group_copy_2D2D/3D3D, all as straight-line
// cooperative copies by every work item of the group.
#pragma once

#include <string>

#include "dma_geometry.h"

namespace myriad {

/// One source and one destination pointer type of the same element type.
struct DmaPair {
    std::string tag;            ///< unique suffix of the helper functions, e.g. "float_g2l"
    std::string element;        ///< the element type, e.g. "float"
    std::string src;            ///< source pointer type, e.g. "const __global float*"
    std::string dst;            ///< destination pointer type, e.g. "__local float*"
    std::string element_bytes;  ///< the element size the kernel's byte counts use
    std::string direction;      ///< "g2l" (global to local) or "l2g"
    int loads_in_flight = 8;    ///< loads each work item issues before their stores, in a row copy
    WorkGroupShape group = work_group_shape(std::nullopt);  ///< the copies' work-group size and id
};

/// The name prefix of the transactions that leave the wait to their caller: the fused companion
/// kernel's barrier after __dma_preload_<k> (and the kernel's end after __dma_postwrite_<k>).
inline const char* const kDeferredDmaPrefix = "__myriad_deferred_";

/// Row copy, copy dispatch and the builtins for `pair`. Lines of equal source and destination
/// width go as rows: narrow rows one column per work item over several rows, wide rows spread
/// over the group, `pair.loads_in_flight` loads per work item before their stores, no division per
/// element; contiguous lines and planes become one flat row. Only differing widths index element
/// by element. A transaction ends with a barrier (its
/// deferred form without); 2D2D/3D3D end with a barrier and return a builtin event, so
/// wait_group_events works on it.
std::string dma_builtins(const DmaPair& pair);

/// The ratified cl_khr_extended_async_copies forms (untyped pointers, offsets and line lengths in
/// elements of num_bytes_per_element bytes), on the typed copies above.
std::string untyped_async_copies();

}  // namespace myriad
