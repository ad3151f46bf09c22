// program.hpp: a compiled partition of the cpu backend: one step per node or fused chain
// (fusion.hpp), sharing one memory manager so the runtime's temporaries are recycled across the
// partition's functions.
#pragma once

#include <memory>
#include <vector>

#include "native_step.hpp"

namespace tessera::cpu_plugin {

class program final : public sdk::executable {
  public:
    program(const sdk::partition& p, const cpu::Context& ctx);
    void execute(const std::vector<sdk::buffer*>& buffers) override;
    /// Nodes, steps, nodes fused into a convolution's step, nodes on the reference kernels and
    /// reorder nodes, counted when the partition was compiled.
    compile_stats stats() const override { return stats_; }

  private:
    compile_stats stats_;
    std::size_t tensor_count_;
    std::shared_ptr<cpu::MemoryManager> memory_;
    std::vector<std::unique_ptr<step>> steps_;
};

}  // namespace tessera::cpu_plugin
