// A fixed kernel-like workload (broadcasts and loads from L1 into FMAs) timed before each paired
// benchmark, so that every result says how fast the host ran while it was measured: both of our
// machines are shared VMs whose load/FMA throughput drops by 10-40% at times (another tenant),
// which hits the two libraries unequally.
#pragma once

namespace tessera::cpu::bench {

struct HostProbe {
    double median_us = 0;  ///< median time of one chunk of the workload
    double slowdown = 1;   ///< median / fastest chunk: ~1.0 on an idle host, 1.1-1.4 when other load shares it
};

/// Times `chunks` chunks (about 110 us each on the AVX2 box) on the calling thread.
HostProbe probe_host(int chunks = 100);

}  // namespace tessera::cpu::bench
