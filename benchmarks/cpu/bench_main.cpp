// bench_cpu entry: registers every case pair at the thread counts of --threads LIST (default
// 1,2; e.g. --threads 1,2,4,8,16 for a scaling run; names end in /<n>T), then runs Google
// Benchmark with the other arguments.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace tessera::cpu::bench {
void register_sgemm_benchmarks(const std::vector<int>& thread_counts);
void register_conv_benchmarks(const std::vector<int>& thread_counts);
}  // namespace tessera::cpu::bench

namespace {

/// "1,2,4" -> {1, 2, 4}; empty when an entry is not a positive integer.
std::vector<int> parse_thread_list(const std::string& list) {
    std::vector<int> counts;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        std::size_t used = 0;
        int n = 0;
        try {
            n = std::stoi(item, &used);
        } catch (const std::exception&) {
            return {};
        }
        if (used != item.size() || n < 1) return {};
        counts.push_back(n);
    }
    return counts;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> threads{1, 2};
    // Take --threads LIST / --threads=LIST out of argv before Google Benchmark reads it.
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        std::string list;
        if (arg == "--threads" && i + 1 < argc) {
            list = argv[++i];
        } else if (arg.rfind("--threads=", 0) == 0) {
            list = arg.substr(10);
        } else {
            argv[kept++] = argv[i];
            continue;
        }
        threads = parse_thread_list(list);
        if (threads.empty()) {
            std::fprintf(stderr, "bench_cpu: --threads needs positive integers, got '%s'\n",
                         list.c_str());
            return 2;
        }
    }
    argc = kept;
    tessera::cpu::bench::register_sgemm_benchmarks(threads);
    tessera::cpu::bench::register_conv_benchmarks(threads);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
