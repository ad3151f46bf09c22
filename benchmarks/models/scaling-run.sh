#!/usr/bin/env bash
# scaling-run.sh BUNDLE_DIR OUT_DIR [THREADS]: on the host the bundle of scaling-bundle.sh was
# carried to, unpacks it and runs, at each thread count of THREADS (default 1,2,4,8,16): the
# model benchmarks of run.sh (Tessera cpu next to ONNX Runtime, cpu backend only;
# OUT_DIR/models.txt), then bench_cpu's paired cases matching CPU_CASES (Tessera next to oneDNN;
# OUT_DIR/bench_cpu.txt and .json; at most CPU_SECONDS, default 240). OUT_DIR/host.txt gets the
# CPU's description. MODELS, RUNS and CPU_OPTIONS are passed to run.sh (--models, --runs,
# --cpu-options), ROUNDS to --rounds, PIN to --pin; CPU_SECONDS=0 skips bench_cpu.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
bundle=$(cd "$1" && pwd)
out=$2
threads=${3:-1,2,4,8,16}
mkdir -p "$out"
unxz() { LD_LIBRARY_PATH="$bundle/unpack" "$bundle/unpack/xz" -d -c "$1"; }
[[ -d "$bundle/lib" ]] || unxz "$bundle/packed/files.tar.xz" | tar -C "$bundle" -xf -
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bin="$bundle/bin"
mkdir -p "$bin"
for f in "$bundle"/packed/{node,libonnxruntime.so.1,libdnnl.so.2}.xz; do
  name=$(basename "$f" .xz)
  target="$bundle/lib/$name"
  [[ $name == node ]] && target="$bin/node"
  [[ $name == libonnxruntime.so.1 ]] &&
    target="$bundle/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/$name"
  [[ -f $target ]] || unxz "$f" >"$target"
done
chmod +x "$bin/node"
export PATH="$bin:$PATH" TESSERA_PLUGIN_PATH="$bundle/plugins" ORT_NODE_MODULES="$bundle/node_modules"
{ lscpu; nproc; } >"$out/host.txt" 2>&1 || true
TESSERA_BENCH_CACHE=/tmp/tessera-scaling-cache "$repo"/benchmarks/models/run.sh --no-build \
  --build-dir "$bundle" --backends "" --threads "$threads" --runs "${RUNS:-30}" \
  --models "${MODELS:-}" --cpu-options "${CPU_OPTIONS:-}" --rounds "${ROUNDS:-1}" \
  ${PIN:+--pin "$PIN"} \
  2>"$out/models.stderr" |
  tee "$out/models.txt"
[[ ${CPU_SECONDS:-240} == 0 ]] && exit 0
cases=${CPU_CASES:-'paired/(sgemm_1024|sgemm_2048|conv3x3_64_56|conv1x1_256to64_56|dwconv3x3_144_56)/'}
timeout "${CPU_SECONDS:-240}" "$bundle"/benchmarks/cpu/bench_cpu --threads "$threads" \
  --benchmark_filter="$cases" --benchmark_out="$out/bench_cpu.json" \
  --benchmark_out_format=json >"$out/bench_cpu.txt" 2>&1 ||
  echo "bench_cpu: exit $? (see bench_cpu.txt)"
grep -o '^paired/[^ ]*\|ratio=[0-9.]*\|ours_ms=[0-9.]*\|onednn_ms=[0-9.]*' "$out/bench_cpu.txt" |
  paste -d' ' - - - - || true
