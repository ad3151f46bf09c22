// tessera/ops/setters.hpp: fluent setters shared by several op descriptors, written once as CRTP
// mixins over the descriptor's C parameter fields: the sliding-window setters of conv2d and
// pooling (stride, padding, output rounding) and the epilogue setters of conv2d and
// fully_connected (bias, fused activation, integer rounding/overflow policies), the axis setter of
// the ops that run along one dim (gather, gather_elements, cumsum, topk, reduce, norm), with the
// typed getters of the same parameters and the small value types they return (hw, pads2d). A
// descriptor using a mixin makes it a friend: the mixins write the descriptor's C fields.
#pragma once

#include "tessera/c/ops.h"
#include "tessera/ops/activation_spec.hpp"
#include "tessera/ops/kinds.hpp"

namespace tessera::op {

/// A 2-D window parameter: stride, dilation or kernel size, height then width.
struct hw {
    int h = 0;
    int w = 0;
    friend constexpr bool operator==(hw a, hw b) { return a.h == b.h && a.w == b.w; }
    friend constexpr bool operator!=(hw a, hw b) { return !(a == b); }
};

/// Explicit spatial padding of a 2-D window, in elements.
struct pads2d {
    int top = 0;
    int bottom = 0;
    int left = 0;
    int right = 0;
    friend constexpr bool operator==(pads2d a, pads2d b) {
        return a.top == b.top && a.bottom == b.bottom && a.left == b.left && a.right == b.right;
    }
    friend constexpr bool operator!=(pads2d a, pads2d b) { return !(a == b); }
};

/// stride / padding / rounding_mode over the fields stride_h, stride_w, padding_mode, pad_top,
/// pad_bottom, pad_left, pad_right and output_rounding.
template <typename Derived>
struct window_setters {
    Derived& stride(int h, int w) {
        fields().stride_h = h;
        fields().stride_w = w;
        return self();
    }
    /// Explicit padding: top, bottom, left, right.
    Derived& padding(int top, int bottom, int left, int right) {
        auto& f = fields();
        f.padding_mode = TSR_PADDING_EXPLICIT;
        f.pad_top = top;
        f.pad_bottom = bottom;
        f.pad_left = left;
        f.pad_right = right;
        return self();
    }
    Derived& padding(pads2d p) { return padding(p.top, p.bottom, p.left, p.right); }
    /// SAME or VALID padding (or EXPLICIT with the pads already set).
    Derived& padding(tsr_padding_mode m) {
        fields().padding_mode = m;
        return self();
    }
    /// How a window count that is not whole rounds: floor (default) or ceil.
    Derived& rounding_mode(tsr_output_rounding r) {
        fields().output_rounding = r;
        return self();
    }
    Derived& padding(padding_kind m) { return padding(to_c(m)); }
    Derived& rounding_mode(output_rounding r) { return rounding_mode(to_c(r)); }

    /// How the padding is chosen (throws for a raw mode outside the enum).
    padding_kind padding() const { return tessera::from_c<padding_kind>(fields().padding_mode); }
    /// How a window count that is not whole rounds (throws for a raw value outside the enum).
    output_rounding rounding_mode() const {
        return tessera::from_c<output_rounding>(fields().output_rounding);
    }
    /// The step of the window, height then width.
    hw stride() const { return {fields().stride_h, fields().stride_w}; }
    /// The explicit padding (used when padding() is explicit_; SAME and VALID compute their own).
    pads2d pads() const {
        const auto& f = fields();
        return {f.pad_top, f.pad_bottom, f.pad_left, f.pad_right};
    }

  private:
    Derived& self() { return static_cast<Derived&>(*this); }
    const Derived& self() const { return static_cast<const Derived&>(*this); }
    auto& fields() { return self().raw(); }
    const auto& fields() const { return self().raw(); }
};

/// bias / fuse / policies over the fields has_bias, activation, rounding and overflow. The getters
/// named like those fields (has_bias(), rounding(), overflow()) are the descriptor's own: a mixin
/// member of a field's name would make the name ambiguous.
template <typename Derived>
struct epilogue_setters {
    Derived& bias(bool b = true) {
        fields().has_bias = b ? 1 : 0;
        return self();
    }
    /// The activation applied last, with its parameters a and b.
    Derived& fuse(tsr_activation_kind k, float a = 0.0f, float b = 0.0f) {
        fields().activation = {k, a, b};
        return self();
    }
    Derived& fuse(const activation_spec& spec) {
        fields().activation = spec.to_c();
        return self();
    }
    /// Integer arithmetic: how results round and what happens on overflow.
    Derived& policies(tsr_rounding r, tsr_overflow o) {
        fields().rounding = r;
        fields().overflow = o;
        return self();
    }
    Derived& fuse(activation_kind k, float a = 0.0f, float b = 0.0f) { return fuse(to_c(k), a, b); }
    Derived& policies(rounding_policy r, overflow_policy o) { return policies(to_c(r), to_c(o)); }

    /// The activation applied last (kind none: no activation; throws for a raw kind outside the
    /// enum).
    activation_spec fused_activation() const {
        return activation_spec::from_c(fields().activation);
    }

  private:
    Derived& self() { return static_cast<Derived&>(*this); }
    const Derived& self() const { return static_cast<const Derived&>(*this); }
    auto& fields() { return self().raw(); }
    const auto& fields() const { return self().raw(); }
};

/// along over the field axis: the one dim the op runs along (negative counts from the end). The
/// getter axis() is the descriptor's own, as with epilogue_setters.
template <typename Derived>
struct axis_setters {
    Derived& along(int a) {
        fields().axis = a;
        return self();
    }

  private:
    Derived& self() { return static_cast<Derived&>(*this); }
    const Derived& self() const { return static_cast<const Derived&>(*this); }
    auto& fields() { return self().raw(); }
    const auto& fields() const { return self().raw(); }
};

}  // namespace tessera::op
