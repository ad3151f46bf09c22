// activation_map.cpp: Tessera activation specs onto zdnn_relu / leaky_relu / tanh / sigmoid / gelu.
#include "activation_map.hpp"

#include <algorithm>

namespace tessera::plugins::zaiu {

std::optional<zdnn_activation> map_activation(const activation_spec& s, std::string& why) {
    using fn = zdnn_activation::fn;
    why.clear();
    switch (s.kind) {
        case activation_kind::none:
            return std::nullopt;
        case activation_kind::relu:
            return zdnn_activation{fn::relu, 0.0f, 0.0f};
        case activation_kind::relu6:
            return zdnn_activation{fn::relu, 6.0f, 0.0f};
        case activation_kind::bounded_relu:
            if (s.a > 0.0f) return zdnn_activation{fn::relu, s.a, 0.0f};
            why = "bounded_relu with bound 0 (zDNN reads a clipping value of 0 as no clipping)";
            return std::nullopt;
        case activation_kind::clip:
            if (s.a == 0.0f && s.b > 0.0f) return zdnn_activation{fn::relu, s.b, 0.0f};
            why = "clip to [a, b] maps to zDNN only as relu clipping with a = 0 and b > 0";
            return std::nullopt;
        case activation_kind::leaky_relu:
            if (s.a >= 0.0f && s.a <= 1.0f) return zdnn_activation{fn::leaky_relu, 0.0f, s.a};
            why = "leaky_relu slope " + std::to_string(s.a) +
                  " is outside zDNN's adjustment factor range [0, 1]";
            return std::nullopt;
        case activation_kind::tanh:
            if (s.a == 1.0f && s.b == 1.0f) return zdnn_activation{fn::tanh, 0.0f, 0.0f};
            why = "tanh with a, b != 1 (zDNN computes plain tanh(x))";
            return std::nullopt;
        case activation_kind::sigmoid:
            return zdnn_activation{fn::sigmoid, 0.0f, 0.0f};
        case activation_kind::gelu:
            if (s.a != 0.0f) return zdnn_activation{fn::gelu, 0.0f, 0.0f};
            why = "erf GELU (zDNN computes the tanh approximation: set a != 0)";
            return std::nullopt;
        default:
            why = "activation " + std::string(to_string(s.kind)) + " has no zDNN counterpart";
            return std::nullopt;
    }
}

std::optional<zdnn_activation> map_activation_op(const tessera::op::activation& a,
                                                 std::string& why) {
    auto z = map_activation(a.spec(), why);
    if (!z) {
        if (why.empty()) why = "activation none is not a zDNN op";
        return std::nullopt;
    }
    if (a.clipping_value() > 0.0f) {
        if (z->kind != zdnn_activation::fn::relu && z->kind != zdnn_activation::fn::leaky_relu) {
            why = "clipping_value: zDNN clips only relu and leaky_relu results";
            return std::nullopt;
        }
        z->clip = z->clip > 0.0f ? std::min(z->clip, a.clipping_value()) : a.clipping_value();
    }
    return z;
}

zdnn_status apply_activation(const zdnn_activation& a, const zdnn_ztensor* in, zdnn_ztensor* out) {
    using fn = zdnn_activation::fn;
    switch (a.kind) {
        case fn::relu:
            return zdnn_relu(in, a.clip > 0.0f ? &a.clip : nullptr, out);
        case fn::leaky_relu:
            return zdnn_leaky_relu(in, a.clip > 0.0f ? &a.clip : nullptr, a.factor, out);
        case fn::tanh:
            return zdnn_tanh(in, out);
        case fn::sigmoid:
            return zdnn_sigmoid(in, out);
        case fn::gelu:
            return zdnn_gelu(in, out);
    }
    return ZDNN_FUNC_RC_F000;
}

}  // namespace tessera::plugins::zaiu
