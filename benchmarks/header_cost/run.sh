#!/usr/bin/env bash
# Header cost: how long one user file takes to compile at -O0 when it includes
# <tessera/tessera.hpp> and does typical work (tessera_use.cpp: build a graph, compile, run),
# against the same work written with oneDNN's dnnl.hpp (dnnl_use.cpp; Debian: libdnnl-dev).
# Both are compiled in alternation in one run, RUNS times each; the medians and their ratio are
# printed, with CPU time (user + system, steadier on a busy machine) and wall time. The target is
# a CPU-time ratio of at most 1.5.
# Usage: benchmarks/header_cost/run.sh [RUNS]   (default 7; environment: CXX, default c++)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
include_dir=$(cd "$here/../../include" && pwd)
runs=${1:-7}
cxx=${CXX:-c++}
if ((runs < 5)); then
  echo "use at least 5 runs" >&2
  exit 2
fi
if [[ ! -f /usr/include/oneapi/dnnl/dnnl.hpp ]]; then
  echo "oneDNN's dnnl.hpp is not installed (Debian: apt-get install libdnnl-dev)" >&2
  exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tessera-header-cost-XXXXXX")
trap 'rm -rf "$work"' EXIT

# Prints "<cpu seconds> <wall seconds>" for one compile of $1 (further arguments: flags).
time_compile() {
  local source=$1
  shift
  local start end
  start=$(date +%s.%N)
  TIMEFORMAT='%U %S'
  local cpu
  cpu=$({ time "$cxx" -std=c++17 -O0 "$@" -c "$source" -o "$work/out.o" 2> "$work/errors"; } 2>&1) ||
    { cat "$work/errors" >&2; exit 1; }
  end=$(date +%s.%N)
  awk -v c="$cpu" -v s="$start" -v e="$end" 'BEGIN { split(c, t, " "); printf "%.3f %.3f\n", t[1] + t[2], e - s }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: > "$work/tessera" && : > "$work/dnnl"
for ((i = 1; i <= runs; ++i)); do
  time_compile "$here/tessera_use.cpp" -I"$include_dir" >> "$work/tessera"
  time_compile "$here/dnnl_use.cpp" >> "$work/dnnl"
done

tessera_cpu=$(cut -d' ' -f1 "$work/tessera" | median)
tessera_wall=$(cut -d' ' -f2 "$work/tessera" | median)
dnnl_cpu=$(cut -d' ' -f1 "$work/dnnl" | median)
dnnl_wall=$(cut -d' ' -f2 "$work/dnnl" | median)
cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2> /dev/null || echo unknown)

echo "compiler:  $("$cxx" --version | head -1)"
echo "cpu:       $cpu_model ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "runs:      $runs each, alternating; medians in seconds"
printf '%-28s %8s %8s\n' "file (-O0)" "cpu" "wall"
printf '%-28s %8.2f %8.2f\n' "tessera.hpp (tessera_use)" "$tessera_cpu" "$tessera_wall"
printf '%-28s %8.2f %8.2f\n' "dnnl.hpp (dnnl_use)" "$dnnl_cpu" "$dnnl_wall"
awk -v tc="$tessera_cpu" -v dc="$dnnl_cpu" -v tw="$tessera_wall" -v dw="$dnnl_wall" 'BEGIN {
  printf "ratio tessera/dnnl: cpu %.2fx, wall %.2fx (target: cpu <= 1.50x)\n", tc / dc, tw / dw
}'
