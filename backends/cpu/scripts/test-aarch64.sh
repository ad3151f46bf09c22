#!/usr/bin/env bash
# Cross-builds the CPU runtime and its tests for aarch64 (NEON kernels, sequential scheduler: the
# x86 oneTBB package cannot be linked into an aarch64 binary) and runs the tests under qemu-aarch64.
# Installs g++-aarch64-linux-gnu and qemu-user with apt-get when missing (idempotent; needs root).
# Usage: backends/cpu/scripts/test-aarch64.sh [build-dir]   (default: <repo>/build-cpu-aarch64)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/.." && pwd)
repo=$(cd "$source_dir/../.." && pwd)
build=${1:-$repo/build-cpu-aarch64}

packages=(g++-aarch64-linux-gnu qemu-user)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "test-aarch64: missing ${missing[*]}; run as root to install them" >&2
    exit 1
  fi
  echo "test-aarch64: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Header-only dependencies, exposed alone so the host's /usr/include does not leak into the build.
deps="$build/deps/include"
mkdir -p "$deps"
ln -sfn /usr/include/xsimd "$deps/xsimd"
ln -sfn /usr/include/doctest "$deps/doctest"

cat > "$build/aarch64-toolchain.cmake" <<'TOOLCHAIN'
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu)
TOOLCHAIN

cmake -S "$source_dir" -B "$build" -G Ninja \
  -DCMAKE_TOOLCHAIN_FILE="$build/aarch64-toolchain.cmake" \
  -DCMAKE_BUILD_TYPE=Release \
  -DTESSERA_CPU_WITH_TBB=OFF \
  -DTESSERA_CPU_XSIMD_INCLUDE_DIR="$deps" \
  -DTESSERA_CPU_DOCTEST_INCLUDE_DIR="$deps"
cmake --build "$build" --target cpu_runtime_tests -j2

file "$build/tests/cpu_runtime_tests"
echo "test-aarch64: running the tests under qemu-aarch64"
qemu-aarch64 -L /usr/aarch64-linux-gnu "$build/tests/cpu_runtime_tests"
