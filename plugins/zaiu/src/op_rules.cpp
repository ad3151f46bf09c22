// op_rules.cpp: per-op support decisions and layout choices (see op_rules.hpp). The step
// builders (steps_*.cpp) read the layouts chosen here from the partition's descriptors.
#include "op_rules.hpp"

#include <cmath>
#include <functional>

#include "activation_map.hpp"
#include "stick_format.hpp"
#include "window_padding.hpp"
#include "zdnn_call.hpp"

namespace zaiu {

using tessera::dtype;
using tessera::shape;
using tessera::tensor_desc;
using tessera::sdk::support;
namespace op = tessera::op;

namespace {

using tfrmd_test = std::function<bool(const zdnn_tensor_desc&)>;

support decline(tsr_reason why, std::string text) {
    return support::declined(why, std::move(text));
}

bool tfrmd_is(const zdnn_tensor_desc& t, std::uint32_t d4, std::uint32_t d3, std::uint32_t d2,
              std::uint32_t d1) {
    return t.dim4 == d4 && t.dim3 == d3 && t.dim2 == d2 && t.dim1 == d1;
}

/// The layout for an input: its current zaiu layout when `ok` accepts its sticks, else `fallback`.
tensor_desc choose(const tensor_desc& offered, const stick_format& fallback,
                   const tfrmd_test& ok = {}) {
    const tensor_desc logical = offered.with_layout(tessera::layout::row_major());
    if (const auto f = format_of(offered); f && f->fits(offered.dims())) {
        if (*f == fallback || (ok && ok(transformed_of(offered)))) return in_format(logical, *f);
    }
    return in_format(logical, fallback);
}

/// Declines what no zaiu layout holds: dtypes zDNN does not transform, empty or huge dims.
/// i32 only where `int32_ok` (reduce indices), i8 only where `int8_ok` (quantized_matmul).
std::optional<support> check_tensors(const std::vector<tensor_desc>& ts, const char* role,
                                     bool int32_ok = false, bool int8_ok = false) {
    for (std::size_t i = 0; i < ts.size(); ++i) {
        const tensor_desc& d = ts[i];
        if (!stickable(d.type()) && !(int32_ok && d.type() == dtype::i32) &&
            !(int8_ok && d.type() == dtype::i8)) {
            return decline(TSR_REASON_DTYPE,
                           std::string(role) + " " + std::to_string(i) + " is " +
                               std::string(tessera::to_string(d.type())) +
                               "; the zAIU takes f32, f16 and bf16 (held as DLFLOAT16)");
        }
        if (d.is_opaque() && !format_of(d))
            return decline(TSR_REASON_LAYOUT, "opaque layout of another backend");
        for (int k = 0; k < d.rank(); ++k)
            if (d.dim(k) < 1) return decline(TSR_REASON_SHAPE, "empty dimensions");
    }
    return std::nullopt;
}

/// Declines when a chosen layout exceeds the zAIU's dimension or tensor size limits.
std::optional<support> check_limits(const support& s) {
    const std::uint32_t mdis = zdnn_get_nnpa_max_dim_idx_size();
    const std::uint64_t mts = zdnn_get_nnpa_max_tensor_size();
    auto too_big = [&](const tensor_desc& d) {
        const zdnn_tensor_desc t = transformed_of(d);
        return t.dim4 > mdis || t.dim3 > mdis || t.dim2 > mdis || t.dim1 > mdis ||
               zdnn_getsize_ztensor(&t) > mts;
    };
    for (const auto* list : {&s.inputs, &s.outputs})
        for (const auto& d : *list)
            if (too_big(d)) {
                return decline(TSR_REASON_SHAPE, d.dims().to_string() +
                                                     " exceeds the zAIU limits (" +
                                                     std::to_string(mdis) + " per dimension, " +
                                                     std::to_string(mts) + " bytes per tensor)");
            }
    return std::nullopt;
}

support with_layouts(std::vector<tensor_desc> in, std::vector<tensor_desc> out) {
    support s = support::native();
    s.inputs = std::move(in);
    s.outputs = std::move(out);
    return s;
}

/// Element-wise ops: every operand and the output in one layout (the first input's if it is a
/// zaiu layout, else the natural one).
support same_layout_everywhere(const std::vector<tensor_desc>& in,
                               const std::vector<tensor_desc>& out) {
    const auto current = format_of(in[0]);
    const stick_format f =
        current && current->fits(in[0].dims()) ? *current : natural_format(in[0].dims());
    std::vector<tensor_desc> ins, outs;
    for (const auto& d : in) ins.push_back(choose(d, f));
    for (const auto& d : out) outs.push_back(in_format(d, f));
    return with_layouts(ins, outs);
}

support decide_binary(const op::binary& b, const std::vector<tensor_desc>& in,
                      const std::vector<tensor_desc>& out) {
    if (b.alpha != 1.0f || b.beta != 1.0f)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN binary ops have no alpha/beta scaling");
    if (b.uses_c())
        return decline(TSR_REASON_ATTRIBUTE,
                       "zDNN binary ops do not accumulate into C (gamma != 0)");
    if (in[0].dims() != in[1].dims()) {
        return decline(TSR_REASON_SHAPE, "zDNN element-wise ops need equal shapes; " +
                                             in[0].dims().to_string() + " and " +
                                             in[1].dims().to_string() + " broadcast");
    }
    return same_layout_everywhere({in[0], in[1]}, out);
}

support decide_unary(const op::unary& u, const std::vector<tensor_desc>& in,
                     const std::vector<tensor_desc>& out) {
    if (u.op != TSR_UNARY_LOG && u.op != TSR_UNARY_EXP && u.op != TSR_UNARY_SQRT &&
        u.op != TSR_UNARY_RSQRT) {
        return decline(TSR_REASON_ATTRIBUTE, "unary " + std::string(op::unary_op_name(u.op)) +
                                                 " has no zDNN counterpart");
    }
    return same_layout_everywhere(in, out);
}

support decide_activation(const op::activation& a, const std::vector<tensor_desc>& in,
                          const std::vector<tensor_desc>& out) {
    std::string why;
    if (!map_activation_op(a, why)) return decline(TSR_REASON_ATTRIBUTE, why);
    return same_layout_everywhere(in, out);
}

/// Row-major flattening to [rows, cols] vectors in dim 1: accepted when the sticks have dim3 1
/// and dim1 = cols (2D@K, 2DS@K, 3DS and 1D layouts are row-major flattenings).
tfrmd_test vectors_of(std::int64_t cols) {
    return [cols](const zdnn_tensor_desc& t) { return t.dim3 == 1 && t.dim1 == cols; };
}

bool row_major_format(const tensor_desc& d) {
    const auto f = format_of(d);
    return f && (f->kind == stick_kind::feature_1d || f->kind == stick_kind::feature_2d ||
                 f->kind == stick_kind::feature_2ds || f->kind == stick_kind::feature_3ds);
}

support decide_softmax(const op::softmax& s, const std::vector<tensor_desc>& in,
                       const std::vector<tensor_desc>& out) {
    const int rank = in[0].rank();
    const int axis = s.axis < 0 ? s.axis + rank : s.axis;
    if (axis + s.axis_count != rank) {
        return decline(TSR_REASON_ATTRIBUTE,
                       "zDNN softmax runs over the innermost dims; axis " + std::to_string(axis) +
                           " count " + std::to_string(s.axis_count) + " leaves dims after them");
    }
    if (s.log && s.mask)
        return decline(TSR_REASON_ATTRIBUTE,
                       "masked log-softmax: zDNN writes 0, not -infinity, past the mask");
    const auto g = s.geometry(in[0]);
    auto ok = vectors_of(g.length);
    const tensor_desc chosen = row_major_format(in[0]) ? choose(in[0], stick_format::d2(axis), ok)
                                                       : choose(in[0], stick_format::d2(axis));
    return with_layouts({chosen}, {in_format(out[0], *format_of(chosen))});
}

/// Matmul-family operand layouts: 2D (m,n) unstacked, 3DS (s,m,n) stacked.
tensor_desc matrix_operand(const tensor_desc& d) {
    return d.rank() == 2 ? choose(d, stick_format::d2(1)) : choose(d, stick_format::d3s());
}

support decide_matmul(const op::matmul& m, const std::vector<tensor_desc>& in,
                      const std::vector<tensor_desc>& out) {
    const auto g = m.geometry(in);
    std::vector<tensor_desc> ins{matrix_operand(in[0]), matrix_operand(in[1])};
    if (in.size() > 2) {
        const bool needs_stacked_c =
            g.b_stacked;  // stacked and bcast1 take (s, p); unstacked and bcast23 take (p)
        if (needs_stacked_c != g.c_stacked) {
            return decline(TSR_REASON_SHAPE, needs_stacked_c
                                                 ? "zDNN needs a stacked C [s, p] when B is stacked"
                                                 : "zDNN needs C [p] when B is not stacked");
        }
        ins.push_back(g.c_stacked ? choose(in[2], stick_format::d2s(1))
                                  : choose(in[2], stick_format::d1()));
    }
    return with_layouts(ins, {out[0].rank() == 2 ? in_format(out[0], stick_format::d2(1))
                                                 : in_format(out[0], stick_format::d3s())});
}

/// A quantisation scale zDNN accepts: |scale| and |1 / scale| finite, non-zero and within the
/// DLFLOAT16 range (zdnn_init_quantized_ztensor stores 1 / scale).
bool zdnn_scale_ok(float scale) {
    const float dlfloat_max = 8573157376.0f;
    const float rec = 1.0f / scale;
    return scale != 0.0f && std::fabs(scale) <= dlfloat_max && std::isfinite(rec) && rec != 0.0f;
}

support decide_quantized_matmul(const op::quantized_matmul& q, const std::vector<tensor_desc>& in,
                                const std::vector<tensor_desc>& out) {
    const auto g = q.geometry(in);
    const bool float_a = in[0].type() != dtype::i8;
    if (float_a && q.transpose_a) {
        return decline(TSR_REASON_ATTRIBUTE,
                       "zdnn_quantized_matmul_op has no transpose; a floating (on-the-fly) A "
                       "cannot be transposed while stickified");
    }
    if (g.b_stacked != g.c_stacked) {
        return decline(TSR_REASON_SHAPE, g.b_stacked
                                             ? "zDNN needs a stacked C [s, p] when B is stacked"
                                             : "zDNN needs C [p] when B is not stacked");
    }
    const float za =
        float_a ? static_cast<float>(q.a_zero_point) : static_cast<float>(in[0].quant().zero_point);
    const float zb = static_cast<float>(in[1].quant().zero_point);
    if (q.pre_computed && (zb != 0.0f || (q.op == TSR_MATMUL_ADDITION && za != 0.0f))) {
        return decline(TSR_REASON_ATTRIBUTE,
                       "pre-computed bias with non-zero zero points: zDNN folds Za and Zb into the "
                       "bias differently from Tessera's definition "
                       "(mapped only for Zb = 0, and Za = 0 for addition)");
    }
    std::vector<float> scales{float_a ? q.a_scale : in[0].quant().scale, in[1].quant().scale,
                              q.out_scale};
    if (!q.pre_computed) scales.push_back(in[2].quant().scale);
    for (float s : scales)
        if (!zdnn_scale_ok(s))
            return decline(TSR_REASON_ATTRIBUTE,
                           "quantisation scale " + std::to_string(s) + " outside zDNN's range");
    const stick_format a_plain = g.a_stacked ? stick_format::d3s() : stick_format::d2(1);
    const stick_format b_plain = g.b_stacked ? stick_format::d3s() : stick_format::d2(1);
    const stick_format c_plain = g.c_stacked ? stick_format::d2s(1) : stick_format::d1();
    const tensor_desc a_logical = in[0].with_layout(tessera::layout::row_major());
    std::vector<tensor_desc> ins{
        float_a ? matrix_operand(in[0])
                : in_format(a_logical, a_plain.quantized(stick_quant::int8, q.transpose_a != 0)),
        in_format(in[1].with_layout(tessera::layout::row_major()),
                  b_plain.quantized(stick_quant::weights, q.transpose_b != 0)),
        q.pre_computed ? choose(in[2], c_plain)
                       : in_format(in[2].with_layout(tessera::layout::row_major()),
                                   c_plain.quantized(stick_quant::int8))};
    return with_layouts(ins,
                        {in_format(out[0], g.stacks ? stick_format::d3s() : stick_format::d2(1))});
}

support decide_gemm(const op::gemm& m, const std::vector<tensor_desc>& in,
                    const std::vector<tensor_desc>& out) {
    if (m.alpha != 1.0f) return decline(TSR_REASON_ATTRIBUTE, "zDNN matmul has no alpha scaling");
    std::vector<tensor_desc> ins{choose(in[0], stick_format::d2(1)),
                                 choose(in[1], stick_format::d2(1))};
    if (in.size() > 2) {
        if (m.beta != 1.0f)
            return decline(TSR_REASON_ATTRIBUTE, "zDNN matmul adds C unscaled (beta != 1)");
        ins.push_back(in[2].rank() == 1 ? choose(in[2], stick_format::d1())
                                        : choose(in[2], stick_format::d2(1)));
    }
    return with_layouts(ins, {in_format(out[0], stick_format::d2(1))});
}

support decide_fc(const op::fully_connected& fc, const std::vector<tensor_desc>& in,
                  const std::vector<tensor_desc>& out) {
    std::string why;
    if (fc.activation.kind != TSR_ACT_NONE && !map_activation(fc.activation, why))
        return decline(TSR_REASON_ATTRIBUTE, "fused " + why);
    const int axis =
        fc.first_flatten_axis < 0 ? fc.first_flatten_axis + in[0].rank() : fc.first_flatten_axis;
    const auto g = fc.geometry(in[0], in[1]);
    std::vector<tensor_desc> ins{choose(in[0], stick_format::d2(axis),
                                        [&](const zdnn_tensor_desc& t) {
                                            return row_major_format(in[0]) &&
                                                   tfrmd_is(t, 1, 1,
                                                            static_cast<std::uint32_t>(g.rows),
                                                            static_cast<std::uint32_t>(g.inner));
                                        }),
                                 choose(in[1], stick_format::d2(1))};
    if (fc.has_bias) ins.push_back(choose(in[2], stick_format::d1()));
    return with_layouts(ins, {in_format(out[0], stick_format::d2(out[0].rank() - 1))});
}

support decide_conv(const op::conv2d& c, const std::vector<tensor_desc>& in,
                    const std::vector<tensor_desc>& out) {
    if (c.mode == TSR_CONV_TRANSPOSED)
        return decline(TSR_REASON_ATTRIBUTE, "transposed convolution is not a zDNN op");
    if (c.mode == TSR_CONV_DEPTHWISE || c.group_count() != 1)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN conv2d has no groups (depthwise)");
    if (c.dilation_h != 1 || c.dilation_w != 1)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN conv2d has no dilation");
    if (c.fuse_batchnorm)
        return decline(TSR_REASON_ATTRIBUTE, "fused batchnorm is not part of zDNN conv2d");
    std::string why;
    if (c.activation.kind != TSR_ACT_NONE && !map_activation(c.activation, why))
        return decline(TSR_REASON_ATTRIBUTE, "fused " + why);
    const auto g = c.geometry(in[0], in[1]);
    if (!zdnn_padding(g.h, g.w, g.kh, g.kw, c.stride_h, c.stride_w, g.y, g.x)) {
        return decline(TSR_REASON_ATTRIBUTE,
                       "padding is neither SAME nor VALID (zDNN conv2d knows only those)");
    }
    if (c.stride_h > 13 || c.stride_w > 13)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN conv2d strides are at most 13");
    if (g.kh > 64 || g.kw > 64)
        return decline(TSR_REASON_SHAPE, "zDNN conv2d kernels are at most 64x64");
    std::vector<tensor_desc> ins{choose(in[0], stick_format::nhwc()),
                                 choose(in[1], stick_format::hwck())};
    if (c.has_bias) {
        if (in[2].rank() != 1)
            return decline(TSR_REASON_SHAPE,
                           "zDNN conv2d bias is per output channel, not per location");
        ins.push_back(choose(in[2], stick_format::d1()));
    }
    return with_layouts(ins, {in_format(out[0], stick_format::nhwc())});
}

support decide_pool(const op::pooling& p, const std::vector<tensor_desc>& in,
                    const std::vector<tensor_desc>& out) {
    const auto g = p.geometry(in[0]);
    if (g.h > 1024 || g.w > 1024)
        return decline(TSR_REASON_SHAPE, "zDNN pooling takes heights and widths up to 1024");
    if (!p.global()) {
        const auto pad = zdnn_padding(g.h, g.w, g.kh, g.kw, g.sh, g.sw, g.y, g.x);
        if (!pad)
            return decline(TSR_REASON_ATTRIBUTE,
                           "padding is neither SAME nor VALID (zDNN pooling knows only those)");
        const bool pads = g.y.pad_before + g.y.pad_after + g.x.pad_before + g.x.pad_after > 0;
        if (p.mode == TSR_POOL_AVERAGE_INCLUDE_PADDING && pads) {
            return decline(TSR_REASON_ATTRIBUTE,
                           "zDNN averages exclude SAME padding; this average includes it");
        }
        if (g.kh > 64 || g.kw > 64)
            return decline(TSR_REASON_SHAPE, "zDNN pooling kernels are at most 64x64");
        if (g.sh > 30 || g.sw > 30)
            return decline(TSR_REASON_ATTRIBUTE, "zDNN pooling strides are at most 30");
    }
    return with_layouts({choose(in[0], stick_format::nhwc())},
                        {in_format(out[0], stick_format::nhwc())});
}

/// Channel-innermost layouts for [N, C] (2D) and [N, C, H, W] (NHWC).
std::optional<stick_format> channels_last(const tensor_desc& d) {
    if (d.rank() == 4) return stick_format::nhwc();
    if (d.rank() == 2) return stick_format::d2(1);
    return std::nullopt;
}

support decide_batchnorm(const op::batchnorm& b, const std::vector<tensor_desc>& in,
                         const std::vector<tensor_desc>& out) {
    std::string why;
    if (b.activation.kind != TSR_ACT_NONE && !map_activation(b.activation, why))
        return decline(TSR_REASON_ATTRIBUTE, "fused " + why);
    const auto f = channels_last(in[0]);
    if (!f)
        return decline(TSR_REASON_SHAPE,
                       "zDNN batchnorm needs [N, C] or [N, C, H, W] (channels innermost)");
    std::vector<tensor_desc> ins{choose(in[0], *f)};
    for (std::size_t i = 1; i < in.size(); ++i) ins.push_back(choose(in[i], stick_format::d1()));
    return with_layouts(ins, {in_format(out[0], *f)});
}

support decide_mean_reduce(const std::vector<tensor_desc>& in,
                           const std::vector<tensor_desc>& out) {
    if (in[0].dim(2) > 1024 || in[0].dim(3) > 1024)
        return decline(TSR_REASON_SHAPE, "zDNN meanreduce2d takes H and W up to 1024");
    return with_layouts({choose(in[0], stick_format::nhwc())},
                        {in_format(out[0], stick_format::nhwc())});
}

/// [rows, rest] per-row statistics layout: sticks (rows, *, *, *) with dim4 = rows.
tensor_desc per_row(const tensor_desc& d, int axis) {
    std::int64_t rows = 1;
    for (int i = 0; i < axis; ++i) rows *= d.dim(i);
    const bool keeps_rows =
        (format_of(d) && format_of(d)->kind == stick_kind::feature_nhwc && axis == 1) ||
        (format_of(d) && format_of(d)->kind == stick_kind::feature_3ds && axis == 1);
    return choose(d, stick_format::d2s(axis),
                  [&](const zdnn_tensor_desc& t) { return keeps_rows && t.dim4 == rows; });
}

support decide_moments(const op::moments& m, const std::vector<tensor_desc>& in,
                       const std::vector<tensor_desc>& out) {
    const int axis = m.first_axis < 0 ? m.first_axis + in[0].rank() : m.first_axis;
    return with_layouts({per_row(in[0], axis)}, {in_format(out[0], stick_format::d2s(axis)),
                                                 in_format(out[1], stick_format::d2s(axis))});
}

support decide_layer_norm(const op::layer_norm& l, const std::vector<tensor_desc>& in,
                          const std::vector<tensor_desc>& out) {
    if (!std::isfinite(l.gamma) || !std::isfinite(l.beta))
        return decline(TSR_REASON_ATTRIBUTE, "gamma and beta must be finite");
    if (l.mode == TSR_LAYER_NORM_STATISTICS) {
        for (std::size_t i = 1; i < 3; ++i) {
            for (int d = 1; d < in[i].rank(); ++d)
                if (in[i].dim(d) != 1)
                    return decline(TSR_REASON_SHAPE,
                                   "zDNN layernorm takes one mean and variance per dim-0 index");
            if (in[i].dim(0) != in[0].dim(0))
                return decline(TSR_REASON_SHAPE,
                               "zDNN layernorm takes one mean and variance per dim-0 index");
        }
        const tensor_desc src = per_row(in[0], 1);
        return with_layouts(
            {src, choose(in[1], stick_format::d2s(1)), choose(in[2], stick_format::d2s(1))},
            {in_format(out[0], *format_of(src))});
    }
    if (l.has_gamma || l.has_beta)
        return decline(TSR_REASON_ATTRIBUTE,
                       "zDNN layernorm scales by scalars only (gamma/beta tensors given)");
    const int axis = l.axis < 0 ? l.axis + in[0].rank() : l.axis;
    const tensor_desc src = per_row(in[0], axis);
    return with_layouts({src}, {in_format(out[0], *format_of(src))});
}

support decide_norm(const op::norm& n, const std::vector<tensor_desc>& in,
                    const std::vector<tensor_desc>& out) {
    const int rank = in[0].rank();
    const int axis = n.axis < 0 ? n.axis + rank : n.axis;
    if (axis != rank - 1)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN norm reduces the innermost dim only");
    const stick_format f = stick_format::d2(rank - 1);
    return with_layouts({choose(in[0], f), choose(in[1], f)}, {in_format(out[0], f)});
}

support decide_reduce(const op::reduce& r, const std::vector<tensor_desc>& in,
                      const std::vector<tensor_desc>& out) {
    if (r.op > TSR_REDUCE_MAX_IDX)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN reduce has min, max and their indices only");
    const int rank = in[0].rank();
    const int axis = r.axis < 0 ? r.axis + rank : r.axis;
    if (axis != rank - 1)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN reduce works along the innermost dim only");
    const stick_format f = stick_format::d2(rank - 1);
    return with_layouts({choose(in[0], f)}, {in_format(out[0], f)});
}

/// LSTM (gates 4) and GRU (gates 3): zdnn_lstm / zdnn_gru with FICO / ZRH gate tensors.
support decide_rnn(int gates, const std::vector<tensor_desc>& in,
                   const std::vector<tensor_desc>& out) {
    const tensor_desc& x = in[0];
    const std::int64_t hidden = in[1].dim(2);
    const std::int64_t limit = gates == 4 ? 8192 : 10880;
    if (hidden > limit)
        return decline(TSR_REASON_SHAPE, "hidden size " + std::to_string(hidden) +
                                             " exceeds zDNN's " + std::to_string(limit));
    const bool prev_bidir = x.rank() == 4 && x.dim(1) == 2;
    std::vector<tensor_desc> ins{x.rank() == 3 ? choose(x, stick_format::d3s())
                                               : choose(x, stick_format::d4s())};
    ins.push_back(choose(in[1], stick_format::d3s()));  // h0
    std::size_t k = 2;
    if (gates == 4) ins.push_back(choose(in[k++], stick_format::d3s()));  // c0
    ins.push_back(choose(in[k++], stick_format::rnn(gates, rnn_usage::weights, prev_bidir)));
    ins.push_back(choose(in[k++], stick_format::rnn(gates, rnn_usage::biases)));
    ins.push_back(choose(in[k++], stick_format::rnn(gates, rnn_usage::hidden_weights)));
    ins.push_back(choose(in[k++], stick_format::rnn(gates, rnn_usage::hidden_biases)));
    std::vector<tensor_desc> outs;
    for (const auto& d : out) outs.push_back(in_format(d, stick_format::d4s()));
    return with_layouts(ins, outs);
}

support decide_reorder(const std::vector<tensor_desc>& in, const std::vector<tensor_desc>& out) {
    if (!format_of(in[0]) || !format_of(out[0]))
        return decline(TSR_REASON_LAYOUT,
                       "zaiu reorders convert between its own stick layouts only");
    if (!stickable(out[0].type()))
        return decline(TSR_REASON_DTYPE, "reorder output dtype is not stickable");
    return with_layouts({in[0]}, {out[0]});
}

support decide_known(const tessera::sdk::op_query& q, const std::vector<tensor_desc>& in,
                     const std::vector<tensor_desc>& out) {
    const auto& o = q.op;
    if (const auto* p = o.get_if<op::binary>()) return decide_binary(*p, in, out);
    if (const auto* p = o.get_if<op::unary>()) return decide_unary(*p, in, out);
    if (const auto* p = o.get_if<op::activation>()) return decide_activation(*p, in, out);
    if (const auto* p = o.get_if<op::softmax>()) return decide_softmax(*p, in, out);
    if (const auto* p = o.get_if<op::matmul>()) return decide_matmul(*p, in, out);
    if (const auto* p = o.get_if<op::gemm>()) return decide_gemm(*p, in, out);
    if (const auto* p = o.get_if<op::fully_connected>()) return decide_fc(*p, in, out);
    if (const auto* p = o.get_if<op::conv2d>()) return decide_conv(*p, in, out);
    if (const auto* p = o.get_if<op::pooling>()) return decide_pool(*p, in, out);
    if (const auto* p = o.get_if<op::batchnorm>()) return decide_batchnorm(*p, in, out);
    if (o.get_if<op::mean_reduce2d>()) return decide_mean_reduce(in, out);
    if (const auto* p = o.get_if<op::moments>()) return decide_moments(*p, in, out);
    if (const auto* p = o.get_if<op::layer_norm>()) return decide_layer_norm(*p, in, out);
    if (const auto* p = o.get_if<op::norm>()) return decide_norm(*p, in, out);
    if (const auto* p = o.get_if<op::reduce>()) return decide_reduce(*p, in, out);
    if (o.get_if<op::reorder>()) return decide_reorder(in, out);
    if (const auto* p = o.get_if<op::quantized_matmul>())
        return decide_quantized_matmul(*p, in, out);
    if (o.get_if<op::lstm>()) return decide_rnn(4, in, out);
    if (o.get_if<op::gru>()) return decide_rnn(3, in, out);
    return decline(TSR_REASON_OP_KIND, std::string(o.name()) + " has no zDNN counterpart");
}

}  // namespace

support decide(const tessera::sdk::op_query& q) {
    const bool is_reorder = q.op.get_if<op::reorder>() != nullptr;
    std::vector<tensor_desc> logical;
    for (const auto& d : q.inputs)
        logical.push_back(d.is_strided() ? d : d.with_layout(tessera::layout::row_major()));
    if (!is_reorder) {
        // Outputs are ours whatever layout was asked; validation and shapes come from inference.
        const auto inferred = q.op.infer(logical);
        if (auto s = check_tensors(q.inputs, "input", false,
                                   q.op.get_if<op::quantized_matmul>() != nullptr))
            return *s;
        const auto* r = q.op.get_if<op::reduce>();
        if (auto s = check_tensors(inferred, "output", r && r->is_index())) return *s;
        support s = decide_known(q, q.inputs, inferred);
        if (s.level == TSR_SUPPORT_NONE) return s;
        if (auto over = check_limits(s)) return *over;
        return s;
    }
    return decide_reorder(q.inputs, q.outputs);
}

}  // namespace zaiu
