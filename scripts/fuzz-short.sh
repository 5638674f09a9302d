#!/usr/bin/env bash
# fuzz-short.sh [SECONDS]: runs every fuzz target of the module for
# SECONDS each (default 10; FUZZ_PARALLEL sets the workers, FUZZ_MINIMIZE
# the time spent minimizing each new input, 2s: go test's 60 s default
# leaves little of a short run to fuzzing). Targets are
# found, not listed: every `func FuzzName(` at the start of a line of a
# _test.go file, run as `go test -run='^$' -fuzz='^FuzzName$' ./pkg`.
# A crasher is written by `go test` to pkg/testdata/fuzz/FuzzName/HASH;
# the script prints the input and the command that replays it, runs the
# remaining targets, and exits 1 if any target failed. Fix the bug and
# commit the input: it then runs as a regression test in `go test ./...`.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-10}
case $secs in '' | *[!0-9]*) echo "fuzz-short.sh: SECONDS must be a whole number, not \"$secs\"" >&2; exit 2 ;; esac
parallel=${FUZZ_PARALLEL:-}

# package<TAB>target, one a line, sorted.
targets=$(grep -rEo --include='*_test.go' --exclude-dir=testdata --exclude-dir=.git '^func Fuzz[A-Za-z0-9_]*\(' . |
	sed -E 's|^(.*)/[^/]+_test\.go:func (Fuzz[A-Za-z0-9_]*)\($|\1\t\2|' | sort -u)
if [ -z "$targets" ]; then
	echo "fuzz-short.sh: no fuzz target found" >&2
	exit 2
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed=()
while IFS=$'\t' read -r pkg name; do
	start=$SECONDS
	args=(-run='^$' -fuzz="^${name}\$" -fuzztime="${secs}s" -fuzzminimizetime="${FUZZ_MINIMIZE:-2s}")
	[ -n "$parallel" ] && args+=(-parallel="$parallel")
	if go test "${args[@]}" "$pkg" >"$log" 2>&1; then
		echo "ok    $pkg $name ($((SECONDS - start)) s)"
		continue
	fi
	failed+=("$pkg $name")
	echo "FAIL  $pkg $name ($((SECONDS - start)) s)"
	sed 's/^/      /' "$log" | tail -40
	# go test prints "Failing input written to testdata/fuzz/FuzzName/HASH".
	input=$(sed -nE 's|.*Failing input written to (testdata/fuzz/[^ ]+).*|\1|p' "$log" | tail -1)
	if [ -n "$input" ]; then
		echo "      crasher: $pkg/$input"
		sed 's/^/      | /' "$pkg/$input" | head -20
		echo "      replay:  go test -run='^${name}/$(basename "$input")\$' $pkg"
	fi
done <<<"$targets"

n=$(wc -l <<<"$targets")
if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzz-short.sh: ${#failed[@]} of $n fuzz targets failed: ${failed[*]}"
	exit 1
fi
echo "fuzz-short.sh: $n fuzz targets, ${secs} s each, no crasher"
