// ops/normalization.cpp: layer_norm as the IR layer "MVN" (mean-variance normalisation, shipped
// in two stages), and an LRN across all channels with beta 0.5 and alpha 1 as "GRN". A layer norm
// over the trailing dims from `axis` normalises rows of length = product of those dims; MVN without
// across_channels normalises each plane (Y*X) of its B*F planes, so the layer sees the same
// row-major memory as [1, rows, 1, length] (across_channels 0, normalize_variance 1, eps inside the
// square root as Tessera's epsilon). MVN has no scale or shift: gamma/beta tensors, a scalar gamma
// other than 1 or beta other than 0 and the statistics form (mean and variance given as inputs) are
// declined.
// normalization.hpp names activation_spec without including it.
#include "tessera/ops/activation_spec.hpp"

#include "ops.hpp"
#include "tessera/ops/normalization.hpp"

namespace tessera::plugins::myriad {

namespace {

layer_request describe_layer_norm(const op::layer_norm& n, const std::vector<tensor_desc>& inputs,
                                  const std::vector<tensor_desc>&) {
    if (n.kind() != layer_norm_kind::axes)
        decline(TSR_REASON_ATTRIBUTE,
                "the statistics form (mean and variance as inputs) has no MVN parameter");
    if (n.has_gamma() || n.has_beta())
        decline(TSR_REASON_ATTRIBUTE, "gamma/beta tensors have no MVN parameter");
    if (n.gamma() != 1.0f || n.beta() != 0.0f)
        decline(TSR_REASON_ATTRIBUTE, "a scalar gamma " + ir_number(n.gamma()) + " or beta " +
                                          ir_number(n.beta()) + " has no MVN parameter");
    if (inputs.size() != 1) decline(TSR_REASON_INVALID, "layer_norm here takes one input");
    const tensor_desc& src = inputs[0];
    if (src.type() != dtype::f32 && src.type() != dtype::f16)
        decline(TSR_REASON_DTYPE, "MVN here takes f32 or f16 tensors");
    const int axis = n.axis() < 0 ? n.axis() + src.rank() : n.axis();
    if (axis < 0 || axis >= src.rank())
        decline(TSR_REASON_INVALID,
                "axis " + std::to_string(n.axis()) + " outside rank " + std::to_string(src.rank()));
    std::int64_t rows = 1, length = 1;
    for (int d = 0; d < src.rank(); ++d) (d < axis ? rows : length) *= src.dim(d);
    // The rows are MVN's planes: one work-group row each (OpenCL devices allow 65535 at least).
    if (rows > 65535)
        decline(TSR_REASON_SHAPE, std::to_string(rows) +
                                      " rows exceed the 65535 planes of one "
                                      "MVN launch");
    layer_request r;
    r.type = "MVN";
    r.params = {
        {"across_channels", "0"}, {"normalize_variance", "1"}, {"eps", ir_number(n.epsilon())}};
    r.ports = {0};
    r.port_views = {{1, rows, 1, length}};
    r.output_view = {1, rows, 1, length};
    return r;
}

/// LRN across channels is GRN (x / sqrt(bias + sum over all channels of x^2)) when its window
/// reaches every channel from every channel, beta is 0.5 and the effective alpha 1.
layer_request describe_lrn(const op::lrn& n, const std::vector<tensor_desc>& inputs,
                           const std::vector<tensor_desc>&) {
    if (n.kind() != lrn_kind::across_channels)
        decline(TSR_REASON_ATTRIBUTE, "an LRN within a channel has no Myriad layer form");
    if (inputs.size() != 1) decline(TSR_REASON_INVALID, "lrn takes one input");
    const tensor_desc& src = inputs[0];
    if (src.type() != dtype::f32 && src.type() != dtype::f16)
        decline(TSR_REASON_DTYPE, "GRN here takes f32 or f16 tensors");
    const std::int64_t channels = src.dim(1);
    const double alpha = n.alpha_scaled_by_size() ? static_cast<double>(n.alpha()) / n.size()
                                                  : static_cast<double>(n.alpha());
    if (n.size() / 2 < channels - 1 || n.beta() != 0.5f || alpha != 1.0)
        decline(TSR_REASON_ATTRIBUTE,
                "only an LRN whose window spans all " + std::to_string(channels) +
                    " channels (size >= " + std::to_string(2 * channels - 1) +
                    ") with beta 0.5 and alpha 1 is GRN (size " + std::to_string(n.size()) +
                    ", beta " + ir_number(n.beta()) + ", alpha " +
                    ir_number(static_cast<float>(alpha)) + ")");
    if (!(n.bias() > 0.0f))
        decline(TSR_REASON_ATTRIBUTE, "GRN adds 1e-9 to the sum: a bias of " + ir_number(n.bias()) +
                                          " would not divide by zero as the LRN does");
    std::int64_t inner = 1;
    for (int d = 2; d < src.rank(); ++d) inner *= src.dim(d);
    layer_request r;
    r.type = "GRN";
    r.params = {{"bias", ir_number(n.bias())}};
    r.ports = {0};
    r.port_views = {{src.dim(0), channels, 1, inner}};
    r.output_view = {src.dim(0), channels, 1, inner};
    return r;
}

}  // namespace

void state_normalization(router& r) {
    state_layer<op::layer_norm>(r, &describe_layer_norm);
    state_layer<op::lrn>(r, &describe_lrn);
}

}  // namespace tessera::plugins::myriad
