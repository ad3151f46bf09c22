// native_step.hpp: one node of a compiled partition. A native step owns runtime tensors that
// alias the partition's buffers and a configured runtime function; a reference step runs the
// reference kernel on the same buffers.
#pragma once

#include <memory>
#include <vector>

#include <tessera/cpu/context.hpp>
#include <tessera/cpu/function.hpp>
#include <tessera/cpu/memory.hpp>
#include <tessera/cpu/tensor.hpp>
#include <tessera/sdk/backend.hpp>

namespace tessera::cpu_plugin {

class step {
  public:
    virtual ~step() = default;
    /// Runs the node with the partition's buffers (indexed by partition tensor id).
    virtual void run(const std::vector<sdk::buffer*>& buffers) = 0;
    /// Whether the node runs on the reference kernels rather than the runtime.
    virtual bool emulated() const { return false; }
};

/// Builds the step for node `n` of partition `p`.
std::unique_ptr<step> make_step(const sdk::partition& p, const sdk::node& n,
                                const cpu::Context& ctx,
                                const std::shared_ptr<cpu::MemoryManager>& memory);

}  // namespace tessera::cpu_plugin
