// Waiting until a process's other threads are idle, so that one library's workers still spinning
// after its last call (OpenMP's spin-wait lasts milliseconds) do not take cores from the library
// measured next in the same process.
#pragma once

#include <chrono>

namespace tessera::cpu::bench {

/// Sleeps until no thread of this process but the caller is running (read from /proc/self/task),
/// or until `limit` has passed; returns whether the process went quiet.
bool wait_for_quiet_threads(std::chrono::milliseconds limit = std::chrono::milliseconds(500));

}  // namespace tessera::cpu::bench
