// program.cpp: building and running a compiled cpu partition.
#include "program.hpp"

#include <tessera/cpu/error.hpp>

#include "blocked_layout.hpp"

namespace tessera::cpu_plugin {

program::program(const sdk::partition& p, const cpu::Context& ctx)
    : tensor_count_(p.tensors.size()), memory_(ctx.memory_manager()) {
    for (const auto& n : p.nodes) {
        try {
            steps_.push_back(make_step(p, n, ctx, memory_));
        } catch (const cpu::Error& e) {
            throw error(status::backend_failure, e.what(), {backend_name, n.name, ""});
        }
    }
}

void program::execute(const std::vector<sdk::buffer*>& buffers) {
    if (buffers.size() != tensor_count_) {
        throw error(status::invalid_argument,
                    "expected " + std::to_string(tensor_count_) + " buffers, got " + std::to_string(buffers.size()), {backend_name, "", ""});
    }
    for (auto* b : buffers)
        if (!b || !b->host_data()) throw error(status::invalid_argument, "a buffer is missing", {backend_name, "", ""});
    try {
        for (auto& s : steps_) s->run(buffers);
    } catch (const cpu::Error& e) {
        throw error(status::backend_failure, e.what(), {backend_name, "", ""});
    }
}

}  // namespace tessera::cpu_plugin
