// bench_cpu entry: registers every case pair, then runs Google Benchmark.
#include <benchmark/benchmark.h>

namespace tessera::cpu::bench {
void register_sgemm_benchmarks();
void register_conv_benchmarks();
}  // namespace tessera::cpu::bench

int main(int argc, char** argv) {
    tessera::cpu::bench::register_sgemm_benchmarks();
    tessera::cpu::bench::register_conv_benchmarks();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
