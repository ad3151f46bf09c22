#!/usr/bin/env bash
# Installs the build tree, moves the installation to a folder outside the build tree (the original
# prefix is gone), and uses the moved prefix alone: no LD_LIBRARY_PATH, no TESSERA_* variables.
#  1. no installed file names the build tree, so nothing installed can search it;
#  2. the installed `tessera` finds every plugin this build made in <moved prefix>/lib/tessera/plugins,
#     and, where the ONNX importer is installed, `tessera run` runs an ONNX model;
#  3. a consumer project (find_package(Tessera)) runs an addition on each installed plugin, checked
#     against hand-computed sums, and runs an out-of-tree plugin built against the moved package;
#  4. a program compiled with nothing but the include path (its one source file includes
#     <tessera/implementation.hpp>) runs.
# Usage: run_install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$(cd "$1" && pwd -P) src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
moved_root=$(mktemp -d "${TMPDIR:-/tmp}/tessera-install-XXXXXX")
trap 'rm -rf "$moved_root"' EXIT
prefix=$moved_root/moved-prefix
mv "$work/prefix" "$prefix"
test -f "$prefix/lib/cmake/Tessera/TesseraConfig.cmake"
test -f "$prefix/lib/tessera/plugins/libtessera_plugin_reference.so"
# Only PATH and HOME (PoCL keeps its kernel cache under HOME) pass into the installed programs.
clean_env=(env -i "PATH=$PATH" "HOME=$work")

echo "== no installed file names the build tree"
if grep -rlF "$build" "$prefix"; then
  echo "FAIL: the files above name the build tree $build"; exit 1
fi

echo "== installed tessera finds every plugin built, in the moved prefix"
"${clean_env[@]}" "$prefix/bin/tessera" > "$work/tessera.out" 2>&1 || { cat "$work/tessera.out"; exit 1; }
built_plugins=$(cd "$build/plugins" && ls libtessera_plugin_*.so)
for plugin in $built_plugins; do
  if ! grep -qF "[loaded] $prefix/lib/tessera/plugins/$plugin (install dir)" "$work/tessera.out"; then
    cat "$work/tessera.out"; echo "FAIL: installed tessera did not load $plugin from $prefix"; exit 1
  fi
done
if grep -q "(build dir)" "$work/tessera.out"; then
  cat "$work/tessera.out"; echo "FAIL: installed tessera searched a build tree"; exit 1
fi

relu_model=/usr/share/libonnx-testdata/data/node/test_relu/model.onnx
if ls "$prefix"/lib*/libtessera_onnx.so > /dev/null 2>&1 && [ -f "$relu_model" ]; then
  echo "== installed tessera runs an ONNX model (libtessera_onnx found through its RUNPATH)"
  "${clean_env[@]}" "$prefix/bin/tessera" run "$relu_model" --config reference --repeat 1 \
    --output-dir "$work/onnx-out" > "$work/tessera-run.out" 2>&1 || { cat "$work/tessera-run.out"; exit 1; }
  grep -q "placement: reference 1 op(s)" "$work/tessera-run.out" &&
    test -s "$work/onnx-out/y.npy" || { cat "$work/tessera-run.out"; echo "FAIL: tessera run"; exit 1; }
fi

echo "== out-of-tree plugin against the moved package"
cmake -S "$src/external_plugin" -B "$work/plugin" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" > "$work/plugin.log"
cmake --build "$work/plugin" >> "$work/plugin.log"

echo "== consumer project with find_package(Tessera): one addition on every installed plugin"
cmake -S "$src/consumer" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" > "$work/consumer.log"
cmake --build "$work/consumer" >> "$work/consumer.log"
"${clean_env[@]}" "$work/consumer/consumer" | tee "$work/consumer.out"
grep -q "consumer: all checks passed" "$work/consumer.out"
for plugin in $built_plugins; do
  grep -q "installed plugin $prefix/lib/tessera/plugins/$plugin backend '[^']*': addition matches" \
    "$work/consumer.out" || { echo "FAIL: no checked addition on $plugin"; exit 1; }
done
"${clean_env[@]}" "TESSERA_PLUGIN_PATH=$work/plugin" "$work/consumer/consumer" --with-external |
  tee "$work/consumer-external.out"
grep -q "external plugin 'negate-test': loaded" "$work/consumer-external.out"
grep -q "consumer: all checks passed" "$work/consumer-external.out"

echo "== header-only use with nothing but the include path"
"${CXX:-c++}" -std=c++17 -I"$prefix/include" "$src/header_only_main.cpp" -o "$work/header_only"
"$work/header_only" | tee "$work/header_only.out"
grep -q "header-only: all checks passed" "$work/header_only.out"
