#!/usr/bin/env bash
# run.sh: the whole-model benchmarks. Builds gen_models, bench_model and the plugins they load
# (in its own build folder), writes the models, installs onnxruntime-node into a cache folder
# outside the repository when missing, then for each model and thread count times Tessera's cpu
# backend and ONNX Runtime's CPU execution provider on the same file and input and prints
#   model NAME threads N tessera_ms X ort_ms Y ratio X/Y max_diff D
# (medians of --runs runs after warm-up; max_diff is max |Tessera - ONNX Runtime| over the output).
# With --rounds R (default 1) the two are timed alternately R times, --runs runs each time, so that
# a busy or throttled host slows both alike: tessera_ms and ort_ms are the medians of the R
# medians, ratio the median of the R per-round ratios (each round's figures go to stderr, and so
# does a line `best model NAME threads N tessera_min_ms X ort_min_ms Y ratio X/Y` with the fastest
# single run of each over all rounds: interference from other tenants only ever slows a run).
# Each model also gets one line per other Tessera backend (--backends, default qcom-ml and zaiu,
# each with cpu as fallback for the ops it declines), timed once at the first thread count, median
# of --backend-runs runs (default 10: the emulated accelerators are slow):
#   model NAME backend B tessera_ms X max_diff D placement B:n,cpu:m
# and, when the cpu runs any op on reference kernels, the line
#   model NAME emulated_on_cpu K: node [op], ...
# A model the importer cannot load prints `model NAME import_failed: ...` with the nodes.
# With --pin FIRST both libraries run at N threads on the same N CPUs, FIRST to FIRST + N - 1
# (taskset, wrapping past the last CPU): on a virtual machine whose vCPUs differ in load, a process
# otherwise lands on whichever the scheduler picks, and single runs of either side move by 1.5x.
#
# usage: benchmarks/models/run.sh [--threads 1,2] [--runs 30] [--models a,b] [--backends qcom-ml,zaiu]
#                                 [--backend-runs 10] [--build-dir DIR] [--no-build]
#                                 [--cpu-options ,scheduler=pool] [--rounds 1] [--pin FIRST]
# --threads takes any counts (e.g. 1,2,4,8,16); --cpu-options is appended to each cpu config
# ("cpu:threads=N" + OPTIONS).
# Environment: TESSERA_BENCH_CACHE (default ~/.cache/tessera-bench) holds onnxruntime-node and the
# generated models; set ORT_NODE_MODULES to use another onnxruntime-node installation.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
threads=1,2
runs=30
backend_runs=10
models=""
backends=qcom-ml,zaiu
build_dir="$repo/build-models"
build=1
cpu_options=""
rounds=1
pin=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --threads) threads=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --backend-runs) backend_runs=$2; shift 2 ;;
    --models) models=$2; shift 2 ;;
    --backends) backends=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --cpu-options) cpu_options=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --pin) pin=$2; shift 2 ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

cache=${TESSERA_BENCH_CACHE:-$HOME/.cache/tessera-bench}
work="$cache/models"
mkdir -p "$work"

if [[ $build == 1 ]]; then
  if [[ ! -f "$build_dir/build.ninja" ]]; then
    cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DTESSERA_BUILD_TESTS=OFF -DTESSERA_BUILD_EXAMPLES=OFF -DTESSERA_BUILD_BENCHMARKS=ON >/dev/null
  fi
  plugins=(tessera_plugin_cpu tessera_plugin_reference)
  IFS=, read -r -a wanted_backends <<<"$backends"
  for b in "${wanted_backends[@]}"; do
    [[ -n "$b" ]] && plugins+=("tessera_plugin_${b//-/_}")
  done
  nice -n 5 ninja -C "$build_dir" -j2 gen_models bench_model "${plugins[@]}" >&2
fi
bench="$build_dir/benchmarks/models/bench_model"

if [[ -z "${ORT_NODE_MODULES:-}" ]]; then
  ORT_NODE_MODULES="$cache/ort/node_modules"
  if [[ ! -d "$ORT_NODE_MODULES/onnxruntime-node" ]]; then
    echo "run.sh: installing onnxruntime-node into $cache/ort" >&2
    mkdir -p "$cache/ort"
    # The CPU execution provider is in the package; skip the CUDA binaries its install script fetches.
    (cd "$cache/ort" && ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund \
      onnxruntime-node >&2)
  fi
fi
export ORT_NODE_MODULES

IFS=, read -r -a model_list <<<"$models"
"$build_dir/benchmarks/models/gen_models" "$work" "${model_list[@]}" >&2
if [[ ${#model_list[@]} -eq 0 ]]; then
  model_list=(mobilenet_v2 mobilenet_v3 resnet18 crnn transformer transformer_ln_decomposed)
fi
IFS=, read -r -a thread_list <<<"$threads"
IFS=, read -r -a backend_list <<<"$backends"

on_cpus() {  # on_cpus N COMMAND...: COMMAND on N CPUs from --pin's first one, or anywhere
  local n=$1
  shift
  if [[ -z "$pin" ]]; then
    "$@"
    return
  fi
  local total list="" i
  total=$(nproc --all)
  for ((i = 0; i < n && i < total; ++i)); do list+="${list:+,}$(((pin + i) % total))"; done
  taskset -c "$list" "$@"
}

field() {  # field NAME LINE: the value after NAME in a "key value key value" line
  awk -v k="$1" '{ for (i = 1; i < NF; ++i) if ($i == k) { print $(i + 1); exit } }' <<<"$2"
}

median() {  # median of the arguments
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for name in "${model_list[@]}"; do
  model="$work/$name.onnx"
  dir="$work/$name.out"
  mkdir -p "$dir"
  first=1
  for n in "${thread_list[@]}"; do
    if ! out=$(on_cpus "$n" "$bench" "$model" --config "cpu:threads=$n$cpu_options" --runs "$runs" \
        --write-input "$dir/input" --write-output "$dir/cpu_t$n.bin" 2>"$dir/stderr"); then
      echo "model $name import_failed: $(grep -o 'unsupported: .*' "$dir/stderr" | tr '\n' ';' ||
        cat "$dir/stderr")"
      continue 2
    fi
    line=$(grep '^tessera ' <<<"$out")
    tessera_ms=$(field median_ms "$line")
    compares=(--compare "cpu=$dir/cpu_t$n.bin")
    if [[ $first == 1 ]]; then
      emulated=$(grep '^emulated: ' <<<"$out" | sed 's/^emulated: //; s/ on cpu$//' | paste -sd, - || true)
      [[ -n "$emulated" ]] && echo "model $name emulated_on_cpu $(field emulated "$line"): $emulated"
      for b in "${backend_list[@]}"; do
        rm -f "$dir/$b.bin" "$dir/$b.line"
        if bout=$("$bench" "$model" --config "$b|cpu:threads=$n$cpu_options" --runs "$backend_runs" \
            --input "$dir/input.bin" --write-output "$dir/$b.bin" 2>"$dir/$b.stderr"); then
          grep '^tessera ' <<<"$bout" >"$dir/$b.line"
          compares+=(--compare "$b=$dir/$b.bin")
        else
          echo "model $name backend $b failed: $(tail -1 "$dir/$b.stderr")"
        fi
      done
    fi
    ort=$(on_cpus "$n" node "$repo/benchmarks/models/ort_bench.js" "$model" "$dir/input" \
      --threads "$n" --runs "$runs" "${compares[@]}")
    ort_ms=$(field median_ms "$(grep '^ort ' <<<"$ort")")
    tessera_min=$(field min_ms "$line") ort_min=$(field min_ms "$(grep '^ort ' <<<"$ort")")
    diff=$(grep '^diff cpu ' <<<"$ort" | awk '{ print $4 }')
    # Further rounds, alternating: same input, no outputs written or compared.
    tessera_round=("$tessera_ms") ort_round=("$ort_ms") ratio_round=()
    for ((round = 1; round < rounds; ++round)); do
      tl=$(on_cpus "$n" "$bench" "$model" --config "cpu:threads=$n$cpu_options" \
        --runs "$runs" --input "$dir/input.bin" 2>>"$dir/stderr" | grep '^tessera ')
      ol=$(on_cpus "$n" node "$repo/benchmarks/models/ort_bench.js" "$model" \
        "$dir/input" --threads "$n" --runs "$runs" | grep '^ort ')
      tessera_round+=("$(field median_ms "$tl")") ort_round+=("$(field median_ms "$ol")")
      tessera_min=$(printf '%s\n' "$tessera_min" "$(field min_ms "$tl")" | sort -g | head -1)
      ort_min=$(printf '%s\n' "$ort_min" "$(field min_ms "$ol")" | sort -g | head -1)
    done
    for ((round = 0; round < rounds; ++round)); do
      ratio_round+=("$(awk -v a="${tessera_round[round]}" -v b="${ort_round[round]}" \
        'BEGIN { printf "%.4f", a / b }')")
      [[ $rounds -gt 1 ]] && echo "round $round $name threads $n tessera_ms" \
        "${tessera_round[round]} ort_ms ${ort_round[round]} ratio ${ratio_round[round]}" >&2
    done
    tessera_ms=$(median "${tessera_round[@]}")
    ort_ms=$(median "${ort_round[@]}")
    ratio=$(awk -v r="$(median "${ratio_round[@]}")" 'BEGIN { printf "%.2f", r }')
    echo "model $name threads $n tessera_ms $tessera_ms ort_ms $ort_ms ratio $ratio max_diff $diff"
    echo "best model $name threads $n tessera_min_ms $tessera_min ort_min_ms $ort_min ratio" \
      "$(awk -v a="$tessera_min" -v b="$ort_min" 'BEGIN { printf "%.2f", a / b }')" >&2
    if [[ $first == 1 ]]; then
      for b in "${backend_list[@]}"; do
        [[ -f "$dir/$b.line" ]] || continue
        bl=$(cat "$dir/$b.line")
        bdiff=$(grep "^diff $b " <<<"$ort" | awk '{ print $4 }')
        echo "model $name backend $b tessera_ms $(field median_ms "$bl") max_diff $bdiff" \
          "placement $(field placement "$bl")"
      done
    fi
    first=0
  done
done
