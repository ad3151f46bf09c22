// activation_map.cpp: Tessera activation kinds -> runtime activation kinds.
#include "activation_map.hpp"

namespace tessera::plugins::cpu {

bool to_runtime(const tsr_activation_spec& s, runtime::ActivationInfo& out) {
    using K = runtime::ActivationKind;
    out.a = s.a;
    out.b = s.b;
    switch (s.kind) {
        case TSR_ACT_NONE:
            out.kind = K::identity;
            return true;
        case TSR_ACT_RELU:
            out.kind = K::relu;
            return true;
        case TSR_ACT_RELU6:
            out.kind = K::relu6;
            return true;
        case TSR_ACT_BOUNDED_RELU:
            out.kind = K::bounded_relu;
            return true;
        case TSR_ACT_LEAKY_RELU:
            out.kind = K::leaky_relu;
            return true;
        case TSR_ACT_ELU:
            out.kind = K::elu;
            return true;
        case TSR_ACT_TANH:
            out.kind = K::tanh;
            return true;
        case TSR_ACT_SIGMOID:
            out.kind = K::sigmoid;
            return true;
        case TSR_ACT_SOFT_RELU:
            out.kind = K::soft_relu;
            return true;
        case TSR_ACT_ABS:
            out.kind = K::abs;
            return true;
        case TSR_ACT_SQUARE:
            out.kind = K::square;
            return true;
        case TSR_ACT_SQRT:
            out.kind = K::sqrt;
            return true;
        case TSR_ACT_LINEAR:
            out.kind = K::linear;
            return true;
        case TSR_ACT_GELU:
            out.kind = K::gelu;
            return s.a == 0.0f;  // erf form only
        case TSR_ACT_CLIP:
            out.kind = K::clip;
            return true;
        case TSR_ACT_HARD_SIGMOID:
            out.kind = K::hard_sigmoid;
            return true;
        case TSR_ACT_HARD_SWISH:
            out.kind = K::hard_swish;
            return true;
        case TSR_ACT_MISH:
            out.kind = K::mish;
            return true;
        case TSR_ACT_SELU:
            out.kind = K::selu;
            return true;
        case TSR_ACT_THRESHOLDED_RELU:
            out.kind = K::thresholded_relu;
            return true;
        case TSR_ACT_SOFTSIGN:
            out.kind = K::softsign;
            return true;
        default:
            return false;  // PReLU needs a slope tensor
    }
}

}  // namespace tessera::plugins::cpu
