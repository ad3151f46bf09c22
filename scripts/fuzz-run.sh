#!/usr/bin/env bash
# Runs the libFuzzer harnesses of an already built tree (configured with -DTESSERA_FUZZ=ON, clang)
# for a bounded time each, several at once, and fails if any finds a crash, a sanitizer report or
# a wrong answer. The inputs that did it are kept in BUILD_DIR/fuzz-artifacts/<harness>/; new
# corpus entries go to BUILD_DIR/fuzz-corpus/<harness>. Used by scripts/fuzz.sh and scripts/test.sh.
#   usage: scripts/fuzz-run.sh BUILD_DIR
#   FUZZ_SECONDS    seconds per harness (default 60)
#   FUZZ_HARNESSES  which harnesses (default: every *_fuzzer the build has)
#   FUZZ_PARALLEL   harnesses running at once (default: nproc)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/fuzz-run.sh BUILD_DIR}
seconds=${FUZZ_SECONDS:-60}
parallel=${FUZZ_PARALLEL:-$(nproc)}
built=$(cd "$build/tests/fuzz" 2>/dev/null && ls -- *_fuzzer 2>/dev/null | sed 's/_fuzzer$//' | tr '\n' ' ' || true)
harnesses=${FUZZ_HARNESSES:-$built}
[ -n "${harnesses// /}" ] || { echo "fuzz: no *_fuzzer programs in $build/tests/fuzz" >&2; exit 1; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:intercept_tls_get_addr=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
export POCL_CACHE_DIR="$PWD/$build/pocl-cache"
export TESSERA_LOG_LEVEL=off

# One harness: its log goes to BUILD_DIR/fuzz-<harness>.log; the first corpus folder receives new
# inputs, the committed seeds and regressions are read only.
run_harness() {
  local h=$1 corpus="$build/fuzz-corpus/$1" artifacts="$build/fuzz-artifacts/$1"
  mkdir -p "$corpus" "$artifacts"
  "$build/tests/fuzz/${h}_fuzzer" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$corpus" "tests/fuzz/corpus/$h" "tests/fuzz/regressions/$h" >"$build/fuzz-$h.log" 2>&1
}

start=$(date +%s)
echo "== fuzz: ${harnesses% } for $seconds s each, $parallel at a time"
declare -A pid_of
for h in $harnesses; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  run_harness "$h" &
  pid_of[$h]=$!
done

failed=()
for h in $harnesses; do
  if wait "${pid_of[$h]}"; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/fuzz-$h.log")
    echo "fuzz: $h clean, ${execs:-?} executions"
  else
    tail -n 60 "$build/fuzz-$h.log"
    echo "fuzz: $h FAILED; reproducer(s) in $build/fuzz-artifacts/$h: $(ls "$build/fuzz-artifacts/$h")" >&2
    failed+=("$h")
  fi
done
echo "fuzz: done in $(( $(date +%s) - start )) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}; tests/fuzz/README.md says what to do with them" >&2
  exit 1
fi
