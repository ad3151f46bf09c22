// Context: creates the scheduler, weights manager and default memory manager, and selects the SIMD
// kernel table for the requested (or best available) instruction set.
#include "tessera/cpu/context.hpp"

#include <xsimd/xsimd.hpp>

#include "simd/kernel_table.hpp"
#include "tessera/cpu/error.hpp"

namespace tessera::cpu {
namespace {

const KernelTable* table_for(Isa isa) {
    const auto available = xsimd::available_architectures();
    switch (isa) {
        case Isa::avx512:
            return available.avx512bw ? kernel_table_avx512() : nullptr;
        case Isa::avx2:
            return available.fma3_avx2 ? kernel_table_avx2() : nullptr;
        case Isa::sse2:
            return available.sse2 ? kernel_table_sse2() : nullptr;
        case Isa::neon:
            return available.neon64 ? kernel_table_neon() : nullptr;
        case Isa::automatic:
            for (Isa candidate : {Isa::avx512, Isa::avx2, Isa::sse2, Isa::neon})
                if (const KernelTable* t = table_for(candidate)) return t;
            return nullptr;
    }
    return nullptr;
}

}  // namespace

Context::Context(const ContextOptions& options)
    : scheduler_(options.scheduler == SchedulerKind::sequential
                     ? std::make_unique<SequentialScheduler>()
                 : options.scheduler == SchedulerKind::thread_pool
                     ? make_thread_pool_scheduler(options.num_threads)
                     : make_default_scheduler(options.num_threads)),
      weights_(std::make_unique<WeightsManager>()),
      memory_(std::make_shared<MemoryManager>()),
      scratchpad_(std::make_unique<Scratchpad>()),
      kernels_(table_for(options.isa)),
      winograd_(options.winograd) {
    if (kernels_ == nullptr)
        throw Unsupported("Context", "",
                          "the requested instruction set is not available on this CPU/build");
}

Context::~Context() = default;

std::string Context::isa_name() const {
    return kernels_->isa;
}

bool Context::isa_available(Isa isa) {
    return table_for(isa) != nullptr;
}

}  // namespace tessera::cpu
