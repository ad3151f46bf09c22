#!/usr/bin/env bash
# Quick start 1: installs what Tessera needs (Debian 12, as root), builds it, runs the demo
# network on every available backend.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_BUILD_TESTS=OFF -DTESSERA_BUILD_BENCHMARKS=OFF
cmake --build build -j"$jobs"
./build/tools/tessera --report
./build/examples/cnn_demo
