// compile_report.hpp: what the cpu plugin made of the partitions of its latest compile: how many
// graph nodes it got, how many steps it runs them in, how many nodes were fused into a
// convolution. Exported as a C function so tests and tools can ask the loaded plugin (dlsym).
#pragma once

#include <stdint.h>

#include <tessera/c/plugin.h>

extern "C" {

typedef struct tsr_cpu_compile_report {
    uint32_t struct_size;
    int32_t partitions;  /* partitions compiled since the counters were reset */
    int32_t nodes;       /* their nodes */
    int32_t steps;       /* the steps that run them */
    int32_t fused_nodes; /* batchnorm/activation nodes folded into a convolution's step */
} tsr_cpu_compile_report;

/* Copies the counters into *out (up to out->struct_size bytes); with reset != 0 zeroes them. */
TSR_PLUGIN_EXPORT void tsr_cpu_compile_report_get(tsr_cpu_compile_report* out, int32_t reset);
}

namespace tessera::cpu_plugin {

/// Adds one compiled partition to the counters.
void record_compile(int nodes, int steps, int fused_nodes);

}  // namespace tessera::cpu_plugin
