// BinaryKernel, SoftmaxKernel, BatchNormKernel, PermuteKernel.
#include "kernels/tensor_kernels.hpp"

#include <cstring>

#include "kernels/tensor_rows.hpp"
#include "tessera/cpu/error.hpp"

namespace tessera::cpu {
namespace {

/// Splits a flat row index into the outer coordinates of `shape` (all dims but the last).
template <class F>
void for_outer_coords(int64_t row, int rank, const std::array<int64_t, kMaxDims>& shape, F&& f) {
    std::array<int64_t, kMaxDims> coord{};
    for (int d = rank - 2; d >= 0; --d) {
        coord[static_cast<std::size_t>(d)] = row % shape[static_cast<std::size_t>(d)];
        row /= shape[static_cast<std::size_t>(d)];
    }
    f(coord);
}

}  // namespace

std::vector<int64_t> BinaryKernel::broadcast_shape(const TensorInfo& a, const TensorInfo& b) {
    const char* fn = "BinaryKernel::broadcast_shape";
    if (a.is_4d_layout() || b.is_4d_layout()) {
        require(a.shape() == b.shape() && a.layout() == b.layout(), fn, b.name(),
                "4-D layouts need equal shapes and layouts");
        return a.shape();
    }
    const int rank = std::max(a.rank(), b.rank());
    std::vector<int64_t> out(static_cast<std::size_t>(rank));
    for (int i = 0; i < rank; ++i) {
        const int ia = a.rank() - rank + i, ib = b.rank() - rank + i;
        const int64_t da = ia >= 0 ? a.dim(ia) : 1, db = ib >= 0 ? b.dim(ib) : 1;
        require(da == db || da == 1 || db == 1, fn, b.name(),
                "shapes cannot broadcast at dimension " + std::to_string(i));
        out[static_cast<std::size_t>(i)] = da == 1 ? db : da;
    }
    return out;
}

void BinaryKernel::configure(const KernelTable& table, const ITensor& a, const ITensor& b,
                             ITensor& dst, BinaryOp op) {
    const char* fn = "BinaryKernel::configure";
    for (const ITensor* t : {&a, &b, static_cast<const ITensor*>(&dst)})
        require(t->info().data_type() == DataType::f32, fn, t->info().name(), "needs f32");
    const auto shape = broadcast_shape(a.info(), b.info());
    require(dst.info().shape() == shape, fn, dst.info().name(),
            "output shape differs from the broadcast shape");
    table_ = &table;
    a_ = &a;
    b_ = &b;
    dst_ = &dst;
    op_ = op;
    plain_ = !a.info().is_4d_layout();
    Window win;
    if (!plain_) {
        require(same_rows(a.info(), dst.info()), fn, dst.info().name(),
                "layout differs from the inputs");
        win.set(0, Window::Dimension(0, TensorRows(dst.info()).count(), 1));
        configure_window(win, 0, 1);
        return;
    }
    for (const ITensor* t : {&a, &b, static_cast<const ITensor*>(&dst)})
        require(t->info().is_dense(), fn, t->info().name(), "plain tensors must be dense");
    rank_ = std::max(1, static_cast<int>(shape.size()));
    shape_.fill(1);
    a_strides_.fill(0);
    b_strides_.fill(0);
    for (int i = 0; i < static_cast<int>(shape.size()); ++i)
        shape_[static_cast<std::size_t>(i)] = shape[static_cast<std::size_t>(i)];
    auto strides_of = [&](const TensorInfo& t, std::array<int64_t, kMaxDims>& out) {
        int64_t stride = 1;
        for (int i = t.rank() - 1; i >= 0; --i) {
            const int d = static_cast<int>(shape.size()) - t.rank() + i;
            out[static_cast<std::size_t>(d)] = t.dim(i) == 1 ? 0 : stride;
            stride *= t.dim(i);
        }
    };
    strides_of(a.info(), a_strides_);
    strides_of(b.info(), b_strides_);
    int64_t rows = 1;
    for (int i = 0; i < rank_ - 1; ++i) rows *= shape_[static_cast<std::size_t>(i)];
    win.set(0, Window::Dimension(0, rows, 1));
    configure_window(
        win, 0,
        std::max<int64_t>(
            1, 4096 / std::max<int64_t>(1, shape_[static_cast<std::size_t>(rank_ - 1)])));
}

void BinaryKernel::run(const Window& window, const ThreadInfo&) {
    const float* a = a_->data<float>();
    const float* b = b_->data<float>();
    float* d = dst_->data<float>();
    if (!plain_) {
        const TensorRows ra(a_->info()), rb(b_->info()), rd(dst_->info());
        for (int64_t r = window[0].start(); r < window[0].end(); ++r)
            table_->binary(op_, a + ra.offset(r), 1, b + rb.offset(r), 1, d + rd.offset(r),
                           rd.length(r));
        return;
    }
    const std::size_t last = static_cast<std::size_t>(rank_ - 1);
    const int64_t len = shape_[last];
    for (int64_t r = window[0].start(); r < window[0].end(); ++r) {
        for_outer_coords(r, rank_, shape_, [&](const std::array<int64_t, kMaxDims>& c) {
            int64_t ao = 0, bo = 0;
            for (std::size_t i = 0; i < last; ++i) {
                ao += c[i] * a_strides_[i];
                bo += c[i] * b_strides_[i];
            }
            table_->binary(op_, a + ao, a_strides_[last] ? 1 : 0, b + bo, b_strides_[last] ? 1 : 0,
                           d + r * len, len);
        });
    }
}

void SoftmaxKernel::configure(const KernelTable& table, const ITensor& src, ITensor& dst,
                              float beta, bool log) {
    const char* fn = "SoftmaxKernel::configure";
    for (const ITensor* t : {&src, static_cast<const ITensor*>(&dst)})
        require(t->info().data_type() == DataType::f32 && t->info().layout() == DataLayout::plain &&
                    t->info().is_dense() && t->info().rank() >= 1,
                fn, t->info().name(), "needs a dense plain f32 tensor");
    require(src.info().shape() == dst.info().shape(), fn, dst.info().name(),
            "shape differs from the source");
    table_ = &table;
    src_ = &src;
    dst_ = &dst;
    beta_ = beta;
    log_ = log;
    row_ = src.info().dim(src.info().rank() - 1);
    Window win;
    win.set(0, Window::Dimension(0, row_ == 0 ? 0 : src.info().element_count() / row_, 1));
    configure_window(win, 0, 1);
}

void SoftmaxKernel::run(const Window& window, const ThreadInfo&) {
    for (int64_t r = window[0].start(); r < window[0].end(); ++r)
        table_->softmax_row(src_->data<float>() + r * row_, dst_->data<float>() + r * row_, row_,
                            beta_, log_);
}

void BatchNormKernel::configure(const KernelTable& table, const ITensor& src, ITensor& dst,
                                const float* scale, const float* shift, const ActivationInfo& act) {
    const char* fn = "BatchNormKernel::configure";
    require(src.info().is_4d_layout() && src.info().data_type() == DataType::f32, fn,
            src.info().name(), "needs a 4-D f32 tensor");
    require(same_rows(src.info(), dst.info()), fn, dst.info().name(),
            "shape or layout differs from the source");
    table_ = &table;
    src_ = &src;
    dst_ = &dst;
    scale_ = scale;
    shift_ = shift;
    act_ = act;
    Window win;
    win.set(0, Window::Dimension(0, TensorRows(src.info()).count(), 1));
    configure_window(win, 0, 1);
}

void BatchNormKernel::run(const Window& window, const ThreadInfo&) {
    const TensorInfo& info = src_->info();
    const TensorRows rows(info), drows(dst_->info());
    const float* s = src_->data<float>();
    float* d = dst_->data<float>();
    const int64_t planes = info.layout() == DataLayout::nchw16c ? info.channel_blocks()
                           : info.layout() == DataLayout::nchw  ? info.c()
                                                                : 1;
    for (int64_t r = window[0].start(); r < window[0].end(); ++r) {
        const int64_t o = rows.offset(r), od = drows.offset(r), len = rows.length(r);
        const int64_t plane = (r / info.h()) % planes;
        switch (info.layout()) {
            case DataLayout::nchw16c:
                table_->scale_shift_block(s + o, d + od, info.w(), scale_ + plane * kChannelBlock,
                                          shift_ + plane * kChannelBlock, act_);
                continue;
            case DataLayout::nchw: {
                const float sc = scale_[plane], sh = shift_[plane];
                for (int64_t i = 0; i < len; ++i) d[od + i] = s[o + i] * sc + sh;
                break;
            }
            default: {  // nhwc
                const int64_t c = info.c();
                for (int64_t i = 0; i < len; ++i)
                    d[od + i] = s[o + i] * scale_[i % c] + shift_[i % c];
                break;
            }
        }
        if (act_.enabled()) table_->activation(d + od, d + od, len, act_);
    }
}

void PermuteKernel::configure(const ITensor& src, ITensor& dst, const std::vector<int>& perm) {
    const char* fn = "PermuteKernel::configure";
    const TensorInfo& s = src.info();
    const TensorInfo& d = dst.info();
    require(s.layout() == DataLayout::plain && d.layout() == DataLayout::plain && s.is_dense() &&
                d.is_dense(),
            fn, s.name(), "needs dense plain tensors");
    require(s.data_type() == d.data_type(), fn, d.name(), "data types differ");
    require(static_cast<int>(perm.size()) == s.rank() && d.rank() == s.rank(), fn, d.name(),
            "permutation rank mismatch");
    std::vector<bool> seen(perm.size(), false);
    for (std::size_t i = 0; i < perm.size(); ++i) {
        require(perm[i] >= 0 && perm[i] < s.rank() && !seen[static_cast<std::size_t>(perm[i])], fn,
                d.name(), "not a permutation");
        seen[static_cast<std::size_t>(perm[i])] = true;
        require(d.dim(static_cast<int>(i)) == s.dim(perm[i]), fn, d.name(),
                "output shape is not the permuted input shape");
    }
    src_ = &src;
    dst_ = &dst;
    rank_ = std::max(1, s.rank());
    shape_.fill(1);
    src_strides_.fill(0);
    std::array<int64_t, kMaxDims> natural{};
    int64_t stride = 1;
    for (int i = s.rank() - 1; i >= 0; --i) {
        natural[static_cast<std::size_t>(i)] = stride;
        stride *= s.dim(i);
    }
    for (int i = 0; i < s.rank(); ++i) {
        shape_[static_cast<std::size_t>(i)] = d.dim(i);
        src_strides_[static_cast<std::size_t>(i)] =
            natural[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])];
    }
    int64_t rows = 1;
    for (int i = 0; i < rank_ - 1; ++i) rows *= shape_[static_cast<std::size_t>(i)];
    Window win;
    win.set(0, Window::Dimension(0, s.element_count() == 0 ? 0 : rows, 1));
    configure_window(win, 0, 16);
}

void PermuteKernel::run(const Window& window, const ThreadInfo&) {
    const std::size_t es = src_->info().element_size();
    const uint8_t* s = src_->buffer() + src_->info().offset_first_element_in_bytes();
    uint8_t* d = dst_->buffer() + dst_->info().offset_first_element_in_bytes();
    const std::size_t last = static_cast<std::size_t>(rank_ - 1);
    const int64_t len = shape_[last], inner = src_strides_[last];
    for (int64_t r = window[0].start(); r < window[0].end(); ++r) {
        for_outer_coords(r, rank_, shape_, [&](const std::array<int64_t, kMaxDims>& c) {
            int64_t so = 0;
            for (std::size_t i = 0; i < last; ++i) so += c[i] * src_strides_[i];
            uint8_t* out = d + static_cast<std::size_t>(r * len) * es;
            for (int64_t j = 0; j < len; ++j)
                std::memcpy(out + static_cast<std::size_t>(j) * es,
                            s + static_cast<std::size_t>(so + j * inner) * es, es);
        });
    }
}

}  // namespace tessera::cpu
