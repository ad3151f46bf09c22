#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz with clang (build dir build-fuzz, everything
# instrumented with coverage + ASan + UBSan) and runs each for a bounded time (scripts/fuzz-run.sh),
# one after the other unless FUZZ_PARALLEL says more. Fails if a harness finds a crash, a sanitizer
# report or a wrong answer; the input that did it is kept in build-fuzz/fuzz-artifacts/<harness>/.
#   FUZZ_SECONDS    seconds per harness (default 60)
#   FUZZ_HARNESSES  which harnesses (default: every one that was built: config graph clml zdnn)
#   FUZZ_JOBS       build jobs (default: nproc)
#   FUZZ_BUILD_DIR  build directory (default build-fuzz)
# New corpus entries go to build-fuzz/fuzz-corpus/<harness>; tests/fuzz/README.md says how to
# run for hours and what to commit.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-$(nproc)}
build=${FUZZ_BUILD_DIR:-build-fuzz}
start=$(date +%s)

if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found; install clang and libclang-rt-14-dev (scripts/install-deps.sh)" >&2
  exit 1
fi

echo "== fuzz: configure and build ($build, clang)"
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g" -DCMAKE_C_FLAGS_RELEASE="-O1 -g" -DTESSERA_FUZZ=ON \
  -DTESSERA_BUILD_BENCHMARKS=OFF -DTESSERA_BUILD_EXAMPLES=OFF >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
grep -q "TESSERA_HAVE_LIBFUZZER:INTERNAL=1" "$build/CMakeCache.txt" ||
  { echo "fuzz: clang cannot link -fsanitize=fuzzer (install libclang-rt-14-dev)" >&2; exit 1; }

available=$(ninja -C "$build" -t targets all | sed -n 's/^\([a-z]*\)_fuzzer: .*/\1/p' | sort -u | tr '\n' ' ')
harnesses=${FUZZ_HARNESSES:-$available}
targets=()
for h in $harnesses; do targets+=("${h}_fuzzer"); done
cmake --build "$build" -j"$jobs" --target "${targets[@]}"
echo "fuzz: build took $(( $(date +%s) - start )) s"

FUZZ_HARNESSES="$harnesses" FUZZ_SECONDS="$seconds" FUZZ_PARALLEL=${FUZZ_PARALLEL:-1} \
  exec scripts/fuzz-run.sh "$build"
