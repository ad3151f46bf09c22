// layouts.cpp: canonical CLML shapes, descriptors and tensor creation.
#include "layouts.hpp"

#include <cstring>
#include <limits>

#include "tessera/error.hpp"

namespace tessera::plugins::qcom_ml {

std::optional<clml_shape> map_shape(const tensor_desc& d, std::string* why) {
    const int r = d.rank();
    if (r > 5) {
        if (why) *why = "rank " + std::to_string(r) + " exceeds CLML's 5 dimensions";
        return std::nullopt;
    }
    for (int i = 0; i < r; ++i) {
        if (d.dim(i) <= 0 || d.dim(i) > std::numeric_limits<cl_int>::max()) {
            if (why)
                *why = "dim " + std::to_string(i) + " is " + std::to_string(d.dim(i)) +
                       " (CLML needs 1..2^31-1)";
            return std::nullopt;
        }
    }
    clml_shape s;
    s.rank = r;
    auto dim = [&](int i) { return static_cast<cl_uint>(d.dim(i)); };
    switch (r) {
        case 0:
            break;
        case 1:
            s.c = dim(0);
            s.axis_of[0] = 1;
            break;
        case 5:
            s.five_d = true;
            s.n = dim(0);
            s.c = dim(1);
            s.d = dim(2);
            s.h = dim(3);
            s.w = dim(4);
            for (int i = 0; i < 5; ++i) s.axis_of[i] = i;
            break;
        default: {
            cl_uint* fields[] = {&s.n, &s.c, &s.h, &s.w};
            for (int i = 0; i < r; ++i) {
                *fields[i] = dim(i);
                s.axis_of[i] = i;
            }
        }
    }
    return s;
}

cl_channel_type channel_type(dtype t) {
    switch (t) {
        case dtype::f32:
            return CL_FLOAT;
        case dtype::f16:
            return CL_HALF_FLOAT;
        default:
            return 0;
    }
}

tensor_desc row_major(const tensor_desc& d) {
    return d.with_layout(layout::row_major());
}

bool is_optimal(const tensor_desc& d) {
    return d.is_opaque() && d.opaque_backend() == backend_name &&
           d.opaque_format() == optimal_format;
}

tensor_desc as_optimal(const tensor_desc& d, std::int64_t bytes) {
    return d.with_layout(layout::opaque(backend_name, optimal_format, bytes));
}

cl_ml_tensor_desc_qcom clml_desc(const tensor_desc& d, cl_tensor_layout_qcom layout) {
    std::string why;
    const auto s = map_shape(d, &why);
    if (!s) throw error(status::unsupported, "tensor " + d.to_string() + ": " + why);
    cl_ml_tensor_desc_qcom c;
    std::memset(&c, 0, sizeof c);
    c.data_type = channel_type(d.type());
    if (!c.data_type)
        throw error(status::unsupported, "tensor " + d.to_string() + ": no CLML storage type");
    c.layout = layout;
    c.n = s->n;
    c.c = s->c;
    c.h = s->h;
    c.w = s->w;
    c.d = s->d;
    c.num_dimensions = s->five_d ? CL_TENSOR_DIMENSIONS_5D_QCOM : CL_TENSOR_DIMENSIONS_4D_QCOM;
    return c;
}

ml_tensor_handle create_tensor(cl_context ctx, const tensor_desc& d, cl_tensor_layout_qcom layout) {
    const cl_ml_tensor_desc_qcom c = clml_desc(d, layout);
    cl_ml_tensor_qcom t = nullptr;
    check_cl(clml_v1()->clCreateMLTensorQCOM(ctx, nullptr, &c, &t), "clCreateMLTensorQCOM");
    return ml_tensor_handle(t);
}

ml_tensor_handle create_tensor(cl_context ctx, const tensor_desc& d) {
    if (is_optimal(d)) return create_tensor(ctx, d, CL_TENSOR_LAYOUT_OPTIMAL_QCOM);
    if (!d.is_row_major())
        throw error(status::unsupported,
                    "tensor " + d.to_string() + " is neither OPTIMAL nor row-major");
    return create_tensor(ctx, d, CL_TENSOR_LAYOUT_NCHW_QCOM);
}

ml_tensor_handle create_unused_tensor(cl_context ctx, cl_channel_type type) {
    cl_ml_tensor_desc_qcom c;
    std::memset(&c, 0, sizeof c);
    c.data_type = type;
    c.layout = CL_TENSOR_LAYOUT_OPTIMAL_QCOM;
    c.num_dimensions = CL_TENSOR_UNUSED_QCOM;
    cl_ml_tensor_qcom t = nullptr;
    check_cl(clml_v1()->clCreateMLTensorQCOM(ctx, nullptr, &c, &t),
             "clCreateMLTensorQCOM (unused)");
    return ml_tensor_handle(t);
}

}  // namespace tessera::plugins::qcom_ml
