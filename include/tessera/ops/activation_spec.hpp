// tessera/ops/activation_spec.hpp: activation_spec, the typed C++ form of tsr_activation_spec (an
// activation kind with its parameters a and b), as the activation op and the ops with a fused
// activation (conv2d, fully_connected, batchnorm) return it from their getters.
#pragma once

#include "tessera/c/ops.h"
#include "tessera/ops/kinds.hpp"

namespace tessera {

/// An activation function with its two parameters (formulas in tessera/c/ops.h).
struct activation_spec {
    activation_kind kind = activation_kind::none;
    float a = 0.0f;
    float b = 0.0f;

    /// The typed form of ABI parameters; a kind outside the enum throws invalid_argument.
    static activation_spec from_c(const tsr_activation_spec& s) {
        return {tessera::from_c<activation_kind>(s.kind), s.a, s.b};
    }
    /// The ABI form.
    tsr_activation_spec to_c() const { return {tessera::to_c(kind), a, b}; }

    friend bool operator==(const activation_spec& x, const activation_spec& y) {
        return x.kind == y.kind && x.a == y.a && x.b == y.b;
    }
    friend bool operator!=(const activation_spec& x, const activation_spec& y) { return !(x == y); }
};

}  // namespace tessera
