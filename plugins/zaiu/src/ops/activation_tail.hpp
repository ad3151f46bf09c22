// ops/activation_tail.hpp: what conv2d and batchnorm share: a zDNN activation chained after the
// op (through a scratch tensor) and the 1D shape of per-channel vectors.
#pragma once

#include <optional>

#include "../activation_map.hpp"
#include "../program.hpp"

namespace tessera::plugins::zaiu {

/// The pre-transformed shape of an n-element vector (1D layout).
inline pre_shape vector_shape(std::uint32_t n) {
    pre_shape p;
    p.layout = ZDNN_1D;
    p.rank = 1;
    p.dims = {n, 0, 0, 0};
    return p;
}

/// Applies an optional chained activation: the op writes into target(), finish() applies it.
class activation_tail {
  public:
    activation_tail(std::optional<zdnn_activation> act, const zdnn_tensor_desc& out) : act_(act) {
        if (act_) tmp_ = scratch(view_shape(out, ZDNN_NHWC), FP32);
    }
    zdnn_ztensor* target(zdnn_ztensor* out) const { return act_ ? tmp_.out() : out; }
    void finish(zdnn_ztensor* out) const {
        if (act_) check(apply_activation(*act_, tmp_.in(), out), "zdnn activation");
    }

  private:
    std::optional<zdnn_activation> act_;
    scratch tmp_;
};

}  // namespace tessera::plugins::zaiu
