#!/usr/bin/env bash
# device-run.sh OUT_DIR: runs a bundle made by device-bundle.sh on a remote GPU host: the CLML
# tests and seed sample and the Myriad tests on the NVIDIA OpenCL driver, then each benchmark in
# its own quiet process
# (pinned to two cores, as the CI machine has), JSON results into OUT_DIR.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/bench-out}
mkdir -p "$out" /tmp/tessera-icd
echo libnvidia-opencl.so.1 > /tmp/tessera-icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/tessera-icd
export LD_LIBRARY_PATH="$here${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
lscpu | grep -E "Model name|Flags" | cut -c1-200 > "$out/machine.txt"
status=0
if [ -x "$here"/clml_tests ] && [ "${CLML_TESTS:-1}" = 1 ]; then
  "$here"/clml_tests > "$out/clml_tests.txt" 2>&1 || status=1
  tail -3 "$out/clml_tests.txt"
  OPENCL_LAYERS="$here"/libtessera_clml_layer.so "$here"/clml_seed_sample --require-extension \
    > "$out/seed_sample.txt" 2>&1 || status=1
fi
export MYRIAD_STANDARD_LAYERS="$here/myriad-layers"
if [ -x "$here"/myriad_tests ] && [ "${MYRIAD_TESTS:-1}" = 1 ]; then
  "$here"/myriad_tests > "$out/myriad_tests.txt" 2>&1 || status=1
  tail -3 "$out/myriad_tests.txt"
fi
reps=${REPS:-5}
run_bench() {  # name, extra args...
  local name=$1
  shift
  taskset -c 0,1 "$here/$name" --benchmark_repetitions="$reps" --benchmark_enable_random_interleaving=true \
    --benchmark_out="$out/$name.json" --benchmark_out_format=json "$@" > "$out/$name.txt" 2>&1 ||
    status=1
  echo "$name: done"
}
# BENCHES picks which benchmarks run (default all four); BENCH_FILTER narrows their cases.
for b in ${BENCHES:-bench_cpu bench_zdnn bench_clml bench_myriad}; do
  [ -x "$here/$b" ] && run_bench "$b" ${BENCH_FILTER:+--benchmark_filter="$BENCH_FILTER"}
done
exit $status
