// program.cpp: building and running a compiled cpu partition.
#include "program.hpp"

#include <tessera/cpu/error.hpp>

#include "blocked_layout.hpp"
#include "fused_step.hpp"
#include "fusion.hpp"

namespace tessera::cpu_plugin {

program::program(const sdk::partition& p, const cpu::Context& ctx)
    : tensor_count_(p.tensors.size()), memory_(ctx.memory_manager()) {
    const std::vector<conv_chain> chains = plan_fusion(p);
    int fused = 0, emulated = 0, reorders = 0;
    for (std::size_t i = 0; i < p.nodes.size(); ++i) {
        const sdk::node& n = p.nodes[i];
        const conv_chain& chain = chains[i];
        reorders += n.op.kind() == TSR_OP_REORDER;
        try {
            if (chain.conv < 0) {
                steps_.push_back(make_step(p, n, ctx, memory_));
                emulated += steps_.back()->emulated();
            } else if (chain.conv == static_cast<int>(i)) {
                steps_.push_back(make_fused_step(p, chain, ctx, memory_));
            } else {
                ++fused;  // runs inside its chain's step
            }
        } catch (const cpu::Error& e) {
            throw error(status::backend_failure, e.what(), {backend_name, n.name, ""});
        }
    }
    stats_.nodes = static_cast<int>(p.nodes.size());
    stats_.steps = static_cast<int>(steps_.size());
    stats_.fused_nodes = fused;
    stats_.emulated_nodes = emulated;
    stats_.reorders = reorders;
}

void program::execute(const std::vector<sdk::buffer*>& buffers) {
    if (buffers.size() != tensor_count_) {
        throw error(status::invalid_argument,
                    "expected " + std::to_string(tensor_count_) + " buffers, got " +
                        std::to_string(buffers.size()),
                    {backend_name, "", ""});
    }
    for (auto* b : buffers)
        if (!b || !b->host_data())
            throw error(status::invalid_argument, "a buffer is missing", {backend_name, "", ""});
    try {
        for (auto& s : steps_) s->run(buffers);
    } catch (const cpu::Error& e) {
        throw error(status::backend_failure, e.what(), {backend_name, "", ""});
    }
}

}  // namespace tessera::cpu_plugin
