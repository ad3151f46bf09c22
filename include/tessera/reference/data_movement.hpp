// tessera/reference/data_movement.hpp: reference kernels of the data-movement ops. Except
// resize_bilinear (interpolation on real values) they copy raw elements, so every dtype works.
#pragma once

#include <cmath>
#include <cstring>
#include <vector>

#include "tessera/ops/data_movement.hpp"
#include "tessera/reference/element_access.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

inline void run(const op::concat& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const int rank = out[0].desc().rank();
    const int axis = op.axis() < 0 ? op.axis() + rank : op.axis();
    std::int64_t start = 0;
    for (const tensor& t : in) {
        tessera::detail::for_each_index(t.dims(), [&](const detail::index_t& idx) {
            detail::index_t o = idx;
            o[axis] += start;
            detail::copy_element(t, idx, out[0], o);
        });
        start += t.desc().dim(axis);
    }
}

inline void run(const op::permute& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const std::vector<int> order = op.order();
    tessera::detail::for_each_index(out[0].dims(), [&](const detail::index_t& o) {
        detail::index_t i{};
        for (std::size_t k = 0; k < order.size(); ++k) i[order[k]] = o[k];
        detail::copy_element(in[0], i, out[0], o);
    });
}

inline void run(const op::transpose& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    run(op.as_permute(in[0].desc().rank()), in, out);
}

inline void run(const op::reshape&, const std::vector<tensor>& in, const std::vector<tensor>& out) {
    // Both are row-major: the same elements in the same order.
    const tensor src = in[0].reshape(out[0].dims());
    tessera::detail::for_each_index(
        src.dims(), [&](const detail::index_t& o) { detail::copy_element(src, o, out[0], o); });
}

inline void run(const op::depth_to_space& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const std::int64_t b = op.block_size();
    const bool dcr = op.kind() == depth_to_space_kind::dcr;
    const std::int64_t channels_out = out[0].desc().dim(1);
    tessera::detail::for_each_index(out[0].dims(), [&](const detail::index_t& o) {
        const std::int64_t c = o[1], i = o[2] % b, j = o[3] % b;
        detail::index_t s = o;
        s[1] = dcr ? (i * b + j) * channels_out + c : c * b * b + i * b + j;
        s[2] = o[2] / b;
        s[3] = o[3] / b;
        detail::copy_element(in[0], s, out[0], o);
    });
}

namespace detail {

/// Source coordinate of output position `d` along one axis (clamped to [0, in-1]).
inline double resize_source(const op::resize_bilinear& op, std::int64_t d, std::int64_t in,
                            std::int64_t out) {
    double s;
    if (op.align_corners()) {
        s = out > 1 ? static_cast<double>(d) * static_cast<double>(in - 1) /
                          static_cast<double>(out - 1)
                    : 0.0;
    } else if (op.half_pixel_centers()) {
        s = (static_cast<double>(d) + 0.5) * static_cast<double>(in) / static_cast<double>(out) -
            0.5;
    } else {
        s = static_cast<double>(d) * static_cast<double>(in) / static_cast<double>(out);
    }
    const double hi = static_cast<double>(in - 1);
    return s < 0 ? 0.0 : (s > hi ? hi : s);
}

}  // namespace detail

inline void run(const op::resize_bilinear& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const tensor& src = in[0];
    const std::int64_t ih = src.desc().dim(2), iw = src.desc().dim(3);
    const std::int64_t oh = out[0].desc().dim(2), ow = out[0].desc().dim(3);
    tessera::detail::for_each_index(out[0].dims(), [&](const detail::index_t& o) {
        const double sy = detail::resize_source(op, o[2], ih, oh);
        const double sx = detail::resize_source(op, o[3], iw, ow);
        const auto y0 = static_cast<std::int64_t>(std::floor(sy));
        const auto x0 = static_cast<std::int64_t>(std::floor(sx));
        const std::int64_t y1 = y0 + 1 < ih ? y0 + 1 : y0;
        const std::int64_t x1 = x0 + 1 < iw ? x0 + 1 : x0;
        const double fy = sy - static_cast<double>(y0), fx = sx - static_cast<double>(x0);
        const auto at = [&](std::int64_t y, std::int64_t x) {
            detail::index_t s = o;
            s[2] = y;
            s[3] = x;
            return detail::load(src, s);
        };
        const double top = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * fx;
        const double bottom = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * fx;
        detail::store(out[0], o, top + (bottom - top) * fy);
    });
}

namespace detail {

/// Maps position p (in output coordinates minus padding) onto [0, n) per pad mode; -1 for a
/// constant-padded position.
inline std::int64_t pad_source(pad_kind mode, std::int64_t p, std::int64_t n) {
    if (p >= 0 && p < n) return p;
    switch (mode) {
        case pad_kind::reflect:
            return p < 0 ? -p : 2 * (n - 1) - p;
        case pad_kind::symmetric:
            return p < 0 ? -p - 1 : 2 * n - 1 - p;
        case pad_kind::edge:
            return p < 0 ? 0 : n - 1;
        default:
            return -1;
    }
}

/// A tensor of one element holding `value` in `like`'s dtype and quantisation.
inline tensor constant_element(const tensor_desc& like, double value) {
    tensor c(tensor_desc(shape{1}, like.type(), layout::row_major(), like.quant()));
    store(c, index_t{}, value);
    return c;
}

}  // namespace detail

inline void run(const op::pad& op, const std::vector<tensor>& in, const std::vector<tensor>& out) {
    const tensor& src = in[0];
    const int rank = src.desc().rank();
    const tensor constant = detail::constant_element(out[0].desc(), op.value());
    const pad_kind kind = op.kind();
    tessera::detail::for_each_index(out[0].dims(), [&](const detail::index_t& o) {
        detail::index_t s{};
        for (int i = 0; i < rank; ++i) {
            s[i] = detail::pad_source(kind, o[i] - op.pad_before(i), src.desc().dim(i));
            if (s[i] < 0) {
                detail::copy_element(constant, detail::index_t{}, out[0], o);
                return;
            }
        }
        detail::copy_element(src, s, out[0], o);
    });
}

inline void run(const op::fill& op, const std::vector<tensor>&, const std::vector<tensor>& out) {
    const tensor constant = detail::constant_element(out[0].desc(), op.value());
    tessera::detail::for_each_index(out[0].dims(), [&](const detail::index_t& o) {
        detail::copy_element(constant, detail::index_t{}, out[0], o);
    });
}

inline void run(const op::table_lookup& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const tensor& src = in[0];
    const tensor& lut = in[1];
    const std::int64_t count = lut.desc().dim(0);
    const std::int64_t offset = op.effective_offset(src.type(), count);
    tessera::detail::for_each_index(src.dims(), [&](const detail::index_t& o) {
        const auto v = static_cast<std::int64_t>(numeric::load_raw(src.type(), src.address_of(o)));
        const std::int64_t k = v + offset;
        if (k >= 0 && k < count) {
            detail::index_t li{};
            li[0] = k;
            detail::copy_element(lut, li, out[0], o);
        } else {
            detail::copy_element(src, o, out[0], o);
        }
    });
}

}  // namespace tessera::reference
