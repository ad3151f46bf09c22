#!/bin/sh
# make_gpu_bundle.sh BUILD_DIR BUNDLE_DIR -- copies the CLML test/benchmark binaries and the
# shared libraries they need from this (Debian 12) machine into BUNDLE_DIR, with run_bundle.sh,
# so they can run on a machine that only has a vendor OpenCL driver (e.g. libnvidia-opencl.so.1).
set -eu
build=$1
bundle=$2
mkdir -p "$bundle"
cp "$build"/backends/clml/libtessera_clml.so.1 "$build"/backends/clml/libtessera_clml_layer.so "$bundle"/
cp "$build"/backends/clml/tests/clml_tests "$build"/backends/clml/tests/clml_seed_sample "$bundle"/
[ -f "$build"/benchmarks/clml/bench_clml ] && cp "$build"/benchmarks/clml/bench_clml "$bundle"/
for lib in libOpenCL.so.1 libbenchmark.so.1debian libclblast.so.1; do
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')
  [ -n "$path" ] && cp -L "$path" "$bundle"/
done
cp "$(dirname "$0")"/run_bundle.sh "$bundle"/
echo "bundle ready in $bundle"
