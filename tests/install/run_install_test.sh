#!/usr/bin/env bash
# Installs the build tree into a scratch prefix and builds three things against it alone.
# Usage: run_install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
test -f "$prefix/lib/cmake/Tessera/TesseraConfig.cmake"
test -f "$prefix/lib/tessera/plugins/libtessera_plugin_reference.so"

echo "== out-of-tree plugin against the installed package"
cmake -S "$src/external_plugin" -B "$work/plugin" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" > "$work/plugin.log"
cmake --build "$work/plugin" >> "$work/plugin.log"

echo "== consumer project with find_package(Tessera)"
cmake -S "$src/consumer" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" > "$work/consumer.log"
cmake --build "$work/consumer" >> "$work/consumer.log"
TESSERA_PLUGIN_PATH="$work/plugin" "$work/consumer/consumer" | tee "$work/consumer.out"
grep -q "installed reference plugin: loaded" "$work/consumer.out"
grep -q "external plugin 'negate-test': loaded" "$work/consumer.out"
grep -q "consumer: all checks passed" "$work/consumer.out"

echo "== header-only use with nothing but the include path"
"${CXX:-c++}" -std=c++17 -I"$prefix/include" "$src/header_only_main.cpp" -o "$work/header_only"
"$work/header_only" | tee "$work/header_only.out"
grep -q "header-only: all checks passed" "$work/header_only.out"
