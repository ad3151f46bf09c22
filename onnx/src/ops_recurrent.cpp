// ops_recurrent.cpp: ONNX RNN, LSTM and GRU unrolled at load over the static sequence length:
// each step is a gemm of the step's input with W^T and of the hidden state with R^T (biases
// folded into the gemms), gate slices and activations, in every direction. sequence_lens must be
// absent or equal the sequence length everywhere; activations Sigmoid, Tanh and Relu; no clip.
#include <functional>

#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

enum class cell { rnn, lstm, gru };

/// The weights of one direction as graph tensors.
struct direction_weights {
    graph::tensor_id w = -1, r = -1;    ///< [G*H, I], [G*H, H]
    graph::tensor_id wb = -1, rb = -1;  ///< [G*H] each, or -1
    graph::tensor_id peephole = -1;     ///< LSTM [3H] (i, o, f), or -1
    graph::tensor_id h0 = -1, c0 = -1;  ///< [B, H]
};

graph::tensor_id slice_of(context& ctx, graph::tensor_id t, int axis, std::int64_t begin,
                          std::int64_t end) {
    op::slice s;
    s.set_dim(axis, begin, end);
    return ctx.emit(s, {t});
}

graph::tensor_id sum_of(context& ctx, graph::tensor_id a, graph::tensor_id b) {
    return ctx.emit(op::binary(binary_kind::add), {a, b});
}

graph::tensor_id product_of(context& ctx, graph::tensor_id a, graph::tensor_id b) {
    return ctx.emit(op::binary(binary_kind::mul), {a, b});
}

/// a [B, K] x w^T ([N, K]) + bias [N] (bias -1: none).
graph::tensor_id times_transposed(context& ctx, graph::tensor_id a, graph::tensor_id w,
                                  graph::tensor_id bias) {
    op::gemm g;
    g.transpose(false, true);
    if (bias < 0) {
        g.scales(1.0f, 0.0f);
        return ctx.emit(g, {a, w});
    }
    return ctx.emit(g, {a, w, bias});
}

using activation_fn = std::function<graph::tensor_id(graph::tensor_id)>;

activation_fn activation_named(context& ctx, const std::string& name) {
    activation_kind kind{};
    if (name == "Sigmoid")
        kind = activation_kind::sigmoid;
    else if (name == "Tanh")
        kind = activation_kind::tanh;
    else if (name == "Relu")
        kind = activation_kind::relu;
    else
        ctx.unsupported("activation '" + name + "' (Sigmoid, Tanh, Relu are supported)");
    return [&ctx, kind](graph::tensor_id t) { return ctx.emit(op::activation(kind), {t}); };
}

void map_recurrent(context& ctx, cell type) {
    const int gates = type == cell::lstm ? 4 : type == cell::gru ? 3 : 1;
    const std::int64_t hidden = ctx.attr_int("hidden_size", 0);
    if (hidden < 1) ctx.unsupported("hidden_size must be given");
    if (ctx.attr("clip")) ctx.unsupported("attribute clip");
    if (type == cell::lstm && ctx.attr_int("input_forget", 0) != 0)
        ctx.unsupported("input_forget = 1");
    const bool batch_first = ctx.attr_int("layout", 0) != 0;
    const std::string direction = ctx.attr_string("direction", "forward");
    if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
        ctx.unsupported("direction '" + direction + "'");
    const int dirs = direction == "bidirectional" ? 2 : 1;
    auto x = ctx.tensor_input(0);
    if (!is_floating(ctx.desc_of(x).type())) ctx.unsupported("X is not floating");
    if (batch_first) {
        op::permute p;
        p.set_order({1, 0, 2});
        x = ctx.emit(p, {x});
    }
    const shape xd = ctx.desc_of(x).dims();
    if (xd.rank() != 3) ctx.unsupported("X is not 3-D");
    const std::int64_t steps = xd[0], batch = xd[1], features = xd[2];
    if (ctx.has_input(4)) {
        for (auto len : integers(ctx.constant_input(4, "sequence_lens")))
            if (len != steps) ctx.unsupported("sequence_lens shorter than the sequence");
    }
    // Activations: per direction f, g (, h for LSTM).
    const std::vector<std::string> defaults =
        type == cell::rnn   ? std::vector<std::string>{"Tanh"}
        : type == cell::gru ? std::vector<std::string>{"Sigmoid", "Tanh"}
                            : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"};
    std::vector<std::string> names;
    if (const auto* a = ctx.attr("activations"))
        names.assign(a->strings().begin(), a->strings().end());
    if (ctx.attr("activation_alpha") || ctx.attr("activation_beta"))
        ctx.unsupported("activation_alpha / activation_beta");
    if (names.empty())
        for (int d = 0; d < dirs; ++d) names.insert(names.end(), defaults.begin(), defaults.end());
    if (names.size() != defaults.size() * static_cast<std::size_t>(dirs))
        ctx.unsupported("activations must name " + std::to_string(defaults.size()) +
                        " functions per direction");
    const std::int64_t gh = gates * hidden;
    const auto w_all = ctx.tensor_input(1), r_all = ctx.tensor_input(2);
    if (ctx.desc_of(w_all).dims() != shape{dirs, gh, features} ||
        ctx.desc_of(r_all).dims() != shape{dirs, gh, hidden})
        ctx.unsupported("W or R does not match hidden_size, the input size and direction");
    const auto per_direction = [&](graph::tensor_id t, int d, const shape& dims) {
        return ctx.reshape(slice_of(ctx, t, 0, d, d + 1), dims);
    };
    const dtype type_x = ctx.desc_of(x).type();
    const auto zeros = [&](const std::vector<std::int64_t>& dims) {
        host_tensor z = make_host(onnx_type(type_x), dims);
        return ctx.constant_tensor(z, ctx.node_label + "/zeros");
    };
    std::vector<graph::tensor_id> y_dirs, h_dirs, c_dirs;
    for (int d = 0; d < dirs; ++d) {
        direction_weights wt;
        wt.w = per_direction(w_all, d, shape{gh, features});
        wt.r = per_direction(r_all, d, shape{gh, hidden});
        if (ctx.has_input(3)) {
            const auto b = per_direction(ctx.tensor_input(3), d, shape{2 * gh});
            wt.wb = slice_of(ctx, b, 0, 0, gh);
            wt.rb = slice_of(ctx, b, 0, gh, 2 * gh);
        }
        wt.h0 = ctx.has_input(5) ? per_direction(ctx.tensor_input(5), d, shape{batch, hidden})
                                 : zeros({batch, hidden});
        if (type == cell::lstm) {
            wt.c0 = ctx.has_input(6) ? per_direction(ctx.tensor_input(6), d, shape{batch, hidden})
                                     : zeros({batch, hidden});
            if (ctx.has_input(7))
                wt.peephole = per_direction(ctx.tensor_input(7), d, shape{3 * hidden});
        }
        const std::size_t first = static_cast<std::size_t>(d) * defaults.size();
        const auto f = activation_named(ctx, names[first]);
        const auto g = defaults.size() > 1 ? activation_named(ctx, names[first + 1]) : f;
        const auto h = defaults.size() > 2 ? activation_named(ctx, names[first + 2]) : f;
        const bool reverse = direction == "reverse" || d == 1;
        const bool linear_before_reset = ctx.attr_int("linear_before_reset", 0) != 0;
        graph::tensor_id state = wt.h0, memory = wt.c0;
        std::vector<graph::tensor_id> outputs(static_cast<std::size_t>(steps));
        for (std::int64_t k = 0; k < steps; ++k) {
            const std::int64_t t = reverse ? steps - 1 - k : k;
            const auto xt = ctx.reshape(slice_of(ctx, x, 0, t, t + 1), shape{batch, features});
            const auto xw = times_transposed(ctx, xt, wt.w, wt.wb);
            const auto gate = [&](graph::tensor_id all, int n) {
                return slice_of(ctx, all, 1, n * hidden, (n + 1) * hidden);
            };
            if (type == cell::rnn) {
                state = f(sum_of(ctx, xw, times_transposed(ctx, state, wt.r, wt.rb)));
            } else if (type == cell::lstm) {
                const auto all = sum_of(ctx, xw, times_transposed(ctx, state, wt.r, wt.rb));
                const auto peep = [&](graph::tensor_id pre, int n, graph::tensor_id c) {
                    if (wt.peephole < 0) return pre;
                    const auto p = slice_of(ctx, wt.peephole, 0, n * hidden, (n + 1) * hidden);
                    return sum_of(ctx, pre, product_of(ctx, p, c));
                };
                // ONNX gate order i, o, f, c; peepholes i, o, f.
                const auto i = f(peep(gate(all, 0), 0, memory));
                const auto fg = f(peep(gate(all, 2), 2, memory));
                const auto candidate = g(gate(all, 3));
                memory = sum_of(ctx, product_of(ctx, fg, memory), product_of(ctx, i, candidate));
                const auto o = f(peep(gate(all, 1), 1, memory));
                state = product_of(ctx, o, h(memory));
            } else {
                // ONNX gate order z, r, h.
                const auto hr = times_transposed(ctx, state, wt.r, wt.rb);
                const auto z = f(sum_of(ctx, gate(xw, 0), gate(hr, 0)));
                const auto r = f(sum_of(ctx, gate(xw, 1), gate(hr, 1)));
                graph::tensor_id recurrent;
                if (linear_before_reset) {
                    recurrent = product_of(ctx, r, gate(hr, 2));
                } else {
                    const auto rh = slice_of(ctx, wt.r, 0, 2 * hidden, 3 * hidden);
                    const auto rbh =
                        wt.rb < 0 ? -1 : slice_of(ctx, wt.rb, 0, 2 * hidden, 3 * hidden);
                    recurrent = times_transposed(ctx, product_of(ctx, r, state), rh, rbh);
                }
                const auto candidate = g(sum_of(ctx, gate(xw, 2), recurrent));
                // H = (1 - z) * candidate + z * H = candidate + z * (H - candidate).
                const auto delta = ctx.emit(op::binary(binary_kind::sub), {state, candidate});
                state = sum_of(ctx, candidate, product_of(ctx, z, delta));
            }
            outputs[static_cast<std::size_t>(t)] = ctx.reshape(state, shape{1, 1, batch, hidden});
        }
        y_dirs.push_back(outputs.size() == 1 ? outputs[0]
                                             : ctx.emit(op::concat(0), outputs));  // [T, 1, B, H]
        h_dirs.push_back(ctx.reshape(state, shape{1, batch, hidden}));
        if (type == cell::lstm) c_dirs.push_back(ctx.reshape(memory, shape{1, batch, hidden}));
    }
    const auto joined = [&](const std::vector<graph::tensor_id>& parts, int axis) {
        return parts.size() == 1 ? parts[0] : ctx.emit(op::concat(axis), parts);
    };
    if (ctx.has_output(0)) {
        auto y = joined(y_dirs, 1);  // [T, D, B, H]
        if (batch_first) {
            op::permute p;
            p.set_order({2, 0, 1, 3});
            y = ctx.emit(p, {y});
        }
        ctx.reshape(y, ctx.desc_of(y).dims(), ctx.output_name(0));
    }
    const auto final_state = [&](const std::vector<graph::tensor_id>& parts, std::size_t out) {
        if (!ctx.has_output(out)) return;
        auto s = joined(parts, 0);  // [D, B, H]
        if (batch_first) {
            op::permute p;
            p.set_order({1, 0, 2});
            s = ctx.emit(p, {s});
        }
        ctx.reshape(s, ctx.desc_of(s).dims(), ctx.output_name(out));
    };
    final_state(h_dirs, 1);
    if (type == cell::lstm) final_state(c_dirs, 2);
}

}  // namespace

void register_recurrent(mapper_table& t) {
    t["RNN"] = [](context& c) { map_recurrent(c, cell::rnn); };
    t["LSTM"] = [](context& c) { map_recurrent(c, cell::lstm); };
    t["GRU"] = [](context& c) { map_recurrent(c, cell::gru); };
}

}  // namespace tessera::onnx::detail
