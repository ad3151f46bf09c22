#!/usr/bin/env bash
# Installs every Debian 12 package Tessera's build, tests and benchmarks need. Idempotent; run as root.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config git
  xtensor-dev libxsimd-dev libfmt-dev libspdlog-dev
  opencl-c-headers opencl-clhpp-headers ocl-icd-opencl-dev pocl-opencl-icd clinfo
  libtbb-dev doctest-dev libpugixml-dev libbenchmark-dev
  libdnnl-dev libopenblas-dev libclblast-dev clang libclang-rt-14-dev
  libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages (${missing[*]}); run this script as root" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
