#!/usr/bin/env bash
# device-bundle.sh BUILD_DIR BUNDLE_DIR: gathers the benchmarks (bench_cpu, bench_zdnn, bench_clml,
# bench_myriad), the CLML and Myriad tests, the Myriad standard layers (myriad-layers/) and every
# shared library they load that is not part of glibc into BUNDLE_DIR, with
# scripts/device-run.sh, so that they run on a remote GPU host that has none of Debian's packages (for example a
# Linux machine with an NVIDIA GPU and its OpenCL driver, nothing else installed). The carried ICD loader
# is pointed at the machine's own OpenCL driver by device-run.sh.
set -euo pipefail
build=$(cd "$1" && pwd)
bundle=$2
mkdir -p "$bundle"
binaries=(  # whichever of these were built
  benchmarks/cpu/bench_cpu benchmarks/zdnn/bench_zdnn benchmarks/clml/bench_clml
  backends/clml/tests/clml_tests backends/clml/tests/clml_seed_sample
  benchmarks/myriad/bench_myriad backends/myriad/tests/myriad_tests
)
present=()
for b in "${binaries[@]}"; do
  [ -x "$build/$b" ] && present+=("$b") && cp "$build/$b" "$bundle/"
done
[ -f "$build"/backends/clml/libtessera_clml_layer.so ] &&
  cp -L "$build"/backends/clml/libtessera_clml_layer.so "$bundle/"
# The Myriad layers (XML bindings and kernels) the benchmark and tests load at run time.
source_dir=$(cd "$(dirname "$0")/.." && pwd)
if [ -x "$build"/benchmarks/myriad/bench_myriad ] || [ -x "$build"/backends/myriad/tests/myriad_tests ]; then
  rm -rf "$bundle/myriad-layers"
  cp -r "$source_dir"/backends/myriad/layers "$bundle/myriad-layers"
fi
# Libraries: everything ldd resolves except the C library itself (the host's glibc must be used).
for b in "${present[@]}"; do
  ldd "$build/$b" | awk '$2 == "=>" && $3 ~ /^\// {print $3}'
done | sort -u | while read -r lib; do
  case $(basename "$lib") in
    libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*) ;;
    *) cp -L "$lib" "$bundle/" ;;
  esac
done
cp "$(dirname "$0")"/device-run.sh "$bundle/"
du -sh "$bundle"
