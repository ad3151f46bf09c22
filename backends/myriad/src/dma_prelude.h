// dma_prelude.h -- OpenCL C of the Myriad manual-DMA work-group transactions
// (WorkGroupDmaCreateStrideTransaction, WorkGroupDmaCreate3DTransaction) for one pair of pointer
// types, as cooperative copies spread over the work group's items.
#pragma once

#include <string>

namespace myriad {

/// One source and one destination pointer type of the same element type.
struct DmaPair {
    std::string tag;            ///< unique suffix of the helper functions, e.g. "float_g2l"
    std::string element;        ///< the element type, e.g. "float"
    std::string src;            ///< source pointer type, e.g. "const __global float*"
    std::string dst;            ///< destination pointer type, e.g. "__local float*"
    std::string element_bytes;  ///< the element size the kernel's byte counts use
};

/// Helper copy functions plus both transactions for `pair`. Lines of equal source and
/// destination width go row by row (one division per row, none per element, kBatch loads in
/// flight per work item before their stores); contiguous lines and planes become one flat copy;
/// only differing widths index element by element.
std::string dma_transactions(const DmaPair& pair);

}  // namespace myriad
