// Default scheduler of builds without oneTBB (e.g. the aarch64 cross build): sequential.
#include "tessera/cpu/scheduler.hpp"

namespace tessera::cpu {

std::unique_ptr<IScheduler> make_default_scheduler(int) {
    return std::make_unique<SequentialScheduler>();
}

bool has_parallel_scheduler() {
    return false;
}

}  // namespace tessera::cpu
