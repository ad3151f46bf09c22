#!/usr/bin/env bash
# coverage_table.sh: runs the conformance suite of a build and writes its op x backend coverage
# table (cases per op that ran native, emulated or were declined) into README.md, between the
# "conformance coverage" markers. The README is left as it is when any case fails.
# Usage: tests/conformance/coverage_table.sh [BUILD_DIR [README]]   (default: build, README.md)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
readme=${2:-$root/README.md}
suite="$build/tests/conformance/conformance_tests"
begin='<!-- conformance coverage begin -->'
end='<!-- conformance coverage end -->'

[[ -x $suite ]] || { echo "no $suite: build the conformance_tests target first" >&2; exit 1; }
grep -qF "$begin" "$readme" && grep -qF "$end" "$readme" ||
    { echo "$readme has no '$begin' ... '$end' section" >&2; exit 1; }

table=$(mktemp)
updated=$(mktemp)
trap 'rm -f "$table" "$updated"' EXIT

mkdir -p "$build/pocl-cache"
if ! POCL_CACHE_DIR="$build/pocl-cache" "$suite" --coverage="$table" >/dev/null; then
    echo "the conformance suite failed; $readme not updated (run $suite to see why)" >&2
    exit 1
fi

awk -v table="$table" -v begin="$begin" -v end="$end" '
    $0 == begin { print; while ((getline line < table) > 0) print line; skipping = 1; next }
    $0 == end { skipping = 0 }
    !skipping' "$readme" >"$updated"
cat "$updated" >"$readme"
echo "coverage table written to $readme"
