// ops/transpose.cpp: transpose and permute on vxTensorTransposeNode, which swaps two dims. A
// permutation is written as the swaps that sort it (at most rank - 1 nodes, joined by virtual
// tensors); the identity is one node swapping a dim with itself (a copy). Exact for every type.
#include <utility>

#include "ops.hpp"

namespace tessera::plugins::openvx {

using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

/// The swaps (Tessera dims) turning src's dim order into `order` (output dim i = src dim
/// order[i]).
std::vector<std::pair<int, int>> swaps_of(const std::vector<int>& order) {
    std::vector<int> current(order.size());
    for (std::size_t i = 0; i < current.size(); ++i) current[i] = static_cast<int>(i);
    std::vector<std::pair<int, int>> swaps;
    for (std::size_t i = 0; i < order.size(); ++i) {
        std::size_t j = i;
        while (current[j] != order[i]) ++j;
        if (j != i) {
            std::swap(current[i], current[j]);
            swaps.emplace_back(static_cast<int>(i), static_cast<int>(j));
        }
    }
    return swaps;
}

std::unique_ptr<step> build_swaps(const std::vector<int>& order, const sdk::node& n,
                                  graph_builder& g) {
    const tensor_desc& src = g.desc(n.inputs[0]);
    const int rank = src.rank();
    auto swaps = swaps_of(order);
    if (swaps.empty()) swaps.emplace_back(0, 0);  // identity: a copy
    std::vector<std::int64_t> dims;
    for (int i = 0; i < rank; ++i) dims.push_back(src.dim(i));
    vx_tensor current = g.tensor(n.inputs[0]);
    for (std::size_t k = 0; k < swaps.size(); ++k) {
        const auto [a, b] = swaps[k];
        std::swap(dims[static_cast<std::size_t>(a)], dims[static_cast<std::size_t>(b)]);
        vx_tensor next;
        if (k + 1 == swaps.size()) {
            next = g.tensor(n.outputs[0]);
        } else {
            std::vector<vx_uint32> vx;
            for (int i = rank - 1; i >= 0; --i)
                vx.push_back(static_cast<vx_uint32>(dims[static_cast<std::size_t>(i)]));
            next = g.scratch(vx, g.format(n.inputs[0]));
        }
        g.own_node(
            vxTensorTransposeNode(g.graph(), current, next, static_cast<vx_uint32>(rank - 1 - a),
                                  static_cast<vx_uint32>(rank - 1 - b)),
            "vxTensorTransposeNode");
        current = next;
    }
    auto s = std::make_unique<step>();
    s->vx_nodes = static_cast<int>(swaps.size());
    return s;
}

std::vector<int> order_of(const op::permute& p) {
    return p.order();
}

support decide_rank(const descs& in, const descs&) {
    if (in[0].rank() < 1) return decline(TSR_REASON_SHAPE, "a scalar has no dims to transpose");
    return support::native();
}

support decide_transpose(const op::transpose&, const descs& in, const descs& out) {
    return decide_rank(in, out);
}
support decide_permute(const op::permute&, const descs& in, const descs& out) {
    return decide_rank(in, out);
}

std::unique_ptr<step> build_transpose(const op::transpose& t, const sdk::node& n,
                                      graph_builder& g) {
    return build_swaps(order_of(t.as_permute(g.desc(n.inputs[0]).rank())), n, g);
}
std::unique_ptr<step> build_permute(const op::permute& p, const sdk::node& n, graph_builder& g) {
    return build_swaps(order_of(p), n, g);
}

}  // namespace

void state_transpose(router& r) {
    r.state<op::transpose>(framed_rule(&decide_transpose), build_rule(&build_transpose));
    r.state<op::permute>(framed_rule(&decide_permute), build_rule(&build_permute));
}

}  // namespace tessera::plugins::openvx
