// fusion.cpp: finding fused chains in a cpu partition (see fusion.hpp).
#include "fusion.hpp"

namespace tessera::plugins::cpu {

namespace {

/// Facts about the partition's tensors: which node writes each, how many inputs read it and
/// which node reads it last.
struct tensor_use {
    std::vector<int> producer;
    std::vector<int> reads;
    std::vector<int> reader;

    explicit tensor_use(const sdk::partition& p)
        : producer(p.tensors.size(), -1), reads(p.tensors.size(), 0), reader(p.tensors.size(), -1) {
        for (std::size_t i = 0; i < p.nodes.size(); ++i) {
            for (int id : p.nodes[i].inputs) {
                ++reads[static_cast<std::size_t>(id)];
                reader[static_cast<std::size_t>(id)] = static_cast<int>(i);
            }
            for (int id : p.nodes[i].outputs)
                producer[static_cast<std::size_t>(id)] = static_cast<int>(i);
        }
    }

    /// The one node that reads node `n`'s only output, wherever it comes in the partition (nodes
    /// that do not touch the chain may lie between, as a ResNet shortcut convolution between a
    /// convolution and its activation); -1 when the output has several readers or none.
    int sole_reader(const sdk::partition& p, int n) const {
        const sdk::node& node = p.nodes[static_cast<std::size_t>(n)];
        if (node.outputs.size() != 1) return -1;
        const auto t = static_cast<std::size_t>(node.outputs[0]);
        return reads[t] == 1 ? reader[t] : -1;
    }
};

/// Whether node `next` may absorb the output of node `prev` (its only input 0, read nowhere else).
bool feeds_only(const sdk::partition& p, const tensor_use& use, int prev, int next) {
    if (next < 0 || next >= static_cast<int>(p.nodes.size())) return false;
    const sdk::node& a = p.nodes[static_cast<std::size_t>(prev)];
    const sdk::node& b = p.nodes[static_cast<std::size_t>(next)];
    if (a.outputs.size() != 1 || b.outputs.size() != 1 || b.inputs.empty()) return false;
    const int t = a.outputs[0];
    return b.inputs[0] == t && use.reads[static_cast<std::size_t>(t)] == 1 && !p.is_read_later(t) &&
           p.tensors[static_cast<std::size_t>(b.outputs[0])] ==
               p.tensors[static_cast<std::size_t>(t)];
}

/// The other operand of node `next` when it is an unscaled f32 add of the output of node `prev`
/// (read nowhere else) and a tensor of the add's output desc (blocked, 4-D) that exists before
/// node `first` runs; -1 otherwise.
int residual_operand(const sdk::partition& p, const tensor_use& use, int first, int prev,
                     int next) {
    if (next < 0 || next >= static_cast<int>(p.nodes.size())) return -1;
    const sdk::node& a = p.nodes[static_cast<std::size_t>(prev)];
    const sdk::node& b = p.nodes[static_cast<std::size_t>(next)];
    const auto* add = std::get_if<op::binary>(&b.op.variant());
    if (!add || add->kind() != binary_kind::add || add->alpha() != 1.0f || add->beta() != 1.0f ||
        add->uses_c() || b.inputs.size() != 2 || b.outputs.size() != 1 || a.outputs.size() != 1)
        return -1;
    const int t = a.outputs[0];
    const int k = b.inputs[0] == t ? 0 : b.inputs[1] == t ? 1 : -1;
    if (k < 0 || use.reads[static_cast<std::size_t>(t)] != 1 || p.is_read_later(t)) return -1;
    const int other = b.inputs[static_cast<std::size_t>(1 - k)];
    const tensor_desc& out = p.tensors[static_cast<std::size_t>(b.outputs[0])];
    if (other == t || out.type() != dtype::f32 || !is_blocked(out) ||
        p.tensors[static_cast<std::size_t>(t)] != out ||
        p.tensors[static_cast<std::size_t>(other)] != out ||
        use.producer[static_cast<std::size_t>(other)] >= first)
        return -1;
    return other;
}

/// Whether every input of `n` but the first exists before node `first` runs.
bool parameters_ready(const sdk::node& n, const tensor_use& use, int first) {
    for (std::size_t i = 1; i < n.inputs.size(); ++i)
        if (use.producer[static_cast<std::size_t>(n.inputs[i])] >= first) return false;
    return true;
}

}  // namespace

std::vector<int> fusion_chain::nodes() const {
    std::vector<int> v{head};
    if (normalization >= 0) v.push_back(normalization);
    if (residual >= 0) v.push_back(residual);
    if (epilogue >= 0) v.push_back(epilogue);
    return v;
}

std::vector<fusion_chain> plan_fusion(const sdk::partition& p,
                                      const std::function<fusion_role(int)>& role_of) {
    const tensor_use use(p);
    std::vector<fusion_chain> plan(p.nodes.size());
    for (int i = 0; i < static_cast<int>(p.nodes.size()); ++i) {
        if (plan[static_cast<std::size_t>(i)].head >= 0 || role_of(i).stage != fusion_stage::head)
            continue;
        // Each stage is the sole reader of the one before; the chain runs as one step where its
        // head is, so a stage's other inputs must exist before the head.
        fusion_chain chain;
        chain.head = i;
        int last = i;
        const auto ready = [&](int n) {
            return parameters_ready(p.nodes[static_cast<std::size_t>(n)], use, i);
        };
        int next = use.sole_reader(p, last);
        if (feeds_only(p, use, last, next)) {
            const fusion_role role = role_of(next);
            if (role.stage == fusion_stage::normalization && ready(next)) {
                chain.normalization = last = next;
                chain.normalization_role = role;
            }
        }
        const bool closed = chain.normalization >= 0 && chain.normalization_role.closes_chain;
        next = use.sole_reader(p, last);
        if (!closed && role_of(i).takes_residual) {
            const int other = residual_operand(p, use, i, last, next);
            if (other >= 0) {
                chain.residual = last = next;
                chain.residual_input = other;
            }
        }
        next = use.sole_reader(p, last);
        if (!closed && feeds_only(p, use, last, next)) {
            const fusion_role role = role_of(next);
            if (role.stage == fusion_stage::epilogue && ready(next)) {
                chain.epilogue = last = next;
                chain.epilogue_role = role;
            }
        }
        if (last == i) continue;
        for (int n : chain.nodes()) plan[static_cast<std::size_t>(n)] = chain;
    }
    return plan;
}

}  // namespace tessera::plugins::cpu
