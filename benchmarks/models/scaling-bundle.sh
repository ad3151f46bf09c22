#!/usr/bin/env bash
# scaling-bundle.sh BUILD_DIR BUNDLE_DIR: gathers what the thread-scaling run (scaling-run.sh) needs
# on a remote host that has none of Debian's packages and no network: bench_cpu, bench_model and
# gen_models in BUILD_DIR's layout, the cpu and reference plugins, every shared library they load
# but glibc's, and ONNX Runtime for ort_bench.js (node, onnxruntime-node's JavaScript and native
# library from the run.sh cache). Everything is xz-compressed (node, libonnxruntime and libdnnl
# each, the rest as one files.tar.xz), with an xz in unpack/ to unpack it: about 50 MiB.
# Environment: TESSERA_BENCH_CACHE as in run.sh; NODE (default: node on PATH).
set -euo pipefail
build=$(cd "$1" && pwd)
bundle=$2
cache=${TESSERA_BENCH_CACHE:-$HOME/.cache/tessera-bench}
ort=${ORT_NODE_MODULES:-$cache/ort/node_modules}
rm -rf "$bundle"
mkdir -p "$bundle"/{benchmarks/cpu,benchmarks/models,plugins,lib,packed,node_modules}
cp "$build"/benchmarks/cpu/bench_cpu "$bundle"/benchmarks/cpu/
cp "$build"/benchmarks/models/{bench_model,gen_models} "$bundle"/benchmarks/models/
cp "$build"/plugins/libtessera_plugin_cpu.so "$build"/plugins/libtessera_plugin_reference.so \
  "$bundle"/plugins/
big=(libdnnl.so.2)
for f in "$bundle"/benchmarks/*/* "$bundle"/plugins/*.so; do
  ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// {print $3}'
done | sort -u | while read -r lib; do
  name=$(basename "$lib")
  case $name in
    libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*) ;;
    libdnnl.so*) xz -T2 -6 -c "$lib" >"$bundle/packed/$name.xz" ;;
    *) cp -L "$lib" "$bundle/lib/" ;;
  esac
done
# xz itself, to unpack the rest there.
mkdir -p "$bundle"/unpack
cp "$(command -v xz)" "$bundle"/unpack/xz
cp -L "$(ldd "$(command -v xz)" | awk '/liblzma/ {print $3}')" "$bundle"/unpack/
# ONNX Runtime for node: the JavaScript packages, the x64 binding and its native library.
cp -r "$ort"/onnxruntime-common "$bundle"/node_modules/
mkdir -p "$bundle"/node_modules/onnxruntime-node/bin/napi-v6/linux/x64
cp -r "$ort"/onnxruntime-node/{dist,package.json} "$bundle"/node_modules/onnxruntime-node/
native="$ort"/onnxruntime-node/bin/napi-v6/linux/x64
cp "$native"/onnxruntime_binding.node "$bundle"/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/
xz -T2 -6 -c "$native"/libonnxruntime.so.1 >"$bundle"/packed/libonnxruntime.so.1.xz
xz -T2 -6 -c "$(command -v "${NODE:-node}")" >"$bundle"/packed/node.xz
tar -C "$bundle" -cf - benchmarks plugins lib node_modules | xz -T2 -6 >"$bundle"/packed/files.tar.xz
rm -rf "$bundle"/{benchmarks,plugins,lib,node_modules}
du -sh "$bundle"
