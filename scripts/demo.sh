#!/usr/bin/env bash
# Quick start 1: installs what Tessera needs (Debian 12, as root), builds it, runs the demo
# network on every available backend. Builds in build/ (shared with scripts/test.sh) with every
# option set explicitly (scripts/cmake-options.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cmake-options.sh
bash scripts/install-deps.sh
jobs=$(nproc)
cmake -S . -B build "${demo_options[@]}"
cmake --build build -j"$jobs"
./build/tools/tessera --report
./build/examples/cnn_demo
[ ! -x build/examples/myriad_demo ] || ./build/examples/myriad_demo
