// Mapping of pre-transformed shapes to transformed (4D) shapes, shared by the descriptor helpers.
#pragma once

#include <zdnn.h>

namespace tessera::zdnn {

// Number of dimensions a pre-transformed layout takes (0 if not a pre-transformed layout).
int dims_of_layout(zdnn_data_layouts layout);

// Fills dims, layout and format of `out` (not the type) from a pre-transformed descriptor.
zdnn_status transformed_dims(const zdnn_tensor_desc& pre, zdnn_tensor_desc& out);

// True when the transformed dims are the ones the pre-transformed descriptor implies (including
// the gate concatenations); guards transforms against reading past the caller's data.
bool dims_consistent(const zdnn_tensor_desc& pre, const zdnn_tensor_desc& tfrmd);

// True for the pre-transformed layouts a quantised transform accepts (1D..4D, 2DS, 3DS, NHWC).
bool quantizable_layout(zdnn_data_layouts layout);

}  // namespace tessera::zdnn
