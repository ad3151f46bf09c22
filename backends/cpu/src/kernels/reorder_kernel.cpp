// ReorderKernel: one (n, h) row per window step; conversions through f32.
#include "kernels/reorder_kernel.hpp"

#include <cmath>
#include <cstring>

#include "tessera/cpu/error.hpp"

namespace tessera::cpu {

float half_to_float(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else {  // subnormal
            float f = std::ldexp(static_cast<float>(mant), -24);
            std::memcpy(&bits, &f, 4);
            bits |= sign;
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else {
        bits = sign | ((exp + 112) << 23) | (mant << 13);
    }
    float out;
    std::memcpy(&out, &bits, 4);
    return out;
}

uint16_t float_to_half(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
    const float a = std::fabs(f);
    if (std::isnan(f)) return static_cast<uint16_t>(sign | 0x7e00u);
    if (a >= 65520.0f) return static_cast<uint16_t>(sign | 0x7c00u);
    if (a < 6.103515625e-05f) {  // subnormal half: round to nearest even in units of 2^-24
        const float scaled = std::nearbyint(a * 16777216.0f);
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(scaled));
    }
    uint32_t mant = bits & 0x7fffffu;
    uint32_t exp = ((bits >> 23) & 0xffu) - 112;
    // round to nearest even on the 13 dropped bits
    const uint32_t rest = mant & 0x1fffu;
    mant >>= 13;
    if (rest > 0x1000u || (rest == 0x1000u && (mant & 1u))) {
        if (++mant == 0x400u) {
            mant = 0;
            ++exp;
        }
    }
    return static_cast<uint16_t>(sign | (exp << 10) | mant);
}

float bf16_to_float(uint16_t b) {
    const uint32_t bits = static_cast<uint32_t>(b) << 16;
    float out;
    std::memcpy(&out, &bits, 4);
    return out;
}

uint16_t float_to_bf16(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    if (std::isnan(f)) return static_cast<uint16_t>((bits >> 16) | 0x40u);
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<uint16_t>(bits >> 16);
}

namespace {

float load_as_float(const uint8_t* p, DataType t) {
    switch (t) {
        case DataType::f32: {
            float v;
            std::memcpy(&v, p, 4);
            return v;
        }
        case DataType::f16: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return half_to_float(v);
        }
        case DataType::bf16: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return bf16_to_float(v);
        }
        default:
            return 0.0f;
    }
}

void store_from_float(uint8_t* p, DataType t, float v) {
    switch (t) {
        case DataType::f32:
            std::memcpy(p, &v, 4);
            break;
        case DataType::f16: {
            const uint16_t h = float_to_half(v);
            std::memcpy(p, &h, 2);
            break;
        }
        case DataType::bf16: {
            const uint16_t h = float_to_bf16(v);
            std::memcpy(p, &h, 2);
            break;
        }
        default:
            break;
    }
}

bool is_float_type(DataType t) {
    return t == DataType::f32 || t == DataType::f16 || t == DataType::bf16;
}

}  // namespace

void ReorderKernel::configure(const ITensor& src, ITensor& dst) {
    const TensorInfo& s = src.info();
    const TensorInfo& d = dst.info();
    const char* fn = "ReorderKernel::configure";
    require(is_float_type(s.data_type()), fn, s.name(),
            "unsupported data type " + to_string(s.data_type()));
    require(is_float_type(d.data_type()), fn, d.name(),
            "unsupported data type " + to_string(d.data_type()));
    require(s.shape() == d.shape(), fn, d.name(), "shape differs from the source");
    require(s.is_4d_layout() == d.is_4d_layout(), fn, d.name(),
            "plain tensors can only be converted to plain tensors");
    src_ = &src;
    dst_ = &dst;
    Window win;
    if (s.is_4d_layout()) {
        win.set(0, Window::Dimension(0, s.n() * s.h(), 1));
    } else {
        win.set(0, Window::Dimension(0, s.element_count(), 1));
    }
    configure_window(win, 0, s.is_4d_layout() ? 1 : 4096);
}

void ReorderKernel::run(const Window& window, const ThreadInfo&) {
    const TensorInfo& s = src_->info();
    const TensorInfo& d = dst_->info();
    const uint8_t* sb = src_->buffer();
    uint8_t* db = dst_->buffer();
    const std::size_t ses = s.element_size(), des = d.element_size();
    if (!s.is_4d_layout()) {  // plain: dense element-wise conversion
        for (int64_t i = window[0].start(); i < window[0].end(); ++i)
            store_from_float(
                db + d.offset_first_element_in_bytes() + i * des, d.data_type(),
                load_as_float(sb + s.offset_first_element_in_bytes() + i * ses, s.data_type()));
        return;
    }
    const bool same = s.layout() == d.layout() && s.data_type() == d.data_type() &&
                      s.layout() == DataLayout::nchw16c;
    const int64_t c_total =
        d.layout() == DataLayout::nchw16c ? d.channel_blocks() * kChannelBlock : d.c();
    for (int64_t row = window[0].start(); row < window[0].end(); ++row) {
        const int64_t n = row / s.h(), h = row % s.h();
        if (same) {  // block-wise copy of whole pixels
            for (int64_t cb = 0; cb < s.channel_blocks(); ++cb)
                std::memcpy(db + d.offset_of(n, cb * kChannelBlock, h, 0),
                            sb + s.offset_of(n, cb * kChannelBlock, h, 0),
                            static_cast<std::size_t>(s.w() * kChannelBlock) * ses);
            continue;
        }
        if (s.data_type() == DataType::f32 && d.data_type() == DataType::f32) {
            reorder_f32_row(n, h, c_total);
            continue;
        }
        // Addresses once per channel row, then steps along w.
        const int64_t s_step = s.stride_w() * static_cast<int64_t>(ses);
        const int64_t d_step = d.stride_w() * static_cast<int64_t>(des);
        for (int64_t c = 0; c < c_total; ++c) {
            uint8_t* dp = db + d.offset_of(n, c, h, 0);
            if (c >= s.c()) {  // the blocked layout's padding channels
                for (int64_t w = 0; w < s.w(); ++w)
                    store_from_float(dp + w * d_step, d.data_type(), 0.0f);
                continue;
            }
            const uint8_t* sp = sb + s.offset_of(n, c, h, 0);
            for (int64_t w = 0; w < s.w(); ++w)
                store_from_float(dp + w * d_step, d.data_type(),
                                 load_as_float(sp + w * s_step, s.data_type()));
        }
    }
}

void ReorderKernel::reorder_f32_row(int64_t n, int64_t h, int64_t c_total) const {
    const TensorInfo& s = src_->info();
    const TensorInfo& d = dst_->info();
    const auto* from = reinterpret_cast<const float*>(src_->buffer() + s.offset_of(n, 0, h, 0));
    auto* to = reinterpret_cast<float*>(dst_->buffer() + d.offset_of(n, 0, h, 0));
    const bool s_blocked = s.layout() == DataLayout::nchw16c;
    const bool d_blocked = d.layout() == DataLayout::nchw16c;
    // Elements from channel 0 to channel c of a pixel.
    const auto channel = [](bool blocked, int64_t stride_c, int64_t c) {
        return blocked ? (c / kChannelBlock) * stride_c + c % kChannelBlock : c * stride_c;
    };
    const int64_t s_c = s.stride_c(), d_c = d.stride_c(), si = s.stride_w(), di = d.stride_w();
    // One pixel whose channels are consecutive on both sides (a 1x1 plane of whole blocks, e.g.
    // after global pooling): the layouts agree element for element.
    if (s.w() == 1 && c_total == s.c() && s_c == (s_blocked ? kChannelBlock : 1) &&
        d_c == (d_blocked ? kChannelBlock : 1)) {
        std::memcpy(to, from, static_cast<std::size_t>(c_total) * sizeof(float));
        return;
    }
    for (int64_t c = 0; c < c_total; ++c) {
        float* out = to + channel(d_blocked, d_c, c);
        if (c >= s.c()) {  // the blocked layout's padding channels
            for (int64_t w = 0; w < s.w(); ++w) out[w * di] = 0.0f;
            continue;
        }
        const float* in = from + channel(s_blocked, s_c, c);
        for (int64_t w = 0; w < s.w(); ++w) out[w * di] = in[w * si];
    }
}

}  // namespace tessera::cpu
