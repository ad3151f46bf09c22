#!/usr/bin/env bash
# ThreadSanitizer run: configures build-tsan with -DTESSERA_TSAN=ON (cpu backend only), builds
# only the graph, cpu plugin, plugin loader and thread tests, and runs them; any race report
# fails its test. The cpu runtime is built without oneTBB (TESSERA_CPU_WITH_TBB=OFF): libtbb is
# not instrumented, so TSan cannot see the synchronisation between a parallel_for's workers and
# its caller and reports every buffer a worker touched as racing with the caller's next access.
#   TSAN_JOBS       build and test jobs (default: nproc)
#   TSAN_BUILD_DIR  build directory (default build-tsan)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${TSAN_JOBS:-$(nproc)}
build=${TSAN_BUILD_DIR:-build-tsan}
start=$(date +%s)

echo "== ThreadSanitizer build ($build)"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g" \
  -DCMAKE_C_FLAGS_RELEASE="-O1 -g" -DTESSERA_TSAN=ON -DTESSERA_BACKENDS=cpu -DTESSERA_CPU_WITH_TBB=OFF \
  -DTESSERA_BUILD_BENCHMARKS=OFF -DTESSERA_BUILD_EXAMPLES=OFF >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
tests=(graph_tests cpu_plugin_tests plugin_tests plugin_discovery_tests thread_tests)
cmake --build "$build" -j"$jobs" --target "${tests[@]}"
echo "tsan: build took $(( $(date +%s) - start )) s"

# halt_on_error: the first race fails the test; second_deadlock_stack: both stacks of a
# lock-order inversion.
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:history_size=4"
pattern="^($(IFS='|'; echo "${tests[*]}")):"  # CTest names are "<executable>:<test case>"
ctest --test-dir "$build" -j"$jobs" --output-on-failure --no-tests=error --timeout 1200 -R "$pattern"
echo "tsan: build and tests passed in $(( $(date +%s) - start )) s"
