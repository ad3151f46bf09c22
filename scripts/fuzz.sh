#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz with clang (build dir build-fuzz, everything
# instrumented with coverage + ASan + UBSan) and runs each for a bounded time, one after the other
# (suits a 2-core CI machine). Fails if a harness finds a crash, a sanitizer report or a wrong
# answer; the input that did it is kept in build-fuzz/fuzz-artifacts/<harness>/.
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

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
export POCL_CACHE_DIR="$PWD/$build/pocl-cache"
export TESSERA_LOG_LEVEL=off

failed=()
for h in $harnesses; do
  corpus="$build/fuzz-corpus/$h"
  artifacts="$build/fuzz-artifacts/$h"
  mkdir -p "$corpus" "$artifacts"
  echo "== fuzz: $h for $seconds s"
  t0=$(date +%s)
  # The first corpus folder receives new inputs; the committed seeds and regressions are read only.
  if "$build/tests/fuzz/${h}_fuzzer" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
      -print_final_stats=1 -artifact_prefix="$artifacts/" \
      "$corpus" "tests/fuzz/corpus/$h" "tests/fuzz/regressions/$h" >"$build/fuzz-$h.log" 2>&1; then
    grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$build/fuzz-$h.log" || true
    echo "fuzz: $h clean ($(( $(date +%s) - t0 )) s)"
  else
    tail -n 60 "$build/fuzz-$h.log"
    echo "fuzz: $h FAILED; reproducer(s): $(ls "$artifacts")" >&2
    failed+=("$h")
  fi
done
echo "fuzz: done in $(( $(date +%s) - start )) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}; see tests/fuzz/README.md for what to do with them" >&2
  exit 1
fi
