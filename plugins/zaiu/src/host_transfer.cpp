// host_transfer.cpp: stickify / unstickify through a dense staging tensor in the zDNN
// pre-transformed order (row-major logical order, except HWCK kernels which are permuted here).
#include "host_transfer.hpp"

#include <climits>
#include <cstdint>
#include <utility>
#include <vector>

#include "stick_format.hpp"
#include "zdnn_call.hpp"

namespace tessera::plugins::zaiu {

using tessera::dtype;
using tessera::shape;
using tessera::tensor;
using tessera::tensor_desc;

namespace {

/// The staging dtype: the stick desc's dtype when zDNN transforms it, else f32.
dtype staging_type(const tensor_desc& d) {
    return zdnn_type_of(d.type()) ? d.type() : dtype::f32;
}

/// Whether an f16 tensor holds +-infinity (never true for other dtypes).
bool has_f16_infinity(const tensor& t) {
    if (t.type() != dtype::f16) return false;
    const auto* bits = static_cast<const std::uint16_t*>(t.data());
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        if ((bits[i] & 0x7FFFu) == 0x7C00u) return true;
    return false;
}

stick_format format_or_throw(const tensor_desc& d) {
    const auto f = format_of(d);
    if (!f)
        throw tessera::error(tessera::status::invalid_argument,
                             "not a zaiu layout: " + d.to_string(), {backend_name, "", ""});
    return *f;
}

/// A logical-order view of an HWCK-ordered dense tensor [KH, KW, C, O] as [O, C, KH, KW].
tensor hwck_as_oihw(const tensor& hwck) {
    const shape h = hwck.dims();  // KH, KW, C, O
    const std::int64_t s_kh = h[1] * h[2] * h[3], s_kw = h[2] * h[3], s_c = h[3];
    const tensor_desc d(shape{h[3], h[2], h[0], h[1]}, hwck.type(),
                        tessera::layout::strided({1, s_c, s_kh, s_kw}));
    return tensor::borrow(d, hwck.data());
}

void check_capacity(std::int64_t capacity, std::uint64_t needed, const tensor_desc& d) {
    if (capacity < static_cast<std::int64_t>(needed)) {
        throw tessera::error(tessera::status::invalid_argument,
                             "buffer of " + std::to_string(capacity) + " bytes is too small for " +
                                 d.to_string() + " (" + std::to_string(needed) + " bytes)",
                             {backend_name, "", ""});
    }
}

/// RNN gate tensors: the gates' column blocks become G dense tensors, concatenated by zDNN.
void stickify_gates(const tensor& src, const tensor_desc& dst_desc, const stick_format& f,
                    zdnn_ztensor* z, dtype t) {
    const shape dims = dst_desc.dims();
    const int last = dims.rank() - 1;
    const std::int64_t hidden = dims[last] / f.gates;
    std::vector<tensor> gates;
    for (int g = 0; g < f.gates; ++g) {
        shape gate_dims = dims;
        gate_dims[last] = hidden;
        gates.emplace_back(gate_dims, t);
        const tensor block = last == 2 ? src.view({0, 0, g * hidden}, {dims[0], dims[1], hidden})
                                       : src.view({0, g * hidden}, {dims[0], hidden});
        tensor::copy_elements(block, gates.back());
    }
    const zdnn_status s =
        f.gates == 4 ? zdnn_transform_ztensor(z, gates[0].data(), gates[1].data(), gates[2].data(),
                                              gates[3].data())
                     : zdnn_transform_ztensor(z, gates[0].data(), gates[1].data(), gates[2].data());
    check(s, "zdnn_transform_ztensor (" + f.name() + ")");
}

/// A logical-order view of a dense staging tensor whose last two dims are swapped.
tensor swapped_view(const tensor& staging) {
    const shape h = staging.dims();  // (.., r, q), row-major
    const int rank = h.rank();
    const tensor_desc d(rank == 2 ? shape{h[1], h[0]} : shape{h[0], h[2], h[1]}, staging.type(),
                        rank == 2 ? tessera::layout::strided({1, h[1]})
                                  : tessera::layout::strided({h[1] * h[2], 1, h[2]}),
                        staging.desc().quant());
    return tensor::borrow(d, staging.data());
}

/// int8 operands of quantized_matmul: the stored i8 values go unchanged into QUANTIZED_INT8 or
/// QUANTIZED_WEIGHTS_INT8 sticks (clip range [-128, 127]); scale and zero point live in the
/// ztensors the steps build, not in the sticks.
void stickify_quantized(const tensor& src, const tensor_desc& dst_desc, const stick_format& f,
                        zview& view, void* sticks) {
    if (src.type() != dtype::i8) {
        throw tessera::error(tessera::status::invalid_argument,
                             "int8 sticks need an i8 source, got " + src.desc().to_string(),
                             {backend_name, "", ""});
    }
    const tessera::quantization q = src.desc().quant();
    shape held = dst_desc.dims();
    if (f.transposed) std::swap(held[held.rank() - 2], held[held.rank() - 1]);
    const tensor staging(tensor_desc(held, dtype::i8, tessera::layout::row_major(), q));
    tensor::copy_elements(src, f.transposed ? swapped_view(staging) : staging);
    view.quantize(q.scale, static_cast<float>(q.zero_point));
    check(zdnn_transform_quantized_ztensor(view.bind(sticks, false), false, INT8_MIN, INT8_MAX,
                                           staging.data()),
          "zdnn_transform_quantized_ztensor (" + f.name() + ")");
}

}  // namespace

void stickify(const tensor& src, const tensor_desc& dst_desc, void* sticks, std::int64_t capacity) {
    const stick_format f = format_or_throw(dst_desc);
    const dtype t = staging_type(dst_desc);
    const pre_shape p = f.pre(dst_desc.dims());
    zview view(p, *zdnn_type_of(t));
    check_capacity(capacity, view.size(), dst_desc);
    tensor staging;
    if (f.quant != stick_quant::none) {
        stickify_quantized(src, dst_desc, f, view, sticks);
        return;
    }
    if (f.kind == stick_kind::rnn_gates) {
        stickify_gates(src, dst_desc, f, view.bind(sticks, false), t);
        return;
    }
    if (f.kind == stick_kind::kernel_hwck) {
        staging = tensor(shape{p.dims[0], p.dims[1], p.dims[2], p.dims[3]}, t);
        tensor::copy_elements(src, hwck_as_oihw(staging));
    } else if (src.type() == t && src.desc().is_row_major()) {
        staging = src;  // already dense in logical order
    } else {
        staging = tensor(dst_desc.dims(), t);
        tensor::copy_elements(src, staging);
    }
    // Saturation (finite values clamp to the DLFLOAT16 range) exists for 4DFEATURE only.
    zdnn_ztensor* z = view.bind(sticks, false);
    if (f.kind == stick_kind::kernel_hwck) {
        check(zdnn_transform_ztensor(z, staging.data()), "zdnn_transform_ztensor");
    } else {
        check(zdnn_transform_ztensor_with_saturation(z, staging.data()),
              "zdnn_transform_ztensor_with_saturation");
    }
}

void unstickify(const void* sticks, std::int64_t capacity, const tensor_desc& src_desc,
                const tensor& dst) {
    const stick_format f = format_or_throw(src_desc);
    if (!f.readable()) {
        throw tessera::error(
            tessera::status::unsupported,
            "zDNN cannot transform " + f.name() + " sticks back (zdnn_transform_origtensor)",
            {backend_name, "", ""});
    }
    const dtype t = staging_type(src_desc);
    const pre_shape p = f.pre(src_desc.dims());
    zview view(p, *zdnn_type_of(t));
    check_capacity(capacity, view.size(), src_desc);
    const bool direct = dst.type() == t && dst.desc().is_row_major();
    tensor staging = direct ? dst : tensor(src_desc.dims(), t);
    const zdnn_status s =
        zdnn_transform_origtensor(view.bind(const_cast<void*>(sticks), true), staging.data());
    // NINF cells (results that were NaN, infinite or out of range) read back as NaN and make
    // libzdnn report ZDNN_CONVERT_FAILURE; only a binary16 overflow (read back as inf) is an error.
    check(s == ZDNN_CONVERT_FAILURE && !has_f16_infinity(staging) ? ZDNN_OK : s,
          "zdnn_transform_origtensor");
    if (!direct) tensor::copy_elements(staging, dst);
}

void restick(const void* src, std::int64_t src_capacity, const tensor_desc& src_desc, void* dst,
             std::int64_t dst_capacity, const tensor_desc& dst_desc) {
    tensor staging(src_desc.dims(), dtype::f32);
    unstickify(src, src_capacity, src_desc, staging);
    stickify(staging, dst_desc, dst, dst_capacity);
}

}  // namespace tessera::plugins::zaiu
