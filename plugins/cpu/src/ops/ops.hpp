// ops/ops.hpp: one function per op file stating its ops on the cpu router (program.cpp calls
// them all once), and the small checks the op rules share. An op not stated here runs on the
// reference kernels inside the plugin and is answered emulated.
#pragma once

#include <string>
#include <vector>

#include "../activation_map.hpp"
#include "../program.hpp"

namespace tessera::plugins::cpu {

void state_conv2d(router& r);           // conv2d, and conv -> batchnorm -> activation chains
void state_pooling(router& r);          // pooling
void state_activation(router& r);       // activation
void state_binary(router& r);           // binary (every kind and form), every dtype
void state_batchnorm(router& r);        // batchnorm (every form)
void state_fully_connected(router& r);  // fully_connected
void state_gemm(router& r);             // gemm
void state_softmax(router& r);          // softmax, log-softmax (every form)
void state_matmul(router& r);           // matmul, and quantized_matmul
void state_data_movement(router& r);    // reshape, permute
void state_unary(router& r);            // unary (every kind), every dtype
void state_layer_norm(router& r);       // layer_norm (every form)
void state_reduce(router& r);           // reduce (every kind), every dtype
void state_cumsum(router& r);           // cumsum, every dtype
void state_topk(router& r);             // topk, every dtype
void state_reorder(router& r);          // reorder (layouts, dtypes), every dtype
void state_slice(router& r);            // slice, every dtype
void state_gather(router& r);           // gather, every dtype
void state_concat(router& r);           // concat, every dtype
void state_expand_tile(router& r);      // expand, tile, every dtype
void state_pad(router& r);              // pad (every mode), every dtype
void state_depth_to_space(router& r);   // depth_to_space (DCR, CRD), every dtype
void state_custom(router& r);           // custom (declined)
void state_gather_elements(router& r);  // gather_elements
void state_recurrent(router& r);        // lstm, gru
void state_compare(router& r);          // compare (equal, less, ...), every dtype
void state_logical(router& r);          // logical (and, or, xor, not)
void state_where(router& r);            // where, every dtype
void state_lrn(router& r);              // lrn (both modes)
void state_statistics(router& r);       // moments, mean_reduce2d, norm
void state_fill(router& r);             // fill, every dtype
void state_table_lookup(router& r);     // table_lookup (u8, i16)
void state_resize_bilinear(router& r);  // resize_bilinear (every form), every dtype

/// Transposed conv2d (ops/conv_transposed.cpp), routed from the conv2d rules.
route_choice transposed_conv_route(const op::conv2d& c, const descs& in);
std::unique_ptr<step> make_transposed_conv_step(const build_context& b, const op::conv2d& c);

/// quantized_matmul (ops/quantized_matmul.cpp), stated by state_matmul.
void state_quantized_matmul(router& r);

inline bool all_f32(const descs& ds) {
    for (const auto& d : ds)
        if (d.type() != dtype::f32) return false;
    return true;
}

inline std::vector<std::int64_t> dims_of(const tensor_desc& d) {
    std::vector<std::int64_t> v;
    for (int i = 0; i < d.rank(); ++i) v.push_back(d.dim(i));
    return v;
}

/// The reference route for a form of a stated op the runtime lacks.
inline route_choice reference_because(std::string why) {
    return {route::reference, TSR_REASON_ATTRIBUTE, std::move(why)};
}

inline route_choice native(route how) {
    return {how, TSR_REASON_NONE, {}};
}

/// States `Op` as native in every form, run by Step(node, op, ctx).
template <typename Op, typename Step>
void state_native_step(router& r) {
    r.state<Op>(
        [](const Op&, const query_view& v) {
            return answer(native(route::native_plain), v.in, v.out);
        },
        [](const Op& o, const build_context& b) -> std::unique_ptr<step> {
            return std::make_unique<Step>(b.node, o, b.ctx);
        });
}

/// Whether the runtime has the activation `spec`.
inline bool runtime_has(const activation_spec& spec) {
    runtime::ActivationInfo unused;
    return to_runtime(spec.to_c(), unused);
}

/// The activation `spec` on the runtime (identity when it has none).
inline runtime::ActivationInfo runtime_activation(const activation_spec& spec) {
    runtime::ActivationInfo act;
    to_runtime(spec.to_c(), act);
    return act;
}

}  // namespace tessera::plugins::cpu
