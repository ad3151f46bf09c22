// compile_report.cpp: the process-wide counters behind tsr_cpu_compile_report_get.
#include "compile_report.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace tessera::cpu_plugin {

namespace {

struct counters {
    std::mutex mutex;
    tsr_cpu_compile_report report{sizeof(tsr_cpu_compile_report), 0, 0, 0, 0};
};

counters& state() {
    static counters c;
    return c;
}

}  // namespace

void record_compile(int nodes, int steps, int fused_nodes) {
    counters& c = state();
    const std::lock_guard<std::mutex> lock(c.mutex);
    ++c.report.partitions;
    c.report.nodes += nodes;
    c.report.steps += steps;
    c.report.fused_nodes += fused_nodes;
}

}  // namespace tessera::cpu_plugin

extern "C" TSR_PLUGIN_EXPORT void tsr_cpu_compile_report_get(tsr_cpu_compile_report* out,
                                                             int32_t reset) {
    if (!out || out->struct_size < sizeof out->struct_size) return;
    auto& c = tessera::cpu_plugin::state();
    const std::lock_guard<std::mutex> lock(c.mutex);
    const std::size_t n = std::min<std::size_t>(out->struct_size, sizeof c.report);
    const std::uint32_t size = out->struct_size;
    std::memcpy(out, &c.report, n);
    out->struct_size = size;
    if (reset) c.report = tsr_cpu_compile_report{sizeof(tsr_cpu_compile_report), 0, 0, 0, 0};
}
