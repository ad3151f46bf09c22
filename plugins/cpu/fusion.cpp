// fusion.cpp: finding conv -> batchnorm -> activation chains in a cpu partition (see fusion.hpp).
#include "fusion.hpp"

#include "op_mapping.hpp"

namespace tessera::cpu_plugin {

namespace {

route choose(const sdk::partition& p, const sdk::node& n) {
    std::vector<tensor_desc> in, out;
    for (int id : n.inputs) in.push_back(p.tensors[static_cast<std::size_t>(id)]);
    for (int id : n.outputs) out.push_back(p.tensors[static_cast<std::size_t>(id)]);
    return choose_route(n.op, in, out).how;
}

/// Facts about the partition's tensors: which node writes each, how many inputs read it.
struct tensor_use {
    std::vector<int> producer;
    std::vector<int> reads;

    explicit tensor_use(const sdk::partition& p)
        : producer(p.tensors.size(), -1), reads(p.tensors.size(), 0) {
        for (std::size_t i = 0; i < p.nodes.size(); ++i) {
            for (int id : p.nodes[i].inputs) ++reads[static_cast<std::size_t>(id)];
            for (int id : p.nodes[i].outputs)
                producer[static_cast<std::size_t>(id)] = static_cast<int>(i);
        }
    }
};

/// Whether node `next` may absorb the output of node `prev` (its only input 0, read nowhere else).
bool feeds_only(const sdk::partition& p, const tensor_use& use, int prev, int next) {
    if (next >= static_cast<int>(p.nodes.size())) return false;
    const sdk::node& a = p.nodes[static_cast<std::size_t>(prev)];
    const sdk::node& b = p.nodes[static_cast<std::size_t>(next)];
    if (a.outputs.size() != 1 || b.outputs.size() != 1 || b.inputs.empty()) return false;
    const int t = a.outputs[0];
    return b.inputs[0] == t && use.reads[static_cast<std::size_t>(t)] == 1 && !p.is_read_later(t) &&
           p.tensors[static_cast<std::size_t>(b.outputs[0])] ==
               p.tensors[static_cast<std::size_t>(t)];
}

/// Whether every input of `n` but the first exists before node `first` runs.
bool parameters_ready(const sdk::node& n, const tensor_use& use, int first) {
    for (std::size_t i = 1; i < n.inputs.size(); ++i)
        if (use.producer[static_cast<std::size_t>(n.inputs[i])] >= first) return false;
    return true;
}

bool foldable_conv(const sdk::partition& p, const sdk::node& n) {
    const auto* c = n.op.get_if<op::conv2d>();
    if (!c || c->fuse_batchnorm || c->activation.kind != TSR_ACT_NONE ||
        choose(p, n) != route::native_blocked)
        return false;
    if (c->has_bias && p.tensors[static_cast<std::size_t>(n.inputs[2])].rank() != 1) return false;
    return true;
}

bool foldable_batchnorm(const sdk::partition& p, const sdk::node& n) {
    const auto* bn = n.op.get_if<op::batchnorm>();
    return bn && bn->mode == TSR_BATCHNORM_STATISTICS && bn->activation.kind != TSR_ACT_PRELU &&
           choose(p, n) == route::native_blocked;
}

bool foldable_activation(const sdk::partition& p, const sdk::node& n) {
    return n.op.get_if<op::activation>() && choose(p, n) == route::native_blocked;
}

}  // namespace

std::vector<int> conv_chain::nodes() const {
    std::vector<int> v{conv};
    if (batchnorm >= 0) v.push_back(batchnorm);
    if (activation >= 0) v.push_back(activation);
    return v;
}

std::vector<conv_chain> plan_fusion(const sdk::partition& p) {
    const tensor_use use(p);
    std::vector<conv_chain> plan(p.nodes.size());
    for (int i = 0; i < static_cast<int>(p.nodes.size()); ++i) {
        if (plan[static_cast<std::size_t>(i)].conv >= 0 ||
            !foldable_conv(p, p.nodes[static_cast<std::size_t>(i)]))
            continue;
        conv_chain chain;
        chain.conv = i;
        int last = i;
        if (feeds_only(p, use, last, last + 1) &&
            foldable_batchnorm(p, p.nodes[static_cast<std::size_t>(last + 1)]) &&
            parameters_ready(p.nodes[static_cast<std::size_t>(last + 1)], use, i)) {
            chain.batchnorm = ++last;
        }
        const bool bn_has_activation =
            chain.batchnorm >= 0 && p.nodes[static_cast<std::size_t>(chain.batchnorm)]
                                            .op.get_if<op::batchnorm>()
                                            ->activation.kind != TSR_ACT_NONE;
        if (!bn_has_activation && feeds_only(p, use, last, last + 1) &&
            foldable_activation(p, p.nodes[static_cast<std::size_t>(last + 1)]))
            chain.activation = ++last;
        if (last == i) continue;
        for (int n : chain.nodes()) plan[static_cast<std::size_t>(n)] = chain;
    }
    return plan;
}

}  // namespace tessera::cpu_plugin
