// tessera/ops/setters.hpp: fluent setters shared by several op descriptors, written once as CRTP
// mixins over the descriptor's C parameter fields: the sliding-window setters of conv2d and
// pooling (stride, padding, output rounding) and the epilogue setters of conv2d and
// fully_connected (bias, fused activation, integer rounding/overflow policies), with the typed
// getters of the same parameters.
#pragma once

#include "tessera/c/ops.h"
#include "tessera/ops/activation_spec.hpp"
#include "tessera/ops/kinds.hpp"

namespace tessera::op {

/// stride / padding / rounding_mode over the fields stride_h, stride_w, padding_mode, pad_top,
/// pad_bottom, pad_left, pad_right and output_rounding.
template <typename Derived>
struct window_setters {
    Derived& stride(int h, int w) {
        self().stride_h = h;
        self().stride_w = w;
        return self();
    }
    /// Explicit padding: top, bottom, left, right.
    Derived& padding(int top, int bottom, int left, int right) {
        Derived& d = self();
        d.padding_mode = TSR_PADDING_EXPLICIT;
        d.pad_top = top;
        d.pad_bottom = bottom;
        d.pad_left = left;
        d.pad_right = right;
        return d;
    }
    /// SAME or VALID padding (or EXPLICIT with the pads already set).
    Derived& padding(tsr_padding_mode m) {
        self().padding_mode = m;
        return self();
    }
    /// How a window count that is not whole rounds: floor (default) or ceil.
    Derived& rounding_mode(tsr_output_rounding r) {
        self().output_rounding = r;
        return self();
    }
    Derived& padding(padding_kind m) { return padding(to_c(m)); }
    Derived& rounding_mode(output_rounding r) { return rounding_mode(to_c(r)); }

    /// How the padding is chosen (throws for a raw mode outside the enum).
    padding_kind padding() const { return tessera::from_c<padding_kind>(self().padding_mode); }
    /// How a window count that is not whole rounds (throws for a raw value outside the enum).
    output_rounding rounding_mode() const {
        return tessera::from_c<output_rounding>(self().output_rounding);
    }

  private:
    Derived& self() { return static_cast<Derived&>(*this); }
    const Derived& self() const { return static_cast<const Derived&>(*this); }
};

/// bias / fuse / policies over the fields has_bias, activation, rounding and overflow.
template <typename Derived>
struct epilogue_setters {
    Derived& bias(bool b = true) {
        self().has_bias = b ? 1 : 0;
        return self();
    }
    /// The activation applied last, with its parameters a and b.
    Derived& fuse(tsr_activation_kind k, float a = 0.0f, float b = 0.0f) {
        self().activation = {k, a, b};
        return self();
    }
    /// Integer arithmetic: how results round and what happens on overflow.
    Derived& policies(tsr_rounding r, tsr_overflow o) {
        self().rounding = r;
        self().overflow = o;
        return self();
    }
    Derived& fuse(activation_kind k, float a = 0.0f, float b = 0.0f) { return fuse(to_c(k), a, b); }
    Derived& policies(rounding_policy r, overflow_policy o) { return policies(to_c(r), to_c(o)); }

    /// The activation applied last (kind none: no activation; throws for a raw kind outside the
    /// enum).
    activation_spec fused_activation() const { return activation_spec::from_c(self().activation); }

  private:
    Derived& self() { return static_cast<Derived&>(*this); }
    const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace tessera::op
