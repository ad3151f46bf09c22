// layouts.cpp: Tessera descriptors as Myriad layer shapes and kernel element types.
#include "layouts.hpp"

namespace tessera::plugins::myriad {

std::optional<::myriad::DType> kernel_dtype(dtype t) {
    switch (t) {
        case dtype::f32:
            return ::myriad::DType::f32;
        case dtype::f16:
            return ::myriad::DType::f16;
        case dtype::i8:
            return ::myriad::DType::i8;
        case dtype::u8:
            return ::myriad::DType::u8;
        case dtype::i16:
            return ::myriad::DType::i16;
        case dtype::i32:
            return ::myriad::DType::i32;
        default:
            return std::nullopt;
    }
}

std::optional<::myriad::Shape> layer_shape(const tensor_desc& d, std::string* why) {
    if (d.rank() > 4) {
        if (why)
            *why = "rank " + std::to_string(d.rank()) +
                   ": Myriad layers take tensors of rank 1 to 4 (N C H W)";
        return std::nullopt;
    }
    if (d.rank() == 0) return ::myriad::Shape{1};
    ::myriad::Shape s;
    for (std::int64_t v : d.dims()) s.push_back(v);
    for (std::int64_t v : s) {
        if (v <= 0) {
            if (why) *why = "an empty dimension (" + d.dims().to_string() + ")";
            return std::nullopt;
        }
    }
    return s;
}

bool is_dense_row_major(const tensor_desc& d) {
    return d.is_row_major();
}

tensor_desc row_major(const tensor_desc& d) {
    return d.with_layout(layout::row_major());
}

}  // namespace tessera::plugins::myriad
