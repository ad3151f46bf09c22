// wait_for_quiet_threads: polls the state letter of every task in /proc/self/task.
#include "quiet_threads.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace tessera::cpu::bench {
namespace {

/// The state letter of a /proc/<pid>/task/<tid>/stat line ('R' running, 'S' sleeping, ...): the
/// first field after the parenthesised command name.
char task_state(const std::filesystem::path& task) {
    std::ifstream in(task / "stat");
    std::string line;
    std::getline(in, line);
    const std::size_t close = line.rfind(')');
    return close == std::string::npos || close + 2 >= line.size() ? '?' : line[close + 2];
}

bool others_quiet() {
    const std::string self = std::to_string(static_cast<long>(syscall(SYS_gettid)));
    std::error_code ec;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec))
        if (task.path().filename() != self && task_state(task.path()) == 'R') return false;
    return !ec;
}

}  // namespace

bool wait_for_quiet_threads(std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (!others_quiet()) {
        if (std::chrono::steady_clock::now() >= until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

}  // namespace tessera::cpu::bench
