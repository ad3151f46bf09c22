// probe_host: a register tile of 6 x 2 vectors fed by broadcasts and vector loads from a 16 KiB
// buffer in L1, the pattern our kernels spend their time in (AVX2+FMA where the CPU has it, plain
// floats otherwise), timed chunk by chunk. Register-only FMA chains barely notice the shared VMs'
// noisy state (1.00-1.01); this pattern slows by 1.1-1.4 in it, as the kernels do.
#include "host_probe.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tessera::cpu::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kBufferFloats = 4096;  // 16 KiB
constexpr int kPasses = 40;

double micros(Clock::time_point start, Clock::time_point end) {
    return std::chrono::duration<double, std::micro>(end - start).count();
}

/// One chunk: kPasses sweeps over `buffer`, 6 broadcasts and 2 loads of 8 floats per step.
double time_chunk_plain(const float* buffer) {
    float acc[6][16] = {};
    const auto start = Clock::now();
    for (int pass = 0; pass < kPasses; ++pass)
        for (int i = 0; i + 16 <= kBufferFloats - 8; i += 8)
            for (int p = 0; p < 6; ++p)
                for (int j = 0; j < 16; ++j) acc[p][j] += buffer[i + p] * buffer[i + j];
    const auto end = Clock::now();
    volatile float sink = 0;
    for (const auto& row : acc) sink = sink + row[0];
    return micros(start, end);
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) double time_chunk_fma(const float* buffer) {
    __m256 acc[12];
    for (__m256& a : acc) a = _mm256_setzero_ps();
    const auto start = Clock::now();
    for (int pass = 0; pass < kPasses; ++pass)
        for (int i = 0; i + 16 <= kBufferFloats - 8; i += 8) {
            const __m256 b0 = _mm256_loadu_ps(buffer + i), b1 = _mm256_loadu_ps(buffer + i + 8);
            for (int p = 0; p < 6; ++p) {
                const __m256 a = _mm256_broadcast_ss(buffer + i + p);
                acc[2 * p] = _mm256_fmadd_ps(a, b0, acc[2 * p]);
                acc[2 * p + 1] = _mm256_fmadd_ps(a, b1, acc[2 * p + 1]);
            }
        }
    const auto end = Clock::now();
    volatile float sink = 0;
    for (const __m256& a : acc) sink = sink + _mm256_cvtss_f32(a);
    return micros(start, end);
}
#endif

double time_chunk(const float* buffer) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return time_chunk_fma(buffer);
#endif
    return time_chunk_plain(buffer);
}

}  // namespace

HostProbe probe_host(int chunks) {
    const std::vector<float> buffer(kBufferFloats, 1e-3f);
    std::vector<double> times;
    for (int i = 0; i < std::max(chunks, 1); ++i) times.push_back(time_chunk(buffer.data()));
    std::sort(times.begin(), times.end());
    HostProbe probe;
    probe.median_us = times[times.size() / 2];
    probe.slowdown = probe.median_us / times.front();
    return probe;
}

}  // namespace tessera::cpu::bench
