// layouts.hpp: how Tessera tensors become CLML tensors. Every tensor gets one canonical
// CLML shape, shared by all ops that use it: rank 4 is N,C,H,W; rank 1 is a channel vector
// (1,C,1,1); ranks 2 and 3 fill N,C(,H) and leave the rest 1; rank 5 is 5-D N,C,D,H,W; rank 0
// is 1,1,1,1. Row-major Tessera order is then CLML's NCHW element order. Host-visible tensors use
// CLML layout NCHW; tensors kept between qcom-ml ops use OPTIMAL, described to the host as the
// opaque layout ("qcom-ml", "optimal", size the CLML library reported).
#pragma once

#include <CL/cl_qcom_ml_ops.h>

#include <array>
#include <optional>
#include <string>

#include "handles.hpp"
#include "tessera/tensor_desc.hpp"

namespace tessera::plugins::qcom_ml {

inline constexpr const char* backend_name = "qcom-ml";
inline constexpr const char* optimal_format = "optimal";

/// A Tessera shape placed on CLML's axes.
struct clml_shape {
    cl_uint n = 1, c = 1, h = 1, w = 1, d = 1;
    bool five_d = false;
    int rank = 0;
    std::array<int, 5>
        axis_of{};  ///< CLML axis (N0 C1 H2 W3; 5-D: N0 C1 D2 H3 W4) of each Tessera axis
};

/// The canonical CLML shape, or nullopt with `why` when the tensor has no CLML form.
std::optional<clml_shape> map_shape(const tensor_desc& d, std::string* why = nullptr);

/// CLML storage type of a Tessera dtype (CL_FLOAT, CL_HALF_FLOAT), or 0.
cl_channel_type channel_type(dtype t);

/// Whether the descriptor is this backend's OPTIMAL layout.
bool is_optimal(const tensor_desc& d);

/// d in the row-major layout (shape and dtype kept).
tensor_desc row_major(const tensor_desc& d);
/// The descriptor in OPTIMAL layout with the given byte size.
tensor_desc as_optimal(const tensor_desc& d, std::int64_t bytes);

/// The CLML descriptor (packed NCHW or OPTIMAL); the shape must map.
cl_ml_tensor_desc_qcom clml_desc(const tensor_desc& d, cl_tensor_layout_qcom layout);

/// A CLML tensor for `d`: OPTIMAL when d is this backend's opaque layout, else packed NCHW
/// (the descriptor must then be row-major).
ml_tensor_handle create_tensor(cl_context ctx, const tensor_desc& d);
/// A CLML tensor with an explicit layout.
ml_tensor_handle create_tensor(cl_context ctx, const tensor_desc& d, cl_tensor_layout_qcom layout);
/// An unused tensor (num_dimensions CL_TENSOR_UNUSED_QCOM): "no bias", "no parameter".
ml_tensor_handle create_unused_tensor(cl_context ctx, cl_channel_type type);

}  // namespace tessera::plugins::qcom_ml
