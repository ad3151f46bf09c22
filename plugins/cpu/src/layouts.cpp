// layouts.cpp: nchw16c as an opaque Tessera layout, its host conversions, and the layouts of a
// query answer.
#include "layouts.hpp"

#include <cstring>

namespace tessera::plugins::cpu {

namespace {

std::vector<std::int64_t> dims_of(const tensor_desc& d) {
    std::vector<std::int64_t> v;
    for (int i = 0; i < d.rank(); ++i) v.push_back(d.dim(i));
    return v;
}

runtime::DataType runtime_type(dtype t) {
    switch (t) {
        case dtype::f32:
            return runtime::DataType::f32;
        case dtype::f16:
            return runtime::DataType::f16;
        case dtype::bf16:
            return runtime::DataType::bf16;
        case dtype::i8:
            return runtime::DataType::s8;
        case dtype::u8:
            return runtime::DataType::u8;
        case dtype::i32:
            return runtime::DataType::s32;
        default:
            throw error(status::unsupported,
                        "dtype " + std::string(to_string(t)) + " has no runtime equivalent",
                        {backend_name, "", ""});
    }
}

}  // namespace

bool is_blocked(const tensor_desc& d) {
    return d.is_opaque() && d.opaque_backend() == backend_name &&
           d.opaque_format() == blocked_format;
}

tensor_desc blocked(const tensor_desc& d) {
    const runtime::TensorInfo info(dims_of(d), runtime::DataType::f32,
                                   runtime::DataLayout::nchw16c);
    return d.with_type(dtype::f32)
        .with_layout(layout::opaque(backend_name, blocked_format,
                                    static_cast<std::int64_t>(info.total_size_in_bytes())));
}

runtime::TensorInfo runtime_info(const tensor_desc& d, bool as_image) {
    if (is_blocked(d))
        return runtime::TensorInfo(dims_of(d), runtime::DataType::f32,
                                   runtime::DataLayout::nchw16c);
    if (!d.is_row_major()) {
        throw error(status::invalid_argument,
                    "the runtime needs row-major or blocked tensors, got " + d.to_string(),
                    {backend_name, "", ""});
    }
    const auto q = d.quant();
    return runtime::TensorInfo(
        dims_of(d), runtime_type(d.type()),
        as_image && d.rank() == 4 ? runtime::DataLayout::nchw : runtime::DataLayout::plain,
        runtime::QuantizationInfo{q.scale, q.zero_point});
}

namespace {

/// Calls `row(n, c, h, blocked_row, blocked_w_step)` for every (n, c, h) of a blocked tensor: the
/// address of element (n, c, h, 0) and the element step between consecutive w.
template <typename Row>
void for_each_blocked_row(const runtime::TensorInfo& info, unsigned char* base, Row&& row) {
    const std::int64_t w_step = info.stride_w();
    for (std::int64_t n = 0; n < info.n(); ++n)
        for (std::int64_t c = 0; c < info.c(); ++c)
            for (std::int64_t h = 0; h < info.h(); ++h)
                row(n, c, h, reinterpret_cast<float*>(base + info.offset_of(n, c, h, 0)), w_step);
}

/// Whether a host tensor is f32 with strides (the conversions then move rows directly).
bool strided_f32(const tensor& t) {
    return t.type() == dtype::f32 && t.desc().is_strided() && t.desc().rank() == 4;
}

}  // namespace

void blocked_to_host(const void* src, const tensor_desc& src_desc, const tensor& dst,
                     rounding_policy rounding, overflow_policy overflow) {
    const runtime::TensorInfo info = runtime_info(src_desc);
    const auto* bytes = static_cast<const unsigned char*>(src);
    if (strided_f32(dst)) {
        const tensor_desc& d = dst.desc();
        auto* out = static_cast<float*>(dst.data());
        for_each_blocked_row(info, const_cast<unsigned char*>(bytes),
                             [&](std::int64_t n, std::int64_t c, std::int64_t h, const float* row,
                                 std::int64_t step) {
                                 float* o =
                                     out + n * d.stride(0) + c * d.stride(1) + h * d.stride(2);
                                 const std::int64_t o_step = d.stride(3);
                                 for (std::int64_t w = 0; w < info.w(); ++w)
                                     o[w * o_step] = row[w * step];
                             });
        return;
    }
    tessera::detail::for_each_index(dst.dims(), [&](const tessera::detail::index_t& i) {
        float v;
        std::memcpy(&v, bytes + info.offset_of(i[0], i[1], i[2], i[3]), sizeof v);
        numeric::store_real(dst.type(), dst.desc().quant(), dst.address_of(i), v, rounding,
                            overflow);
    });
}

void host_to_blocked(const tensor& src, void* dst, std::int64_t dst_bytes,
                     const tensor_desc& dst_desc) {
    const runtime::TensorInfo info = runtime_info(dst_desc);
    if (static_cast<std::int64_t>(info.total_size_in_bytes()) > dst_bytes) {
        throw error(status::invalid_argument, "buffer too small for " + dst_desc.to_string(),
                    {backend_name, "", ""});
    }
    auto* bytes = static_cast<unsigned char*>(dst);
    std::memset(bytes, 0, info.total_size_in_bytes());
    if (strided_f32(src)) {
        const tensor_desc& s = src.desc();
        const auto* in = static_cast<const float*>(src.data());
        for_each_blocked_row(
            info, bytes,
            [&](std::int64_t n, std::int64_t c, std::int64_t h, float* row, std::int64_t step) {
                const float* i = in + n * s.stride(0) + c * s.stride(1) + h * s.stride(2);
                const std::int64_t i_step = s.stride(3);
                for (std::int64_t w = 0; w < info.w(); ++w) row[w * step] = i[w * i_step];
            });
        return;
    }
    tessera::detail::for_each_index(src.dims(), [&](const tessera::detail::index_t& i) {
        const float v = static_cast<float>(
            numeric::load_real(src.type(), src.desc().quant(), src.address_of(i)));
        std::memcpy(bytes + info.offset_of(i[0], i[1], i[2], i[3]), &v, sizeof v);
    });
}

sdk::support answer(const route_choice& r, const descs& in, const descs& out,
                    int activation_inputs) {
    if (r.how == route::declined) return sdk::support::declined(r.reason, r.why);
    sdk::support s = r.how == route::reference
                         ? sdk::support::emulated(r.reason, "reference kernel: " + r.why)
                         : sdk::support::native();
    const int blocked_count = r.how == route::native_blocked ? activation_inputs : 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const tensor_desc plain = in[i].with_layout(layout::row_major()).with_offset(0);
        s.inputs.push_back(static_cast<int>(i) < blocked_count ? blocked(in[i]) : plain);
    }
    for (const auto& d : out)
        s.outputs.push_back(r.how == route::native_blocked ? blocked(d)
                                                           : d.with_layout(layout::row_major()));
    return s;
}

}  // namespace tessera::plugins::cpu
